import BenchmarkSupport
import FolioJSON
import Foundation

/// Rows 12 to 16: the store `folio import` made, whose manifest is the seed's as it is (no
/// index on `PerformanceMetric.sessionID`), asked what no index serves, beside `git status`
/// of the same tree and the sqlite3 shell without an index; then the index added to
/// `folio.json` by hand, which the cache file does not hold yet; last, an app's first fetch
/// on that store, its models declaring the index the cache file does not hold (16).
struct SeedSchemaRows {
    let commands: Commands
    let folio: String
    /// The import's store.
    let store: String
    /// The import's SQLite database, whose index on `sessionID` these rows drop.
    let database: String
    let sqlite3: String
    let gitStatus: MeasuredCommand
    let filter: String
    let session: String
    let strokes: String
    let runs: Int
    let memoryGoal: Double
    /// For row 16, the app's child process: the store it warms up on, the warm queries' file,
    /// how many children, and the C stat walk's median time over the strokes' folder.
    let warmUpStore: String
    let queriesFile: String
    let appRuns: Int
    let statWalk: Double

    /// Row 12's count, of one session's strokes by the filter no index serves.
    var count: MeasuredCommand {
        MeasuredCommand(
            [folio, "count", "PerformanceMetric", filter, "--store", store],
            check: OutputCheck.equals(strokes, "folio count"))
    }

    /// Row 13: the count run once, right after the import, before the peers' imports write
    /// their files (a million files another program writes in between is the page and inode
    /// caches' cost, not the first command's).
    func firstCommandAfterImport() throws -> CommandRun {
        let first = try commands.succeed(count.arguments(0))
        try count.check?(first)
        return first
    }

    /// Rows 12 to 16, row 13 from `first` (see `firstCommandAfterImport`).
    func measure(first: CommandRun, note: (String) -> Void) throws -> (time: [ScaleRow], memory: [ScaleRow]) {
        var time: [ScaleRow] = []
        var memory: [ScaleRow] = []
        func row(
            _ what: String, _ measured: CommandMeasurement, _ peer: CommandMeasurement, _ peerName: String,
            goal: ScaleRow.Goal, memoryGoal: ScaleRow.Goal?
        ) {
            let rows = ScaleRow.command(what, measured, against: peer, peerName, goal: goal, memory: memoryGoal)
            time.append(rows.time)
            memory += rows.memory.map { [$0] } ?? []
        }
        let count = self.count
        let limit = ScaleRow.Goal.limit(memoryGoal)

        // 13. The first command after the import (run then), and the same command again (12).
        _ = try commands.succeed([sqlite3, database, "DROP INDEX IF EXISTS metric_sessionID;"])
        let sqlite = MeasuredCommand(
            [sqlite3, database, "SELECT count(*) FROM metric WHERE sessionID = '\(session)'"],
            check: OutputCheck.equals(strokes, "sqlite3's count"))
        note("folio count on the seed's schema (no index)")
        let counts = try commands.measure(runs: runs, [count, gitStatus, sqlite])
        let what = "12. `folio count PerformanceMetric 'sessionID == …'`, the seed's schema (no index)"
        row(what, counts[0], counts[1], "git status", goal: .ratio(1.2), memoryGoal: limit)
        row(
            "12. the same", counts[0], counts[2],
            "sqlite3 shell without an index: `SELECT count(*) … WHERE sessionID = …`",
            goal: .none, memoryGoal: ScaleRow.Goal.none)
        row(
            "13. the first command after the import (that count, 1 run)", CommandMeasurement(runs: [first]), counts[0],
            "the same count, later runs", goal: .ratio(1.2), memoryGoal: nil)

        // 14. The session's first five strokes, no index: the page is all that is kept.
        note("folio query on the seed's schema (no index)")
        let queries = try commands.measure(
            runs: runs,
            [
                MeasuredCommand(
                    [
                        folio, "query", "PerformanceMetric", filter, "--sort", "timestamp", "--limit", "5", "--store",
                        store,
                    ],
                    check: OutputCheck.lines(6, "folio query")),
                gitStatus,
            ])
        row(
            "14. `folio query … 'sessionID == …' --sort timestamp --limit 5`, no index", queries[0], queries[1],
            "git status", goal: .ratio(1.2), memoryGoal: limit)

        // 15. The index added to folio.json by hand: declared, not in the cache file yet.
        try addSessionIndex()
        note("folio count with the index declared after the documents")
        let declared = try commands.measure(runs: runs, [count, gitStatus])
        row(
            "15. the count after adding `\"indices\": [[\"sessionID\"]]` to `folio.json`", declared[0], declared[1],
            "git status", goal: .ratio(1.2), memoryGoal: limit)

        // 16. An app whose `#Index` on `sessionID` is new to the store: its first fetch is a
        // scan, which keeps its results, not the entity.
        note("the app's open and first fetch on the seed's store (no index built; a child process each)")
        guard let target = UUID(uuidString: session), let count = Int(strokes) else {
            throw BenchmarkFailure("row 16 needs a session UUID and a stroke count, not \(session) and \(strokes)")
        }
        var apps: [AppMeasurement] = []
        for run in 0...appRuns {
            let measured = try AppChild.spawn(
                warmUpStore: warmUpStore, store: store, session: target, strokes: count, queriesFile: queriesFile)
            if run > 0 { apps.append(measured) }
        }
        let app = "16. app: `ModelContainer` open + first fetch of one session's strokes, no index built"
        time.append(
            ScaleRow(
                what: app, folio: median(apps.map(\.openAndFetch)), peer: statWalk,
                peerName: "C stat walk of `PerformanceMetric/` (opendir/readdir/fstatat)", unit: .time, goal: .none))
        memory.append(
            ScaleRow(
                what: "16. app: resident memory growth, open + first fetch, no index built",
                folio: median(apps.map { Double($0.residentGrowthKiB) / 1_024 }), peer: nil, peerName: "",
                unit: .memory, goal: limit))
        memory.append(
            ScaleRow(
                what: "16. app: heap in use growth (`mallinfo2`), open + first fetch, no index built",
                folio: median(apps.map { Double($0.heapGrowthBytes) / 1_048_576 }), peer: nil, peerName: "",
                unit: .memory, goal: .none))
        return (time, memory)
    }

    /// Adds the index on `sessionID` to the store's `folio.json`, as a person would.
    private func addSessionIndex() throws {
        let path = store + "/folio.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let indexed = try RowingManifest.indexingSessions(try JSONReader().read(text, file: path))
        try Data(try JSONWriter().write(indexed)).write(to: URL(filePath: path))
    }
}
