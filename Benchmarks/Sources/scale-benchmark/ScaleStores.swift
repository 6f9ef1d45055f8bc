import BenchmarkSupport
import Folio
import Foundation

/// Everything one size's rows work on, each in its own new folder.
struct ScaleStores {
    let data: RowingData
    /// The rowing store: every session and stroke, committed to git.
    let store: String
    /// A store of the same manifest holding only the sessions.
    let sessionsStore: String
    /// A store of the seed's own manifest (no index on `sessionID`) with the sessions and no
    /// strokes, for `folio import`
    /// (a stroke's `session` must point at a session that exists).
    let importStore: String
    /// The SQLite database of the same rows.
    let database: String
    /// The same for the sqlite3 shell's import: both tables and the index, the sessions' rows.
    let importDatabase: String
    /// The strokes as NDJSON, for `folio import`, and as one SQL transaction, for the sqlite3 shell.
    let ndjson: String
    let sqlScript: String
    /// The warm queries of the app rows (`AppQueries`), for the app's child and SQLite alike.
    let queriesFile: String
    let queries: AppQueries
    /// The session the CLI and the first fetch ask for, and its strokes.
    let targetSession: UUID
    let targetStrokes: Int
    /// How long making each part took, for the report.
    var buildTimes: [(what: String, seconds: Double)]

    /// Builds the stores through Folio's `DocumentStore` (so the files are exactly what Folio
    /// writes), commits the rowing store to git, and writes the SQLite database and the files
    /// to import, all from one pass over the records.
    static func build(
        size: Int, manifest: StoreManifest, queryCount: Int, scratch: ScratchFolders, commands: Commands
    ) throws -> ScaleStores {
        let data = RowingData(strokes: size)
        let label = Format.grouped(size)
        let store = try scratch.fresh(purpose: "store-\(size)")
        let sessionsStore = try scratch.fresh(purpose: "sessions-\(size)")
        let importStore = try scratch.fresh(purpose: "import-\(size)")
        let files = try scratch.fresh(purpose: "files-\(size)")
        let database = files + "/rowing.sqlite"
        let ndjson = files + "/strokes.ndjson"
        let sqlScript = files + "/strokes.sql"
        let queriesFile = files + "/queries.txt"
        let importDatabase = try scratch.fresh(purpose: "sqlite-import-\(size)") + "/rowing.sqlite"
        var buildTimes: [(String, Double)] = []
        let clock = ContinuousClock()
        var start = clock.now

        // The strokes the point lookups ask for (spread over the sessions and their strokes),
        // and the sessions the counts ask for (in turn).
        let total = AppQueries.warmUp + queryCount
        var lookups: [Int: [Int]] = [:]
        for index in 0..<total {
            let session = index * data.sessionCount / total
            lookups[session, default: []].append((index * 7_919) % data.strokeCount(ofSession: session))
        }
        var strokeIDs: [UUID] = []
        var sessionIDs: [UUID] = []

        ProgressLog.note("\(label): writing the stores, the SQLite database and the files to import")
        let folio = try DocumentStore.create(at: store, manifest: manifest, durability: .none)
        let sessionsOnly = try DocumentStore.create(at: sessionsStore, manifest: manifest, durability: .none)
        let sqlite = try SQLiteDatabase(path: database)
        try sqlite.execute("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN;" + SQL.schema)
        let insertMetric = try sqlite.prepare(
            "INSERT INTO metric VALUES (" + Array(repeating: "?", count: SQL.metricColumns).joined(separator: ",") + ")"
        )
        let insertSession = try sqlite.prepare(
            "INSERT INTO session VALUES (" + Array(repeating: "?", count: SQL.sessionColumns).joined(separator: ",")
                + ")")
        let ndjsonFile = try TextFile(path: ndjson)
        let sqlFile = try TextFile(path: sqlScript)
        sqlFile.write("BEGIN;\n")

        var batch: [DocumentChange] = []
        var sessionDocuments: [DocumentChange] = []
        var sessionRecords: [SessionRecord] = []
        var written = 0
        var targetSession = UUID()
        for index in 0..<data.sessionCount {
            let (session, strokes) = data.session(index)
            sessionIDs.append(session.id)
            sessionRecords.append(session)
            if index == data.targetSession { targetSession = session.id }
            let sessionDocument = Document(
                entity: "RowingSession", id: session.id, partitionDate: session.startTime, content: session.content)
            batch.append(.put(sessionDocument, basedOn: nil))
            sessionDocuments.append(.put(sessionDocument, basedOn: nil))
            try insert(session.sqliteValues, with: insertSession)
            for position in lookups[index] ?? [] { strokeIDs.append(strokes[position].id) }
            for stroke in strokes {
                batch.append(
                    .put(
                        Document(
                            entity: "PerformanceMetric", id: stroke.id, partitionDate: stroke.timestamp,
                            content: stroke.content), basedOn: nil))
                try insert(stroke.sqliteValues, with: insertMetric)
                ndjsonFile.write(stroke.ndjson + "\n")
                sqlFile.write(SQL.insert(into: "metric", stroke.sqlValues) + "\n")
                written += 1
                if batch.count >= 10_000 {
                    try folio.commit(batch)
                    batch.removeAll(keepingCapacity: true)
                    if written % 100_000 < 10_000 || written == size {
                        ProgressLog.note("\(label): \(Format.grouped(written)) of \(label) strokes written")
                    }
                }
            }
        }
        if !batch.isEmpty { try folio.commit(batch) }
        try sessionsOnly.commit(sessionDocuments)
        // The seed's schema as it is (no index on `sessionID`): rows 12 to 14 ask it what no index serves.
        let importing = try DocumentStore.create(
            at: importStore, manifest: try RowingManifest.seedManifest(), durability: .none)
        try importing.commit(sessionDocuments)
        try importing.close()
        sqlFile.write("COMMIT;\n")
        try ndjsonFile.close()
        try sqlFile.close()
        try folio.close()
        try sessionsOnly.close()
        try sqlite.execute(SQL.index + " COMMIT;")
        let importSQLite = try SQLiteDatabase(path: importDatabase)
        try importSQLite.execute("BEGIN;" + SQL.schema + SQL.index)
        let importSession = try importSQLite.prepare(
            "INSERT INTO session VALUES (" + Array(repeating: "?", count: SQL.sessionColumns).joined(separator: ",")
                + ")")
        for session in sessionRecords { try insert(session.sqliteValues, with: importSession) }
        try importSQLite.execute("COMMIT;")
        buildTimes.append(
            (
                "Folio stores (`DocumentStore`, batches of 10,000, `.none`), SQLite and the import files",
                seconds(since: start)
            ))

        start = clock.now
        ProgressLog.note("\(label): git init, git add -A and git commit in the store")
        let git = ["git", "-C", store, "-c", "gc.auto=0", "-c", "maintenance.auto=false"]
        try commands.succeed(git + ["init", "-q", "-b", "main"])
        try commands.succeed(git + ["add", "-A"])
        try commands.succeed(
            git + [
                "-c", "user.name=scale-benchmark", "-c", "user.email=scale-benchmark@example.invalid", "commit", "-q",
                "-m", "\(label) strokes",
            ])
        buildTimes.append(("git init, add -A, commit", seconds(since: start)))

        let queries = AppQueries(
            strokeIDs: strokeIDs,
            sessions: (0..<total).map { index in
                let session = (index * 31) % data.sessionCount
                return (sessionIDs[session], data.strokeCount(ofSession: session))
            })
        try queries.write(to: queriesFile)
        return ScaleStores(
            data: data, store: store, sessionsStore: sessionsStore, importStore: importStore, database: database,
            importDatabase: importDatabase, ndjson: ndjson, sqlScript: sqlScript, queriesFile: queriesFile,
            queries: queries, targetSession: targetSession,
            targetStrokes: data.strokeCount(ofSession: data.targetSession), buildTimes: buildTimes)
    }

    private static func insert(_ values: [SQLiteValue], with statement: SQLiteDatabase.Statement) throws {
        for (index, value) in values.enumerated() { statement.bind(value, at: Int32(index + 1)) }
        _ = try statement.step()
        statement.reset()
    }

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        Format.seconds(start.duration(to: .now))
    }
}

/// A text file written through a buffer.
final class TextFile {
    private let handle: FileHandle
    private var buffer: [UInt8] = []

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw BenchmarkFailure("could not create \(path)")
        }
        handle = try FileHandle(forWritingTo: URL(filePath: path))
        buffer.reserveCapacity(1 << 20)
    }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 20 { flush() }
    }

    private func flush() {
        handle.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }

    func close() throws {
        flush()
        try handle.close()
    }
}
