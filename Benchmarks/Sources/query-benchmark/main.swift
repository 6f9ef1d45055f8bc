import BenchmarkSupport
import Folio
import FolioJSON
import Foundation

// Folio's query engine beside SQLite (indexed and not), TinyDB, jq over the same files
// and recsel over the same records: six queries on 10,000 and 100,000 FocusSession
// records, medians of repeated runs in one process. `--quick` runs 2,000 records;
// `--profile` runs only Folio's fetches that return many models, at 100,000 records
// (`PROFILE_SIZE=<n>` for another size), 30 times over (`PROFILE_LOOPS=<n>` for more;
// "profiling loop" on standard error marks the start, for `perf record -p`), then
// splits their times (identities, counts, models).
//
//     swift run -c release --package-path Benchmarks query-benchmark

let arguments = CommandLine.arguments.dropFirst()
let profiling = arguments.contains("--profile")
let profileSize = ProcessInfo.processInfo.environment["PROFILE_SIZE"].flatMap { Int($0) } ?? 100_000
let sizes = arguments.contains("--quick") ? [2_000] : profiling ? [profileSize] : [10_000, 100_000]
let repetitions = arguments.contains("--quick") ? 3 : 9
let began = Date()
let utc = TimeZone(identifier: "UTC")!
let yearStart = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

func note(_ text: String) { FileHandle.standardError.write(Data(("… " + text + "\n").utf8)) }

/// The queries, by the names the peers script uses, in the report's order.
let queries: [(key: String, title: String)] = [
    ("point", "point lookup by id"), ("indexed", "equality on an indexed field (state == \"paused\")"),
    ("countIndexed", "count on an indexed field (state == \"paused\")"),
    ("unindexed", "equality on an unindexed field (pausedDuration == 42)"),
    ("range", "30-day range on the partition date"),
    ("latest", "sort by date, limit 20"), ("countByState", "count by state"),
]

/// Deterministic sessions over a year: mostly completed, a few paused.
func makeRecords(_ count: Int) -> [FocusSession] {
    var random = SplitMix64(seed: 2026)
    let states = [
        "completed", "completed", "completed", "completed", "completed", "completed", "abandoned", "abandoned",
        "active", "paused",
    ]
    return (0..<count).map { _ in
        let start = yearStart.addingTimeInterval(Double(random.next() % (365 * 86_400)))
        let state = states[Int(random.next() % UInt64(states.count))]
        let duration = Double(300 + random.next() % 3_000)
        var bytes = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let id = UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
        return FocusSession(
            id: id, startTime: start, endTime: state == "completed" ? start.addingTimeInterval(duration) : nil,
            state: state, duration: duration,
            pausedDuration: Double(random.next() % 600), createdAt: start)
    }
}

/// Milliseconds to the microsecond, for the profile's lines.
func milliseconds3(_ seconds: Double) -> String { Format.decimal(seconds * 1000, places: 3) + " ms" }

func iso(_ date: Date) -> String { ISO8601Timestamp.jsonValue(for: date).stringValue ?? "" }

/// The median time of `body` over the repetitions, and its answer as `answer` gives it,
/// made from the last repetition's after the clock stops.
func median(_ body: () throws -> Any, answer: (Any) -> Any = { $0 }) rethrows -> (seconds: Double, answer: Any) {
    var times: [Double] = []
    var last: Any = 0
    for _ in 0..<repetitions {
        let start = ContinuousClock.now
        last = try body()
        let elapsed = ContinuousClock.now - start
        times.append(Format.seconds(elapsed))
    }
    return (times.sorted()[times.count / 2], answer(last))
}

/// Ids as the peers give them (text), for checking answers after the clock stops. Inside
/// it each side returns the ids as it holds them: Folio's models a `UUID`, the Python
/// peers the stored text.
func idText(_ ids: Any) -> Any { (ids as? [UUID] ?? []).map(\.uuidString) }

/// The six queries through Folio's public API on a context of `container`.
func folioQueries(_ container: ModelContainer, target: UUID, from: Date, to: Date) throws -> [String: (
    seconds: Double, answer: Any
)] {
    var results: [String: (Double, Any)] = [:]
    results["point"] = try median(
        {
            try ModelContext(container).fetch(FetchDescriptor<FocusSession>(predicate: #Predicate { $0.id == target }))
                .map(\.id)
        },
        answer: idText)
    results["indexed"] = try median(
        {
            try ModelContext(container).fetch(
                FetchDescriptor<FocusSession>(predicate: #Predicate { $0.state == "paused" })
            ).map(\.id)
        },
        answer: idText)
    results["countIndexed"] = try median {
        try ModelContext(container).fetchCount(
            FetchDescriptor<FocusSession>(predicate: #Predicate { $0.state == "paused" }))
    }
    results["unindexed"] = try median(
        {
            try ModelContext(container).fetch(
                FetchDescriptor<FocusSession>(predicate: #Predicate { $0.pausedDuration == 42 })
            ).map(\.id)
        },
        answer: idText)
    results["range"] = try median {
        try ModelContext(container).fetch(
            FetchDescriptor<FocusSession>(predicate: #Predicate { $0.startTime >= from && $0.startTime < to })
        ).count
    }
    results["latest"] = try median(
        {
            try ModelContext(container).fetch(
                FetchDescriptor<FocusSession>(sortBy: [SortDescriptor(\.startTime, order: .reverse)], fetchLimit: 20)
            )
            .map(\.id)
        },
        answer: idText)
    results["countByState"] = try median {
        Dictionary(
            uniqueKeysWithValues: try ModelContext(container).aggregate(
                Aggregation<FocusSession>.count, groupedBy: \FocusSession.state
            ).map {
                ($0.group[0].queryText.trimmingCharacters(in: CharacterSet(charactersIn: "\"")), $0.count)
            })
    }
    return results
}

/// Whether two answers agree (ids, counts or count tables), whatever their container
/// types; ids in the same order only where `ordered` (a sort's answer).
func same(_ a: Any, _ b: Any, ordered: Bool) -> Bool {
    switch (a, b) {
    case (let a as [String], let b as [Any]):
        let b = b.compactMap { $0 as? String }
        return ordered ? a == b : a.sorted() == b.sorted()
    case (let a as Int, let b as Int): return a == b
    case (let a as Int, let b as NSNumber): return a == b.intValue
    case (let a as [String: Int], let b as [String: Any]):
        return a == b.compactMapValues { ($0 as? Int) ?? ($0 as? NSNumber)?.intValue }
    default: return false
    }
}

let peerNames = ["sqlite indexed", "sqlite unindexed", "tinydb", "jq", "recsel"]
var report: [String] = []
var goals: [String] = []
let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "../../Scripts/query_peers.py")
    .standardized.path

for size in sizes {
    let scratch = FileManager.default.temporaryDirectory.appending(path: "query-benchmark-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: scratch) }
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    let storeURL = scratch.appending(path: "Sessions")
    note("\(Format.grouped(size)) records: writing the Folio store")
    let records = makeRecords(size)
    do {
        let context = ModelContext(
            try ModelContainer(
                for: FocusSession.self, configurations: ModelConfiguration(url: storeURL, durability: .none)))
        for record in records { context.insert(record) }
        try context.save()
    }
    // The same records for the peers, as the documents hold them.
    var lines = ""
    for record in records {
        let object: [String: Any] = [
            "id": record.id.uuidString, "startTime": iso(record.startTime),
            "endTime": record.endTime.map { iso($0) as Any } ?? NSNull(),
            "state": record.state, "duration": record.duration, "pausedDuration": record.pausedDuration,
            "createdAt": iso(record.createdAt),
        ]
        lines += String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self) + "\n"
    }
    try lines.write(to: scratch.appending(path: "records.ndjson"), atomically: false, encoding: .utf8)
    // The store was written without syncs: its dirty pages are written back now, not by the
    // kernel while the first queries are timed (the point lookup at 100,000 once took 3x).
    sync()
    let target = records[size / 2].id
    let from = yearStart.addingTimeInterval(100 * 86_400)
    let to = yearStart.addingTimeInterval(130 * 86_400)
    let parameters: [String: Any] = [
        "id": target.uuidString, "state": "paused", "pausedDuration": 42, "from": iso(from), "to": iso(to),
    ]
    try JSONSerialization.data(withJSONObject: parameters).write(to: scratch.appending(path: "parameters.json"))

    note("\(Format.grouped(size)) records: Folio, cold (no .folio/cache: the open, then the query)")
    var cold: [String: Double] = [:]
    for (key, _) in queries {
        try? FileManager.default.removeItem(at: storeURL.appending(path: ".folio/cache"))
        let start = ContinuousClock.now
        let container = try ModelContainer(
            for: FocusSession.self, configurations: ModelConfiguration(url: storeURL, durability: .none))
        _ = try folioQueries(container, target: target, from: from, to: to)[key]
        _ = (key, container)
        let elapsed = ContinuousClock.now - start
        cold[key] = Format.seconds(elapsed)
    }
    // Each cold container wrote `.folio/cache` anew when it went away: written back now, too.
    sync()
    note("\(Format.grouped(size)) records: Folio, warm")
    let container = try ModelContainer(
        for: FocusSession.self, configurations: ModelConfiguration(url: storeURL, durability: .none))
    _ = try folioQueries(container, target: target, from: from, to: to)  // builds the indexes: what "warm" means
    let warm = try folioQueries(container, target: target, from: from, to: to)
    if profiling {
        note("profiling loop")
        let loops = ProcessInfo.processInfo.environment["PROFILE_LOOPS"].flatMap { Int($0) } ?? 30
        // PROFILE_FETCH=few: the fetches of one or twenty models (the point lookup, the 20 latest)
        // instead; PROFILE_FETCH=point: the point lookup alone; PROFILE_FETCH=unindexed: the
        // unindexed equality (a scan), a hundred times over.
        let fetches = ProcessInfo.processInfo.environment["PROFILE_FETCH"]
        let few = fetches == "few" || fetches == "point"
        for _ in 0..<(fetches == "unindexed" ? loops * 100 : 0) {
            _ = try ModelContext(container).fetch(
                FetchDescriptor<FocusSession>(predicate: #Predicate { $0.pausedDuration == 42 })
            ).map(\.id)
        }
        for _ in 0..<(few ? loops * 1000 : 0) {
            _ = try ModelContext(container).fetch(
                FetchDescriptor<FocusSession>(predicate: #Predicate { $0.id == target })
            )
            .map(\.id)
            guard fetches == "few" else { continue }
            _ = try ModelContext(container).fetch(
                FetchDescriptor<FocusSession>(sortBy: [SortDescriptor(\.startTime, order: .reverse)], fetchLimit: 20)
            ).map(\.id)
        }
        for _ in 0..<(few || fetches == "unindexed" ? 0 : loops) {
            _ = try ModelContext(container).fetch(
                FetchDescriptor<FocusSession>(predicate: #Predicate { $0.state == "paused" })
            ).map(\.id)
            _ = try ModelContext(container).fetch(
                FetchDescriptor<FocusSession>(predicate: #Predicate { $0.startTime >= from && $0.startTime < to })
            ).count
        }
        for key in ["point", "indexed", "unindexed", "range"] { print(key, milliseconds3(warm[key]!.seconds)) }
        // Point lookups of every 100th record, each in a context of its own, as the report's row does.
        let targets = stride(from: 0, to: records.count, by: 100).map { records[$0].id }
        let lookups = try ContinuousClock().measure {
            for id in targets {
                _ = try ModelContext(container).fetch(
                    FetchDescriptor<FocusSession>(predicate: #Predicate { $0.id == id }))
            }
        }
        print("point, mean of \(targets.count) lookups", milliseconds3(Format.seconds(lookups) / Double(targets.count)))
        let paused = FetchDescriptor<FocusSession>(predicate: #Predicate { $0.state == "paused" })
        print(
            "indexed, identifiers only",
            milliseconds3(try median { try ModelContext(container).fetchIdentifiers(paused).count }.seconds))
        print(
            "indexed, models (context kept)",
            milliseconds3(
                try median {
                    let c = ModelContext(container)
                    let m = try c.fetch(paused)
                    return (c, m)
                }.seconds))
        print("indexed, models", milliseconds3(try median { try ModelContext(container).fetch(paused).count }.seconds))
        let range = FetchDescriptor<FocusSession>(predicate: #Predicate { $0.startTime >= from && $0.startTime < to })
        print(
            "range, identifiers only",
            milliseconds3(try median { try ModelContext(container).fetchIdentifiers(range).count }.seconds))
        print("range, count", milliseconds3(try median { try ModelContext(container).fetchCount(range) }.seconds))
        let quiet = FetchDescriptor<FocusSession>(predicate: #Predicate { $0.pausedDuration == 42 })
        print("unindexed, count", milliseconds3(try median { try ModelContext(container).fetchCount(quiet) }.seconds))
        // The same fetch in three parts: making the models, reading their ids, and letting
        // the context and its models go.
        var parts: [[Double]] = [[], [], []]
        for _ in 0..<repetitions {
            var start = ContinuousClock.now
            var context: ModelContext? = ModelContext(container)
            var models = try context?.fetch(paused)
            parts[0].append(Format.seconds(ContinuousClock.now - start))
            start = ContinuousClock.now
            let ids = models?.map(\.id)
            parts[1].append(Format.seconds(ContinuousClock.now - start))
            start = ContinuousClock.now
            (context, models) = (nil, nil)
            parts[2].append(Format.seconds(ContinuousClock.now - start))
            _ = ids
        }
        let medians = parts.map { milliseconds3($0.sorted()[$0.count / 2]) }
        print("indexed, in parts: fetch \(medians[0]), ids read \(medians[1]), models released \(medians[2])")
        // A query right after a save: the indexes follow the saved document.
        var afterSave: [[Double]] = [[], []]
        for _ in 0..<repetitions {
            let start = ContinuousClock.now
            let context = ModelContext(container)
            context.insert(
                FocusSession(
                    id: UUID(), startTime: from, endTime: nil, state: "paused", duration: 1, pausedDuration: 0,
                    createdAt: from))
            try context.save()
            let saved = ContinuousClock.now
            _ = try ModelContext(container).fetchCount(paused)
            afterSave[0].append(Format.seconds(saved - start))
            afterSave[1].append(Format.seconds(ContinuousClock.now - saved))
        }
        let afterSaveMedians = afterSave.map { milliseconds3($0.sorted()[$0.count / 2]) }
        print("one record saved \(afterSaveMedians[0]), then the count \(afterSaveMedians[1])")
        print(
            "indexed, ids read",
            milliseconds3(try median { try ModelContext(container).fetch(paused).map(\.id) }.seconds))
        // What answering with sorted id text, as the benchmark once did inside the clock, adds.
        print(
            "indexed, ids as sorted text",
            milliseconds3(
                try median { try ModelContext(container).fetch(paused).map(\.id.uuidString).sorted() }.seconds))
        continue
    }

    note("\(Format.grouped(size)) records: the peers (SQLite, TinyDB, jq, recsel)")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
        "python3", script, scratch.appending(path: "records.ndjson").path, storeURL.path, scratch.path,
        scratch.appending(path: "parameters.json").path, "\(repetitions)",
    ]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0,
        let peers = try JSONSerialization.jsonObject(with: data) as? [String: [String: [String: Any]]]
    else {
        throw BenchmarkFailure(
            "the peers script failed (exit \(process.terminationStatus)); run it by hand: python3 \(script)")
    }
    for (key, title) in queries {
        for peer in peerNames
        where !same(warm[key]!.answer, peers[peer]?[key]?["answer"] as Any, ordered: key == "latest") {
            throw BenchmarkFailure(
                "\(peer) answers \(title) differently from Folio: \(peers[peer]?[key]?["answer"] ?? "nothing") against \(warm[key]!.answer)"
            )
        }
    }

    func time(_ seconds: Double) -> String {
        seconds < 0.001 ? Format.decimal(seconds * 1e6, places: 1) + " µs" : Format.milliseconds(seconds)
    }
    report.append("\n### \(Format.grouped(size)) records\n")
    report.append("| query | Folio warm | Folio cold | SQLite indexed | SQLite unindexed | TinyDB | jq | recsel |")
    report.append("|---|---:|---:|---:|---:|---:|---:|---:|")
    for (key, title) in queries {
        let peerTimes = peerNames.map { time(peers[$0]?[key]?["median"] as? Double ?? .nan) }
        report.append(
            "| \(title) | \(time(warm[key]!.seconds)) | \(time(cold[key]!)) | " + peerTimes.joined(separator: " | ")
                + " |")
    }
    for (key, title) in queries {
        let folio = warm[key]!.seconds
        for peer in ["tinydb", "jq", "recsel"] {
            let theirs = peers[peer]?[key]?["median"] as? Double ?? .nan
            goals.append(
                "| \(Format.grouped(size)) | \(title) | \(peer) | \(Format.decimal(theirs / folio, places: theirs / folio < 10 ? 1 : 0))× faster | \(theirs / folio >= 10 ? "met" : "MISSED") |"
            )
        }
        // The issue's "indexed lookups and counts": by id, by the indexed `state`, and the counts.
        if ["point", "indexed", "countIndexed", "countByState"].contains(key) {
            let sqlite = peers["sqlite indexed"]?[key]?["median"] as? Double ?? .nan
            goals.append(
                "| \(Format.grouped(size)) | \(title) | SQLite indexed | \(Format.ratio(folio / sqlite)) of its time | \(folio <= sqlite ? "met" : "MISSED") |"
            )
        }
    }
}

print("# Folio's query engine against SQLite, TinyDB, jq and recsel\n")
print(
    "`swift run -c release --package-path Benchmarks query-benchmark`; one run, \(Format.decimal(Date().timeIntervalSince(began) / 60, places: 1)) minutes; 2 cores."
)
print(
    """

    Medians of \(repetitions) repetitions (TinyDB, jq and recsel: \(max(1, repetitions / 3)) at 100,000). Folio runs through
    `ModelContext` (`fetch` making models, `aggregate` for the counts), warm = the same
    container after one round of queries (indexes built); cold = a new container on the store
    after deleting `.folio/cache`, timed from the open to the answer. SQLite and TinyDB run in
    Python and are timed around the query alone; jq reads the store's own files (`find | xargs
    cat | jq`) and recsel a `.rec` file of the same records, both timed as whole processes.
    The fetches of many records answer with each record's id as the side holds it (a
    model's `UUID`, SQLite's and TinyDB's stored text), in the order found. Every peer's
    answer is checked against Folio's after the clock stops (ids as sets, the sort's in order).
    """)
print(report.joined(separator: "\n"))
print("\n### Goals\n")
print("| records | query | against | ratio | goal |")
print("|---|---|---|---:|---|")
print(goals.joined(separator: "\n"))
