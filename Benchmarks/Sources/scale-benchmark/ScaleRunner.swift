import BenchmarkSupport
import Folio
import Foundation
import Glibc
import StoreFloor

/// One line of a size's table: Folio's figure beside its peer's, and the goal.
struct ScaleRow {
    enum Unit { case time, memory }

    enum Goal {
        /// Folio's figure over the peer's at most this.
        case ratio(Double)
        /// Folio's figure (MB) at most this.
        case limit(Double)
        /// Reported, no goal.
        case none
    }

    var what: String
    var folio: Double?
    var peer: Double?
    var peerName: String
    var unit: Unit
    var goal: Goal

    var ratio: Double? {
        guard let folio, let peer, peer > 0 else { return nil }
        return folio / peer
    }

    /// A command's time row against a peer's, and with a memory goal its peak-memory row.
    static func command(
        _ what: String, _ measured: CommandMeasurement, against peer: CommandMeasurement, _ peerName: String,
        goal: Goal, memory: Goal?
    ) -> (time: ScaleRow, memory: ScaleRow?) {
        (
            ScaleRow(
                what: what, folio: measured.seconds, peer: peer.seconds, peerName: peerName, unit: .time, goal: goal),
            memory.map {
                ScaleRow(
                    what: what, folio: measured.peakMiB, peer: peer.peakMiB, peerName: peerName, unit: .memory, goal: $0
                )
            }
        )
    }

    var isMet: Bool? {
        switch goal {
        case .ratio(let most): ratio.map { $0 <= most }
        case .limit(let most): folio.map { $0 <= most }
        case .none: nil
        }
    }
}

/// What one size measured.
struct SizeResult {
    var size: Int
    var sessions: Int
    var timeRows: [ScaleRow] = []
    var memoryRows: [ScaleRow] = []
    var buildTimes: [(what: String, seconds: Double)] = []
    /// The store's files and their disk use, from the stat walk.
    var files = 0
    var bytesOnDisk = 0
    var notes: [String] = []
}

/// Builds each size's stores, runs the rows, and keeps their figures.
struct ScaleRunner {
    let options: Options
    let scratch: ScratchFolders
    let commands: Commands
    let manifest: StoreManifest
    var results: [SizeResult] = []

    var sqlite3: String {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") ? "/usr/bin/sqlite3" : "sqlite3"
    }

    mutating func run() throws {
        for size in options.sizes { results.append(try measure(size: size)) }
    }

    private func measure(size: Int) throws -> SizeResult {
        let label = Format.grouped(size)
        let stores = try ScaleStores.build(
            size: size, manifest: manifest, queryCount: options.warmQueries, scratch: scratch, commands: commands)
        var result = SizeResult(size: size, sessions: stores.data.sessionCount, buildTimes: stores.buildTimes)
        let store = stores.store
        let session = stores.targetSession.uuidString
        let filter = "sessionID == \"\(session)\""
        let folio = options.folio
        let runs = options.runs
        let memoryGoal = options.commandMemoryGoal(size: size)
        func note(_ text: String) { ProgressLog.note("\(label): \(text)") }
        let (expect, lines) = (OutputCheck.equals, OutputCheck.lines)
        func nonEmpty(_ what: String) -> (CommandRun) throws -> Void {
            { run in
                guard !run.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                    throw BenchmarkFailure("\(what) printed nothing")
                }
            }
        }
        func folioCommand(_ arguments: String..., check: ((CommandRun) throws -> Void)? = nil) -> MeasuredCommand {
            MeasuredCommand([folio] + arguments + ["--store", store], check: check)
        }
        func sqlite(_ query: String, check: @escaping (CommandRun) throws -> Void) -> MeasuredCommand {
            MeasuredCommand([sqlite3, stores.database, query], check: check)
        }
        let gitStatus = MeasuredCommand(["git", "-C", store, "status"])
        var timeRows: [ScaleRow] = []
        var memoryRows: [ScaleRow] = []
        /// A CLI row: its time against a peer's, and its peak memory against the goal (the peer's beside).
        func cliRow(
            _ what: String, _ measured: CommandMeasurement, against peer: CommandMeasurement, _ peerName: String,
            goal: ScaleRow.Goal, memory: ScaleRow.Goal? = nil
        ) {
            let rows = ScaleRow.command(what, measured, against: peer, peerName, goal: goal, memory: memory)
            timeRows.append(rows.time)
            memoryRows += rows.memory.map { [$0] } ?? []
        }
        let cliMemory = ScaleRow.Goal.limit(memoryGoal)

        // 1. git status: the baseline, and the store must be as committed.
        note("git status")
        let baseline = try commands.measure(
            runs: runs,
            [
                MeasuredCommand(gitStatus.arguments) { run in
                    guard run.output.contains("nothing to commit") else {
                        throw BenchmarkFailure("git status of the store is not clean:\n\(run.output.prefix(1_000))")
                    }
                }
            ])[0]
        timeRows.append(
            ScaleRow(
                what: "1. `git status` (baseline)", folio: nil, peer: baseline.seconds, peerName: "git status",
                unit: .time, goal: .none))
        memoryRows.append(
            ScaleRow(
                what: "1. `git status` (baseline)", folio: nil, peer: baseline.peakMiB, peerName: "git status",
                unit: .memory, goal: .none))

        // 2. count of one session's strokes, taking turns with git status and the sqlite3 shell.
        note("folio count")
        let strokes = String(stores.targetStrokes)
        let counts = try commands.measure(
            runs: runs,
            [
                folioCommand("count", "PerformanceMetric", filter, check: expect(strokes, "folio count")),
                gitStatus,
                sqlite(
                    "SELECT count(*) FROM metric WHERE sessionID = '\(session)'",
                    check: expect(strokes, "sqlite3's count")),
            ])
        cliRow(
            "2. `folio count PerformanceMetric 'sessionID == …'`", counts[0], against: counts[1], "git status",
            goal: .ratio(1.2), memory: cliMemory)
        cliRow(
            "2. the same", counts[0], against: counts[2], "sqlite3 shell: `SELECT count(*) … WHERE sessionID = …`",
            goal: .none, memory: ScaleRow.Goal.none)

        // 3. the session's first five strokes.
        note("folio query")
        let queries = try commands.measure(
            runs: runs,
            [
                folioCommand(
                    "query", "PerformanceMetric", filter, "--sort", "timestamp", "--limit", "5",
                    check: lines(6, "folio query")),
                gitStatus,
                sqlite(
                    "SELECT * FROM metric WHERE sessionID = '\(session)' ORDER BY timestamp LIMIT 5",
                    check: lines(5, "sqlite3's query")),
            ])
        cliRow(
            "3. `folio query PerformanceMetric 'sessionID == …' --sort timestamp --limit 5`", queries[0],
            against: queries[1], "git status", goal: .ratio(1.2), memory: cliMemory)
        cliRow(
            "3. the same", queries[0], against: queries[2], "sqlite3 shell: `SELECT * … ORDER BY timestamp LIMIT 5`",
            goal: .none, memory: ScaleRow.Goal.none)

        // 4. average power by stroke phase.
        note("folio aggregate")
        let aggregates = try commands.measure(
            runs: runs,
            [
                folioCommand(
                    "aggregate", "PerformanceMetric", "average", "--of", "power", "--group-by", "strokePhase",
                    check: lines(5, "folio aggregate")),
                gitStatus,
                sqlite(
                    "SELECT strokePhase, avg(power), count(*) FROM metric GROUP BY strokePhase",
                    check: lines(4, "sqlite3's average")),
            ])
        cliRow(
            "4. `folio aggregate PerformanceMetric average --of power --group-by strokePhase`", aggregates[0],
            against: aggregates[2], "sqlite3 shell: `SELECT strokePhase, avg(power) … GROUP BY strokePhase`",
            goal: .none, memory: cliMemory)
        cliRow("4. the same", aggregates[0], against: aggregates[1], "git status", goal: .none)

        // 5. info.
        note("folio info")
        let infos = try commands.measure(runs: runs, [folioCommand("info", check: nonEmpty("folio info")), gitStatus])
        cliRow("5. `folio info`", infos[0], against: infos[1], "git status", goal: .ratio(1.2), memory: cliMemory)

        // 7. check (before the inserts, so that it checks the store as built).
        note("folio check")
        let checks = try commands.measure(runs: runs, [folioCommand("check"), gitStatus])
        cliRow("7. `folio check`", checks[0], against: checks[1], "git status", goal: .none, memory: cliMemory)

        // 8. the small entity: the sessions, on this store and on a store of only the sessions.
        note("folio count RowingSession")
        let sessions = String(stores.data.sessionCount)
        let sessionCounts = try commands.measure(
            runs: runs,
            [
                folioCommand("count", "RowingSession", check: expect(sessions, "folio count RowingSession")),
                MeasuredCommand(
                    [folio, "count", "RowingSession", "--store", stores.sessionsStore],
                    check: expect(sessions, "folio count RowingSession on the sessions' store")),
                gitStatus,
            ])
        cliRow(
            "8. `folio count RowingSession`", sessionCounts[0], against: sessionCounts[1],
            "the same on a store of only the \(Format.grouped(stores.data.sessionCount)) sessions", goal: .ratio(1.2),
            memory: cliMemory)
        cliRow("8. the same", sessionCounts[0], against: sessionCounts[2], "git status", goal: .none)

        // The read-only commands must have left the store as git has it.
        let status = try commands.succeed(["git", "-C", store, "status", "--porcelain"])
        guard status.output.isEmpty else {
            throw BenchmarkFailure("the read-only commands changed the store:\n\(status.output.prefix(1_000))")
        }

        // 10, 11. The app: open + first fetch, memory, then warm queries; the stat walk; SQLite.
        note("the app's open and first fetch (a child process each)")
        var apps: [AppMeasurement] = []
        for run in 0...options.appRuns {
            let measured = try AppChild.spawn(
                warmUpStore: stores.sessionsStore, store: store, session: stores.targetSession,
                strokes: stores.targetStrokes, queriesFile: stores.queriesFile)
            if run > 0 { apps.append(measured) }
        }
        note("the stat walk of PerformanceMetric/")
        var walks: [Double] = []
        var walk = store_floor_walk_totals()
        for run in 0...runs {
            let start = ContinuousClock.now
            let failure = store_floor_stat_walk_entity(store + "/PerformanceMetric", &walk)
            let time = Format.seconds(start.duration(to: .now))
            guard failure == 0, walk.files == size else {
                throw BenchmarkFailure("the stat walk found \(walk.files) strokes (error \(failure)), not \(size)")
            }
            if run > 0 { walks.append(time) }
        }
        result.files = Int(walk.files)
        result.bytesOnDisk = Int(walk.file_bytes_on_disk + walk.folder_bytes_on_disk)
        note("SQLite's warm queries")
        let sqliteQueries = try SQLitePeer(path: stores.database).warmQueries(stores.queries)
        timeRows.append(
            ScaleRow(
                what: "10. app: `ModelContainer` open + first fetch of one session's strokes",
                folio: median(apps.map(\.openAndFetch)),
                peer: median(walks), peerName: "C stat walk of `PerformanceMetric/` (opendir/readdir/fstatat)",
                unit: .time, goal: .ratio(1.5)))
        timeRows.append(
            ScaleRow(
                what: "11. app, warm: point lookup by id (`fetch`, `#Predicate { $0.id == id }`)",
                folio: median(apps.map(\.pointLookup)), peer: sqliteQueries.pointLookup,
                peerName: "SQLite C API, prepared `SELECT * … WHERE id = ?`, every column read", unit: .time,
                goal: .ratio(1)))
        timeRows.append(
            ScaleRow(
                what: "11. app, warm: `fetchCount` of one session's strokes (indexed)",
                folio: median(apps.map(\.fetchCount)), peer: sqliteQueries.count,
                peerName: "SQLite C API, prepared `SELECT count(*) … WHERE sessionID = ?`", unit: .time, goal: .ratio(1)
            ))
        memoryRows.append(
            ScaleRow(
                what: "10. app: resident memory growth, open + first fetch",
                folio: median(apps.map { Double($0.residentGrowthKiB) / 1_024 }),
                peer: nil, peerName: "", unit: .memory, goal: size <= 200_000 ? .limit(32) : .none))
        memoryRows.append(
            ScaleRow(
                what: "10. app: heap in use growth (`mallinfo2`), open + first fetch",
                folio: median(apps.map { Double($0.heapGrowthBytes) / 1_048_576 }), peer: nil, peerName: "",
                unit: .memory, goal: .none))

        // 6. insert one stroke: last of the CLI rows, since each run adds one.
        note("folio insert")
        let inserts = try commands.measure(
            runs: runs,
            [
                MeasuredCommand(
                    { run in
                        [folio, "insert", "PerformanceMetric"] + Self.insertion(run: run, session: stores.targetSession)
                            + ["--store", store]
                    }, check: lines(1, "folio insert"), prepare: { sync() }),
                gitStatus,
            ])
        cliRow(
            "6. `folio insert PerformanceMetric …` (one stroke)", inserts[0], against: inserts[1], "git status",
            goal: .ratio(1.2), memory: cliMemory)

        // 12 to 16 ask the import's store, with the seed's schema as it is: what no index serves.
        let seed = SeedSchemaRows(
            commands: commands, folio: folio, store: stores.importStore, database: stores.importDatabase,
            sqlite3: sqlite3, gitStatus: gitStatus, filter: filter, session: session, strokes: strokes, runs: runs,
            memoryGoal: memoryGoal, warmUpStore: stores.sessionsStore, queriesFile: stores.queriesFile,
            appRuns: options.appRuns, statWalk: median(walks))

        // 9. import every stroke in one transaction, once each.
        note("folio import of \(label) strokes (one run)")
        sync()
        let folioImport = CommandMeasurement(runs: [
            try commands.succeed([folio, "import", "PerformanceMetric", stores.ndjson, "--store", stores.importStore])
        ])
        guard
            folioImport.runs[0].output.contains("\(label) records")
                || folioImport.runs[0].output.contains("\(size) records")
        else {
            throw BenchmarkFailure("folio import printed \(folioImport.runs[0].output.prefix(300).debugDescription)")
        }
        note("folio count on the seed's schema, the first command after the import")
        let firstAfterImport = try seed.firstCommandAfterImport()
        note("sqlite3 shell import of \(label) strokes (one run)")
        sync()
        let sqliteImport = CommandMeasurement(runs: [
            try commands.succeed([sqlite3, stores.importDatabase, ".read \(stores.sqlScript)"])
        ])
        let imported = try SQLitePeer(path: stores.importDatabase).metricCount()
        guard imported == size else {
            throw BenchmarkFailure("the sqlite3 shell imported \(imported) strokes, not \(size)")
        }
        timeRows.append(
            ScaleRow(
                what: "9. `folio import PerformanceMetric strokes.ndjson` (all, 1 transaction; 1 run)",
                folio: folioImport.seconds, peer: sqliteImport.seconds,
                peerName: "sqlite3 shell: `.read` of `BEGIN; INSERT …; COMMIT;` (1 run)", unit: .time, goal: .none))
        note("the C floor: the import's \(label) files written again, then syncfs (one run)")
        sync()
        let floorSeconds = try ImportFloor(store: stores.importStore, entity: "PerformanceMetric")
            .measure(into: try scratch.fresh(purpose: "import-floor-\(size)"))
        timeRows.append(
            ScaleRow(
                what: "9. `folio import` of all strokes, against writing the same files",
                folio: folioImport.seconds, peer: floorSeconds,
                peerName: "C floor: temporary file + rename each, one syncfs (`StoreFloor`, 1 run)", unit: .time,
                goal: .ratio(2)))
        memoryRows.append(
            ScaleRow(
                what: "9. `folio import` of all strokes", folio: folioImport.peakMiB, peer: sqliteImport.peakMiB,
                peerName: "sqlite3 shell import", unit: .memory, goal: .limit(256)))

        // 12 to 16.
        let seedRows = try seed.measure(first: firstAfterImport, note: note)
        timeRows += seedRows.time
        memoryRows += seedRows.memory

        let order = ["1.", "2.", "3.", "4.", "5.", "6.", "7.", "8.", "9.", "10.", "11.", "12.", "13.", "14.", "15."]
        let rank = { (row: ScaleRow) in order.firstIndex { row.what.hasPrefix($0) } ?? order.count }
        result.timeRows = timeRows.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }
            .map(\.element)
        result.memoryRows = memoryRows.enumerated().sorted {
            (rank($0.element), $0.offset) < (rank($1.element), $1.offset)
        }.map(\.element)
        return result
    }

    /// `property=value` arguments of a new stroke for `folio insert`, different for every run.
    static func insertion(run: Int, session: UUID) -> [String] {
        var seeding = SplitMix64(seed: 0xADD_0000 ^ UInt64(run))
        var random = Random(seed: seeding.next())
        let timestamp = RowingData.yearStart.addingTimeInterval(Double(366 * 86_400 + 2 * run))
        return [
            "id=\(random.uuid().uuidString)", "sessionID=\(session.uuidString)", "timestamp=\(dateText(timestamp))",
            "distance=\(random.tenths(in: 10_000...60_000))", "pace=\(random.tenths(in: 950...1_600))",
            "strokeRate=\(random.integer(in: 16...38))", "power=\(random.tenths(in: 800...9_000))",
            "strokeCount=\(721 + run)", "heartRate=\(random.integer(in: 90...195))",
            "strokePhase=\(RowingData.strokePhases[random.integer(in: 0...3)])",
            "driveTime=\(random.hundredths(in: 60...120))", "recoveryTime=\(random.hundredths(in: 100...250))",
            "strokeLength=\(random.hundredths(in: 120...160))", "peakForce=\(random.tenths(in: 3_000...12_000))",
            "averageForce=\(random.tenths(in: 1_500...7_000))", "workPerStroke=\(random.tenths(in: 2_000...11_000))",
            "session=\(session.uuidString)",
        ]
    }
}

/// SQLite's side of the warm queries, through the C API with prepared statements, in this
/// process (the database in the page cache).
struct SQLitePeer {
    let database: SQLiteDatabase

    init(path: String) throws { database = try SQLiteDatabase(path: path, readOnly: true) }

    func metricCount() throws -> Int {
        let statement = try database.prepare("SELECT count(*) FROM metric")
        _ = try statement.step()
        return statement.integer(0)
    }

    /// Median seconds of a point lookup (every column read into a record) and of a count of
    /// a session's strokes, over the same queries as the app's, a few untimed first.
    func warmQueries(_ queries: AppQueries) throws -> (pointLookup: Double, count: Double) {
        let lookup = try database.prepare("SELECT * FROM metric WHERE id = ?")
        let count = try database.prepare("SELECT count(*) FROM metric WHERE sessionID = ?")
        let clock = ContinuousClock()
        var pointTimes: [Double] = []
        for (index, id) in queries.strokeIDs.enumerated() {
            let text = id.uuidString
            let begin = clock.now
            lookup.bind(.text(text), at: 1)
            var found: [StrokeRecord] = []
            while try lookup.step() { found.append(Self.stroke(lookup)) }
            lookup.reset()
            let time = begin.duration(to: clock.now)
            guard found.count == 1, found[0].id == id else {
                throw BenchmarkFailure("SQLite's point lookup of \(id) found \(found.count) rows")
            }
            if index >= AppQueries.warmUp { pointTimes.append(Format.seconds(time)) }
        }
        var countTimes: [Double] = []
        for (index, query) in queries.sessions.enumerated() {
            let begin = clock.now
            count.bind(.text(query.id.uuidString), at: 1)
            _ = try count.step()
            let strokes = count.integer(0)
            count.reset()
            let time = begin.duration(to: clock.now)
            guard strokes == query.strokes else {
                throw BenchmarkFailure("SQLite counted \(strokes) strokes of session \(query.id), not \(query.strokes)")
            }
            if index >= AppQueries.warmUp { countTimes.append(Format.seconds(time)) }
        }
        return (median(pointTimes), median(countTimes))
    }

    /// A row of `metric` as a record, every column read, as a model's values are.
    private static func stroke(_ row: SQLiteDatabase.Statement) -> StrokeRecord {
        let session = row.text(1).flatMap(UUID.init(uuidString:)) ?? UUID()
        return StrokeRecord(
            id: row.text(0).flatMap(UUID.init(uuidString:)) ?? UUID(), sessionID: session,
            timestamp: row.text(2).flatMap { try? ISO8601Timestamp.date(from: .string($0)) } ?? Date.distantPast,
            distance: row.real(3), pace: row.real(4), strokeRate: row.integer(5), power: row.real(6),
            strokeCount: row.integer(7), heartRate: row.isNull(8) ? nil : row.integer(8),
            strokePhase: row.text(9) ?? "", driveTime: row.real(10), recoveryTime: row.real(11),
            strokeLength: row.real(12), peakForce: row.real(13), averageForce: row.real(14),
            workPerStroke: row.real(15))
    }
}
