import BenchmarkSupport
import Folio
import Foundation
import Glibc
import Synchronization

// A burst of edits at full speed, each reaching the observer: every edit gives one paused
// session a value of its own, and the observer's results are inspected on each change for
// the values that appeared. External edits take the even rows of the result, another
// process's saves the odd ones, so no value of one burst hides another's.

/// The monotonic clock in nanoseconds: one clock for this process and the child that saves,
/// so an edit's instant and the instant it was seen compare across processes.
func monotonicNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}

/// The processor time this process, or only the calling thread, has used, user and system,
/// in seconds.
func processorSeconds(threadOnly: Bool) -> Double {
    var usage = rusage()
    // RUSAGE_THREAD is 1, RUSAGE_SELF 0; Glibc's module leaves the former out.
    getrusage(__rusage_who_t(threadOnly ? 1 : 0), &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// The instants the edits of one burst were done, in order, appended by whoever does them
/// and read by the observer's inspection.
final class WrittenLog: Sendable {
    private let instants = Mutex<[Int64]>([])

    /// Notes that the next edit was done at `instant`.
    func append(_ instant: Int64) { instants.withLock { $0.append(instant) } }

    /// The instants so far.
    var all: [Int64] { instants.withLock { $0 } }

    /// How many edits are done.
    var count: Int { instants.withLock { $0.count } }
}

/// Watches an observer during a burst: on each change of its results, every edit done but
/// not seen yet is looked up in its row, and the instant its value is first there noted.
@MainActor final class BurstWatch {
    private let observer: ResultsObserver<FocusSession, Never>
    /// Each edit's row in the results (an edit changes no sort key, so rows stay put) and value.
    private let edits: [(row: Int, value: Double)]
    private let written: WrittenLog
    /// When each edit's value was first seen.
    private(set) var seen: [Int64?]
    /// Edits below `checked` were done when last inspected; `pending` are those of them not seen.
    private var checked = 0
    private var pending: [Int] = []
    private var unseen: Int
    private var finished: CheckedContinuation<Bool, Never>?
    /// How many times the results changed during the burst.
    private(set) var changes = 0

    init(_ observer: ResultsObserver<FocusSession, Never>, edits: [(row: Int, value: Double)], written: WrittenLog) {
        self.observer = observer
        self.edits = edits
        self.written = written
        seen = Array(repeating: nil, count: edits.count)
        unseen = edits.count
        arm()
    }

    /// Tracks the next change of the results; the inspection runs once the update is done.
    private func arm() {
        withObservationTracking {
            _ = observer.results
        } onChange: { [weak self] in
            // Weakly: the observer keeps this closure until its next change, which may never come.
            Task { @MainActor in
                guard let self else { return }
                self.changes += 1
                self.inspect()
                self.arm()
            }
        }
    }

    /// Looks for the values of the edits done and not yet seen.
    private func inspect() {
        let now = monotonicNanoseconds()
        let done = written.count
        if done > checked {
            pending += checked..<done
            checked = done
        }
        let results = observer.results
        pending.removeAll { edit in
            guard results[edits[edit].row].duration == edits[edit].value else { return false }
            seen[edit] = now
            unseen -= 1
            return true
        }
        if unseen == 0, let finished {
            self.finished = nil
            finished.resume(returning: true)
        }
    }

    /// Once every edit is done: inspects again (an edit done just after the last inspection
    /// saw its value), then waits up to ten seconds for the values not seen yet; false if
    /// some never appeared.
    func waitForAll() async -> Bool {
        inspect()
        if unseen == 0 { return true }
        let timeout = Task { @MainActor [self] in
            try? await Task.sleep(for: .seconds(10))
            finished?.resume(returning: false)
            finished = nil
        }
        defer { timeout.cancel() }
        return await withCheckedContinuation { finished = $0 }
    }
}

/// The percentile `fraction` of `values` by nearest rank.
func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    let rank = Int((fraction * Double(sorted.count)).rounded(.up))
    return sorted[max(0, min(sorted.count - 1, rank - 1))]
}

/// What a burst measured.
struct BurstFigures {
    /// Each edit's time from done to seen, in seconds.
    var delays: [Double]
    /// How long doing them all took, from the first done to the last.
    var writing: Double
    /// How many times the observer's results changed.
    var changes: Int
    /// The processor time this process spent on the burst but the edits' own (the watcher,
    /// the refreshes, the observer's updates and the benchmark's inspections), in seconds.
    var processor: Double
}

/// Measures the burst `edits` make: `perform` does them (on another thread or process),
/// appending each one's instant to the log, and returns when all are done, with the
/// processor time doing them took in this process.
@MainActor func measureBurst(
    _ observer: ResultsObserver<FocusSession, Never>, edits: [(row: Int, value: Double)], what: String,
    perform: @escaping @Sendable (WrittenLog) async throws -> Double
) async throws -> BurstFigures {
    let written = WrittenLog()
    let watch = BurstWatch(observer, edits: edits, written: written)
    let processorBefore = processorSeconds(threadOnly: false)
    let editing = try await perform(written)
    guard await watch.waitForAll() else {
        let missing = watch.seen.filter { $0 == nil }.count
        throw BenchmarkFailure("\(missing) of the \(edits.count) \(what) never reached the observer")
    }
    let processor = processorSeconds(threadOnly: false) - processorBefore - editing
    let instants = written.all
    guard instants.count == edits.count, let first = instants.first, let last = instants.last else {
        throw BenchmarkFailure("\(instants.count) of the \(edits.count) \(what) were done")
    }
    let delays = zip(watch.seen, instants).map { Double($0! - $1) / 1e9 }
    return BurstFigures(
        delays: delays, writing: Double(last - first) / 1e9, changes: watch.changes, processor: processor)
}

/// Another program's burst: each edit's new text written to a hidden file beside the
/// document and renamed over it, as an editor saves, one after another at full speed, on a
/// thread of its own, whose processor time it returns.
func externalBurst(files: [URL], texts: [[UInt8]]) -> @Sendable (WrittenLog) async throws -> Double {
    let jobs = zip(files, texts).map {
        (path: $0.path, temporary: $0.deletingLastPathComponent().path + "/.burst.tmp", text: $1)
    }
    return { written in
        let (failure, processor): (String?, Double) = await withCheckedContinuation { done in
            Thread {
                let start = processorSeconds(threadOnly: true)
                func finish(_ failure: String?) {
                    done.resume(returning: (failure, processorSeconds(threadOnly: true) - start))
                }
                for job in jobs {
                    let descriptor = open(job.temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
                    guard descriptor >= 0 else { return finish("could not write \(job.temporary)") }
                    let count = job.text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                    close(descriptor)
                    guard count == job.text.count, rename(job.temporary, job.path) == 0 else {
                        return finish("could not replace \(job.path)")
                    }
                    written.append(monotonicNanoseconds())
                }
                finish(nil)
            }.start()
        }
        if let failure { throw BenchmarkFailure(failure) }
        return processor
    }
}

/// The hidden subcommand that runs the other process of the saves' burst.
let saveChildCommand = "--save-child"

/// Another process's burst: a child process of this benchmark opens the store, and when told
/// which sessions, gives the `edit`th of them `saveValue(edit)` and saves, one at a time,
/// printing the instant each `save()` returned. The reading costs this process next to nothing: 0.
func processBurst(folder: URL, sessions: [UUID]) -> @Sendable (WrittenLog) async throws -> Double {
    let order = Data((sessions.map(\.uuidString).joined(separator: " ") + "\n").utf8)
    return { written in
        let process = Process()
        process.executableURL = URL(filePath: CommandLine.arguments[0])
        process.arguments = [saveChildCommand, folder.path]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let failure: String? = await withCheckedContinuation { done in
            DispatchQueue.global(qos: .userInitiated).async {
                // The first line says the child is ready; then one instant a line per save.
                var lines = 0
                var pending: [UInt8] = []
                let reading = output.fileHandleForReading
                while true {
                    let data = reading.availableData
                    if data.isEmpty { break }
                    pending += data
                    while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                        let line = String(decoding: pending[..<end], as: UTF8.self)
                        pending.removeSubrange(...end)
                        if lines == 0 {
                            input.fileHandleForWriting.write(order)
                        } else if let instant = Int64(line) {
                            written.append(instant)
                        }
                        lines += 1
                    }
                }
                process.waitUntilExit()
                done.resume(
                    returning: process.terminationStatus == 0
                        ? nil : "the saving child exited with \(process.terminationStatus)")
            }
        }
        if let failure { throw BenchmarkFailure(failure) }
        return 0
    }
}

/// The child of `processBurst`: `--save-child <folder>`. Opens the store at `.full` (not
/// watching it), fetches the paused sessions, says it is ready, reads the identities of the
/// sessions to edit, and gives the `edit`th `saveValue(edit)`, saving each on its own.
func runSaveChild(folder: String) throws {
    var configuration = ModelConfiguration(url: URL(filePath: folder), durability: .full)
    configuration.watchesFiles = false
    let context = ModelContext(try ModelContainer(for: FocusSession.self, configurations: configuration))
    let paused = Dictionary(uniqueKeysWithValues: try context.fetch(FocusSession.paused).map { ($0.id, $0) })
    FileHandle.standardOutput.write(Data("ready\n".utf8))
    let order = (readLine() ?? "").split(separator: " ").compactMap { UUID(uuidString: String($0)) }
    guard !order.isEmpty else { throw BenchmarkFailure("the saving child was not told which sessions") }
    for (edit, id) in order.enumerated() {
        guard let session = paused[id] else { throw BenchmarkFailure("the saving child has no session \(id)") }
        session.duration = saveValue(edit)
        try context.save()
        FileHandle.standardOutput.write(Data("\(monotonicNanoseconds())\n".utf8))
    }
}

/// The result row the external burst's edit `edit` changes: the even rows.
func editedRow(_ edit: Int) -> Int { edit * 2 }
/// The value the external burst's edit `edit` writes.
func editValue(_ edit: Int) -> Double { Double(200_000 + edit) }
/// The result row the saves' burst's edit `edit` changes: the odd rows.
func savedRow(_ edit: Int) -> Int { edit * 2 + 1 }
/// The value the saves' burst's edit `edit` saves.
func saveValue(_ edit: Int) -> Double { Double(300_000 + edit) }
