import BenchmarkSupport
import Folio
import Foundation
import HeapUse

/// The app rows' child process: the benchmark runs itself as
/// `--app-child <warm-up store> <store> <session UUID> <strokes> <queries file>`, and the
/// child prints one line of numbers (see `AppMeasurement`).
///
/// A fresh process per measurement, so that what the open and the first fetch make the
/// process grow by is theirs alone. It first opens the small sessions-only store (the same
/// schema) and fetches from it, so that code paged in and one-time set-up (type metadata,
/// the first allocations) are not counted as the big store's; then, on the clock, it
/// opens a `ModelContainer` on the big store and fetches the session's strokes, and reads
/// its resident memory (`VmRSS`) and glibc's heap in use before and after. Then come the
/// warm queries: point lookups by id and `fetchCount`s of sessions' strokes, each its own
/// `fetch` on the same context, timed one by one.
enum AppChild {
    static let command = "--app-child"

    static func run(arguments: [String]) throws {
        guard arguments.count == 5, let session = UUID(uuidString: arguments[2]), let strokes = Int(arguments[3]) else {
            throw BenchmarkFailure(
                "usage: scale-benchmark \(command) <warm-up store> <store> <session UUID> <strokes> <queries file>")
        }
        let queries = try AppQueries(file: arguments[4])
        do {
            let container = try container(at: arguments[0])
            let context = ModelContext(container)
            _ = try context.fetch(FetchDescriptor<PerformanceMetric>(predicate: #Predicate { $0.sessionID == session }))
            _ = try context.fetch(FetchDescriptor<RowingSession>())
        }
        let residentBefore = try residentKiB()
        let heapBefore = heap_bytes_in_use()
        let clock = ContinuousClock()
        let start = clock.now
        let container = try container(at: arguments[1])
        let context = ModelContext(container)
        let fetched = try context.fetch(
            FetchDescriptor<PerformanceMetric>(predicate: #Predicate { $0.sessionID == session }))
        let openAndFetch = start.duration(to: clock.now)
        let residentGrowth = try residentKiB() - residentBefore
        let heapGrowth = Int(heap_bytes_in_use()) - Int(heapBefore)
        guard fetched.count == strokes, fetched.allSatisfy({ $0.sessionID == session && $0.session?.id == session })
        else {
            throw BenchmarkFailure("the app fetched \(fetched.count) strokes of the session, not \(strokes)")
        }

        // Warm: a few untimed queries first, then one timed query at a time.
        var pointTimes: [Double] = []
        var countTimes: [Double] = []
        for (index, id) in queries.strokeIDs.enumerated() {
            let begin = clock.now
            let found = try context.fetch(FetchDescriptor<PerformanceMetric>(predicate: #Predicate { $0.id == id }))
            let time = begin.duration(to: clock.now)
            guard found.count == 1, found[0].id == id else {
                throw BenchmarkFailure("the point lookup of \(id) found \(found.count) strokes")
            }
            if index >= AppQueries.warmUp { pointTimes.append(Format.seconds(time)) }
        }
        for (index, query) in queries.sessions.enumerated() {
            let id = query.id
            let begin = clock.now
            let count = try context.fetchCount(
                FetchDescriptor<PerformanceMetric>(predicate: #Predicate { $0.sessionID == id }))
            let time = begin.duration(to: clock.now)
            guard count == query.strokes else {
                throw BenchmarkFailure("fetchCount of session \(id)'s strokes gave \(count), not \(query.strokes)")
            }
            if index >= AppQueries.warmUp { countTimes.append(Format.seconds(time)) }
        }
        withExtendedLifetime((container, context, fetched)) {}
        print(
            AppMeasurement(
                openAndFetch: Format.seconds(openAndFetch), residentGrowthKiB: residentGrowth,
                heapGrowthBytes: heapGrowth, pointLookup: median(pointTimes), fetchCount: median(countTimes)
            ).line)
    }

    /// The app's container on the store in `folder`, with the default configuration for a
    /// store on disk (durability `.full`, the file watcher on).
    static func container(at folder: String) throws -> ModelContainer {
        try ModelContainer(
            for: RowingManifest.schema,
            configurations: [ModelConfiguration(url: URL(filePath: folder, directoryHint: .isDirectory))])
    }

    /// `VmRSS` from `/proc/self/status`, in KiB.
    static func residentKiB() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            if let value = Int(line.dropFirst("VmRSS:".count).filter(\.isNumber)) { return value }
        }
        throw BenchmarkFailure("/proc/self/status has no VmRSS line")
    }

    /// Runs in the parent: starts a child and reads what it printed.
    static func spawn(
        warmUpStore: String, store: String, session: UUID, strokes: Int, queriesFile: String
    ) throws -> AppMeasurement {
        let process = Process()
        process.executableURL = URL(filePath: try Commands.ownExecutable())
        process.arguments = [command, warmUpStore, store, session.uuidString, String(strokes), queriesFile]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0, let measurement = AppMeasurement(line: text) else {
            throw BenchmarkFailure(
                "the app's child process exited with \(process.terminationStatus), printing \(text.debugDescription)")
        }
        return measurement
    }
}

/// What one app child measured.
struct AppMeasurement {
    /// Seconds from before `ModelContainer(...)` to after the first fetch returned.
    var openAndFetch: Double
    var residentGrowthKiB: Int
    var heapGrowthBytes: Int
    /// Median seconds of one warm point lookup by id, and of one warm `fetchCount`.
    var pointLookup: Double
    var fetchCount: Double

    init(openAndFetch: Double, residentGrowthKiB: Int, heapGrowthBytes: Int, pointLookup: Double, fetchCount: Double) {
        self.openAndFetch = openAndFetch
        self.residentGrowthKiB = residentGrowthKiB
        self.heapGrowthBytes = heapGrowthBytes
        self.pointLookup = pointLookup
        self.fetchCount = fetchCount
    }

    var line: String { "\(openAndFetch) \(residentGrowthKiB) \(heapGrowthBytes) \(pointLookup) \(fetchCount)" }

    init?(line: String) {
        let fields = line.split(whereSeparator: \.isWhitespace)
        guard fields.count == 5, let open = Double(fields[0]), let resident = Int(fields[1]),
            let heap = Int(fields[2]), let point = Double(fields[3]), let count = Double(fields[4])
        else { return nil }
        self.init(
            openAndFetch: open, residentGrowthKiB: resident, heapGrowthBytes: heap, pointLookup: point,
            fetchCount: count)
    }
}

/// The warm queries both sides run: strokes to look up by id, and sessions to count the
/// strokes of (with the count each must give), one per line in a file the parent writes.
struct AppQueries {
    /// Queries of each kind run untimed first.
    static let warmUp = 10

    var strokeIDs: [UUID]
    var sessions: [(id: UUID, strokes: Int)]

    init(strokeIDs: [UUID], sessions: [(id: UUID, strokes: Int)]) {
        self.strokeIDs = strokeIDs
        self.sessions = sessions
    }

    /// Lines `stroke <UUID>` and `session <UUID> <strokes>`.
    init(file: String) throws {
        strokeIDs = []
        sessions = []
        for line in try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: " ")
            switch (fields.first, fields.count) {
            case ("stroke", 2): if let id = UUID(uuidString: String(fields[1])) { strokeIDs.append(id) }
            case ("session", 3):
                if let id = UUID(uuidString: String(fields[1])), let count = Int(fields[2]) {
                    sessions.append((id, count))
                }
            default: throw BenchmarkFailure("\(file): unreadable line \(line)")
            }
        }
    }

    func write(to file: String) throws {
        let lines =
            strokeIDs.map { "stroke \($0.uuidString)" } + sessions.map { "session \($0.id.uuidString) \($0.strokes)" }
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
    }
}
