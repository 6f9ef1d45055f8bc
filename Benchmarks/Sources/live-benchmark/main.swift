import BenchmarkSupport
import Folio
import Foundation

// Folio's live data (issue 23), one run, each figure beside re-fetching everything: on a
// 10,000-session store, how long an external edit (a file rewritten by another program, as
// an editor does) and a save in another context take to reach a `ResultsObserver`; how late
// each edit of a burst of 500 at full speed reaches it, another program's edits and another
// process's saves (issue 38, part 7; see Burst.swift); what keeping a 1,000-row result
// current costs beside fetching it again; `fetchHistory` of the last 100 of 100,000
// transactions; and what the history adds to a save at `.full`. `--quick` runs a tenth of
// the sizes (bursts of 50); `LIVE_ONLY=1` skips the history figures. Run as
// `--save-child <folder>`, it is the other process of the saves' burst.
//
//     swift run -c release --package-path Benchmarks live-benchmark

let quick = CommandLine.arguments.contains("--quick")
let sessionCount = quick ? 1_000 : 10_000
let historySize = quick ? 10_000 : 100_000
let rounds = quick ? 11 : 31
let yearStart = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

func note(_ text: String) { FileHandle.standardError.write(Data(("… " + text + "\n").utf8)) }

/// A fresh folder for one measurement, removed afterwards (see `ScratchFolder`s in model-benchmark).
func freshFolder(_ name: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appending(path: "live-benchmark-\(UUID().uuidString)/\(name)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

func ms(_ seconds: Double) -> String { Format.decimal(seconds * 1000, places: 2) + " ms" }

/// Sessions over a year, one in ten paused: the paused ones are the 1,000-row live result.
func sessions(_ count: Int) -> [FocusSession] {
    var random = SplitMix64(seed: 2026)
    return (0..<count).map { index in
        let start = yearStart.addingTimeInterval(Double(random.next() % (365 * 86_400)))
        return FocusSession(
            id: UUID(), startTime: start, endTime: nil, state: index % 10 == 0 ? "paused" : "completed",
            duration: Double(300 + random.next() % 3_000), pausedDuration: 0, createdAt: start)
    }
}

/// When an observer's results next change: armed before the change, awaited after it.
@MainActor final class ChangeClock: @unchecked Sendable {
    private var fired: ContinuousClock.Instant?
    private var waiting: CheckedContinuation<ContinuousClock.Instant?, Never>?

    init(_ observer: ResultsObserver<FocusSession, Never>) {
        withObservationTracking {
            _ = observer.results
        } onChange: { [self] in
            // Called on the main actor, where the observer updates, just before the change.
            MainActor.assumeIsolated {
                let now = ContinuousClock.now
                fired = now
                waiting?.resume(returning: now)
                waiting = nil
            }
        }
    }

    /// The instant of the change, or `nil` after five seconds without one.
    func wait() async -> ContinuousClock.Instant? {
        if let fired { return fired }
        let timeout = Task { @MainActor [self] in
            try? await Task.sleep(for: .seconds(5))
            waiting?.resume(returning: nil)
            waiting = nil
        }
        defer { timeout.cancel() }
        return await withCheckedContinuation { waiting = $0 }
    }
}

@MainActor func run() async throws {
    print("# Folio live data, one run (\(Format.grouped(sessionCount)) sessions)\n")
    let folder = try freshFolder("sessions")
    do {
        // Removed once the container is gone, or its watcher would try to refresh the removal.
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        try await liveFigures(in: folder)
    }
    if ProcessInfo.processInfo.environment["LIVE_ONLY"] != nil { return }
    try historyFigures()
}

/// The live rows, on a store of sessions made in `folder`.
@MainActor func liveFigures(in folder: URL) async throws {
    do {
        let setup = ModelContext(
            try ModelContainer(
                for: FocusSession.self, configurations: ModelConfiguration(url: folder, durability: .none)))
        for session in sessions(sessionCount) { setup.insert(session) }
        try setup.save()
    }
    let container = try ModelContainer(
        for: FocusSession.self, configurations: ModelConfiguration(url: folder, durability: .full))
    let context = ModelContext(container)
    let descriptor = FocusSession.paused
    let observer = try ResultsObserver(fetchDescriptor: descriptor, modelContext: context)
    note("observing \(observer.results.count) paused sessions")

    // Re-fetching everything: the fetch, and a refresh plus the fetch (what polling costs).
    var fetches: [Double] = []
    var polls: [Double] = []
    let other = ModelContext(container)
    for _ in 0..<rounds {
        let fresh = ModelContext(container)
        let start = ContinuousClock.now
        _ = try fresh.fetch(descriptor)
        fetches.append(Format.seconds(ContinuousClock.now - start))
        let pollStart = ContinuousClock.now
        try container.refresh()
        _ = try ModelContext(container).fetch(descriptor)
        polls.append(Format.seconds(ContinuousClock.now - pollStart))
    }

    // A save in another context reaching the observer.
    let paused = try other.fetch(descriptor)
    var saves: [Double] = []
    var reached: [Double] = []
    for round in 0..<rounds {
        let session = paused[round * 7 % paused.count]
        session.duration += 1
        let clock = ChangeClock(observer)
        let start = ContinuousClock.now
        try other.save()
        let saved = ContinuousClock.now
        guard let changed = await clock.wait() else { throw BenchmarkFailure("a save did not reach the observer") }
        saves.append(Format.seconds(saved - start))
        reached.append(Format.seconds(changed - saved))
    }

    // An external edit: another program rewrites a paused session's file, as an editor does.
    var files: [UUID: String] = [:]
    for path in try FileManager.default.subpathsOfDirectory(atPath: folder.appending(path: "FocusSession").path)
    where path.hasSuffix(".json") {
        if let id = UUID(uuidString: String(path.split(separator: "/").last!.dropLast(5))) { files[id] = path }
    }
    var edits: [Double] = []
    for round in 0..<rounds {
        let id = paused[round * 11 % paused.count].persistentModelID.id
        guard let path = files[id] else { throw BenchmarkFailure("no file for session \(id)") }
        let file = folder.appending(path: "FocusSession/" + path)
        let text = try String(contentsOf: file, encoding: .utf8)
        let edited = text.replacing(/"duration": [0-9.eE+-]+/, with: "\"duration\": \(100_000 + round)")
        guard edited != text else { throw BenchmarkFailure("could not edit \(file.path)") }
        let temporary = file.deletingLastPathComponent().appending(path: ".edit-\(round).tmp")
        try edited.write(to: temporary, atomically: false, encoding: .utf8)
        let clock = ChangeClock(observer)
        let start = ContinuousClock.now
        guard rename(temporary.path, file.path) == 0 else { throw BenchmarkFailure("rename failed") }
        guard let changed = await clock.wait() else { throw BenchmarkFailure("an edit did not reach the observer") }
        edits.append(Format.seconds(changed - start))
    }

    // Bursts at full speed, each edit giving a session a value of its own: another program's
    // edits of the even rows, then another process's saves of the odd ones.
    let rows = observer.results
    let burstSize = min(500, rows.count / 2)
    var burstFiles: [URL] = []
    var burstTexts: [[UInt8]] = []
    for edit in 0..<burstSize {
        let id = rows[editedRow(edit)].persistentModelID.id
        guard let path = files[id] else { throw BenchmarkFailure("no file for session \(id)") }
        let file = folder.appending(path: "FocusSession/" + path)
        let text = try String(contentsOf: file, encoding: .utf8)
        let edited = text.replacing(/"duration": [0-9.eE+-]+/, with: "\"duration\": \(Int(editValue(edit)))")
        guard edited != text else { throw BenchmarkFailure("could not edit \(file.path)") }
        burstFiles.append(file)
        burstTexts.append(Array(edited.utf8))
    }
    note("a burst of \(burstSize) external edits")
    let external = try await measureBurst(
        observer, edits: (0..<burstSize).map { (editedRow($0), editValue($0)) }, what: "external edits",
        perform: externalBurst(files: burstFiles, texts: burstTexts))
    note("\(external.changes) changes of the observer's results, the slowest edit \(ms(external.delays.max()!))")
    note("a burst of \(burstSize) saves in another process")
    let saved = try await measureBurst(
        observer, edits: (0..<burstSize).map { (savedRow($0), saveValue($0)) }, what: "saves in another process",
        perform: processBurst(folder: folder, sessions: (0..<burstSize).map { rows[savedRow($0)].persistentModelID.id })
    )
    note("\(saved.changes) changes of the observer's results, the slowest save \(ms(saved.delays.max()!))")

    print("| what (\(rounds) rounds, medians) | Folio live | re-fetching everything | ratio | goal |")
    print("| --- | --- | --- | --- | --- |")
    print(
        "| an external edit reaches the observer | \(ms(median(edits))) | \(ms(median(polls))) (refresh + fetch, per poll) | \(Format.ratio(median(edits) / median(polls))) | ≤ 50 ms |"
    )
    // Each burst's p50 row says how long doing the edits took and the processor time this
    // process spent on each (the watcher, the refreshes, the observer, the inspections).
    let poll = median(polls)
    for (burst, what) in [(external, "external edits at full speed"), (saved, "saves in another process at `.full`")] {
        for (name, fraction, goal) in [("p50", 0.5, "≤ 50 ms"), ("p99", 0.99, "≤ 150 ms")] {
            let delay = percentile(burst.delays, fraction)
            let done =
                name == "p50"
                ? " (done in \(ms(burst.writing)); \(ms(burst.processor / Double(burstSize))) of processor time an edit)"
                : ""
            print(
                "| a burst of \(Format.grouped(burstSize)) \(what)\(done): each reaches the observer, \(name) | \(ms(delay)) | \(ms(poll)) (refresh + fetch, per poll) | \(Format.ratio(delay / poll)) | \(goal) |"
            )
        }
    }
    print(
        "| a save in another context reaches the observer (after `save()` returns, \(ms(median(saves))) at `.full`) | \(ms(median(reached))) | \(ms(median(fetches))) (fetch) | \(Format.ratio(median(reached) / median(fetches))) | ≤ 5 ms |"
    )
    print(
        "| keeping the \(Format.grouped(observer.results.count))-row result current, per change | \(ms(median(reached))) | \(ms(median(fetches))) | \(Format.ratio(median(reached) / median(fetches))) | ≤ 0.10x |"
    )
    _ = observer
}

/// `fetchHistory` since a token, and the history's cost on a save.
@MainActor func historyFigures() throws {
    let folder = try freshFolder("history")
    defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
    var configuration = ModelConfiguration(url: folder, durability: .none)
    configuration.watchesFiles = false
    let container = try ModelContainer(for: FocusSession.self, configurations: configuration)
    let context = ModelContext(container)
    let session = sessions(1)[0]
    context.insert(session)
    let building = ContinuousClock.now
    for count in 1...historySize {
        session.duration = Double(count)
        try context.save()
    }
    note("\(Format.grouped(historySize)) transactions saved in \(ms(Format.seconds(ContinuousClock.now - building)))")
    let all = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
    guard all.count == historySize, let token = all.dropLast(100).last?.token else {
        throw BenchmarkFailure("the history holds \(all.count) transactions, not \(historySize)")
    }
    var since: [Double] = []
    var everything: [Double] = []
    for round in 0..<rounds {
        let start = ContinuousClock.now
        let later = try context.fetchHistory(
            HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > token }))
        since.append(Format.seconds(ContinuousClock.now - start))
        guard later.count == 100 else { throw BenchmarkFailure("fetched \(later.count) transactions, not 100") }
        if round < 3 {
            let whole = ContinuousClock.now
            _ = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
            everything.append(Format.seconds(ContinuousClock.now - whole))
        }
    }
    print(
        "| `fetchHistory` of the last 100 of \(Format.grouped(historySize)) transactions | \(ms(median(since))) | \(ms(median(everything))) (all of them) | \(Format.ratio(median(since) / median(everything))) | ≤ 10 ms |"
    )

    // One insert and save, with and without history, alternating, in fresh folders: at
    // `.full`, the goal; at `.none`, the work alone, without the syncs that dominate a save.
    for durability in [Durability.full, .none] {
        func saving(history: Bool) throws -> ModelContext {
            var configuration = ModelConfiguration(
                url: try freshFolder(history ? "with" : "without"), durability: durability)
            configuration.historyLimit = history ? DocumentStore.defaultHistoryLimit : 0
            configuration.watchesFiles = false
            return ModelContext(try ModelContainer(for: FocusSession.self, configurations: configuration))
        }
        let with = try saving(history: true)
        let without = try saving(history: false)
        var withTimes: [Double] = []
        var withoutTimes: [Double] = []
        for (index, session) in sessions(rounds * 4).enumerated() {
            let target = index % 2 == 0 ? with : without
            target.insert(session)
            let start = ContinuousClock.now
            try target.save()
            let elapsed = Format.seconds(ContinuousClock.now - start)
            if index % 2 == 0 { withTimes.append(elapsed) } else { withoutTimes.append(elapsed) }
        }
        print(
            "| one insert and save at `.\(durability)`, with history | \(ms(median(withTimes))) | \(ms(median(withoutTimes))) (without) | \(Format.ratio(median(withTimes) / median(withoutTimes))) | \(durability == .full ? "≤ 1.10x" : "") |"
        )
    }
}

if let child = CommandLine.arguments.firstIndex(of: saveChildCommand) {
    try runSaveChild(folder: CommandLine.arguments[child + 1])
} else {
    try await run()
}
