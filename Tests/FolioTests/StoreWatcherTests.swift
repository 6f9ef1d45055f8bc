import Foundation
import Glibc
import Synchronization
import Testing

@testable import FolioCore

/// The inotify watcher of a store's tree: what it reports, what it passes over, and when it is quiet.
///
/// No test measures time: each waits up to five seconds for a report it expects, and where it
/// expects none, either for a later change's report (the kernel's queue keeps order, so what
/// came before would be in it or in an earlier one) or for 300 ms.
struct StoreWatcherTests {
    /// Collects a watcher's reports, for a test to wait on.
    final class Recorder: Sendable {
        private let reports = Mutex<[WatchedChanges]>([])

        func record(_ changes: WatchedChanges) { reports.withLock { $0.append(changes) } }

        var all: [WatchedChanges] { reports.withLock { $0 } }

        /// Every path reported so far.
        var paths: Set<String> { all.reduce(into: []) { $0.formUnion($1.paths) } }

        /// Waits up to `timeout` for `condition` to hold on the reports so far; returns whether it did.
        func wait(timeout: Duration = .seconds(5), until condition: ([WatchedChanges]) -> Bool) async -> Bool {
            let end = ContinuousClock.now + timeout
            while ContinuousClock.now < end {
                if condition(all) { return true }
                try? await Task.sleep(for: .milliseconds(5))
            }
            return condition(all)
        }

        /// Waits for a report of every one of `paths`.
        func waitForPaths(_ paths: Set<String>) async -> Bool {
            await wait { reports in paths.isSubset(of: reports.reduce(into: []) { $0.formUnion($1.paths) }) }
        }

        /// Waits 300 ms and returns whether nothing was reported in that time.
        func staysQuiet() async -> Bool {
            let before = all.count
            try? await Task.sleep(for: .milliseconds(300))
            return all.count == before
        }
    }

    /// A store in `directory`, a watcher of it reporting to a `Recorder`, and the store's path.
    func watchedStore(
        _ directory: TemporaryDirectory, debounce: Duration = .milliseconds(15),
        maximumDelay: Duration = .milliseconds(100)
    ) throws -> (StoreWatcher, Recorder, String) {
        let store = try makeStore(in: directory)
        let recorder = Recorder()
        let watcher = try StoreWatcher(folder: store.folder, debounce: debounce, maximumDelay: maximumDelay) {
            recorder.record($0)
        }
        return (watcher, recorder, store.root)
    }

    /// A document's path in the store, under day 2026-11-`day`.
    func documentPath(day: Int = 22, id: UUID = UUID()) -> String {
        "Timer/2026/11/\(day)/\(id.uuidString).json"
    }

    /// Renames with `rename(2)`, replacing what is at `destination` as an atomic writer does.
    func move(_ source: String, to destination: String) throws {
        guard rename(source, destination) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno)!) }
    }

    @Test func atomicRenameIsReportedOnceByItsRealPath() async throws {
        let directory = try TemporaryDirectory()
        let (watcher, recorder, root) = try watchedStore(directory)
        defer { watcher.stop() }
        let path = documentPath()
        let name = (path as NSString).lastPathComponent
        let staged = "Timer/2026/11/22/.\(name).staged"
        try FileManager.default.createDirectory(atPath: root + "/Timer/2026/11/22", withIntermediateDirectories: true)
        #expect(await recorder.staysQuiet(), "folders alone hold no file to report")
        try write("{\"name\": \"Tea\"}", to: root + "/" + staged)
        try move(root + "/" + staged, to: root + "/" + path)
        #expect(await recorder.waitForPaths([path]))
        #expect(await recorder.staysQuiet())
        #expect(recorder.all.filter { $0.paths.contains(path) }.count == 1)
        #expect(recorder.paths == [path], "the staged name is hidden")
        #expect(!recorder.all.contains { $0.overflowed })
    }

    @Test func fileInANewDayFolderIsReported() async throws {
        let directory = try TemporaryDirectory()
        let (watcher, recorder, root) = try watchedStore(directory)
        defer { watcher.stop() }
        // Entity, year, month and day folders made at once, the file right after: it may be
        // there before any of their watches is.
        let path = "TodoItem/2027/01/02/\(UUID().uuidString).json"
        try write("{}", to: root + "/" + path)
        #expect(await recorder.waitForPaths([path]))
        // The new folders are watched from now on.
        let next = "TodoItem/2027/01/02/\(UUID().uuidString).json"
        try write("{}", to: root + "/" + next)
        #expect(await recorder.waitForPaths([next]))
        #expect(recorder.paths == [path, next])
    }

    @Test func deletedFileIsReported() async throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        let document = timer("Tea")
        try store.commit([.put(document, basedOn: nil)])
        let path = try #require(store.document(entity: "Timer", id: document.id)).path.relativePath
        let recorder = Recorder()
        let watcher = try StoreWatcher(folder: store.folder) { recorder.record($0) }
        defer { watcher.stop() }
        try FileManager.default.removeItem(atPath: store.root + "/" + path)
        #expect(await recorder.waitForPaths([path]))
        #expect(recorder.paths == [path])
    }

    @Test func writesInPlaceAndTheManifestAreReported() async throws {
        let directory = try TemporaryDirectory()
        let (watcher, recorder, root) = try watchedStore(directory)
        defer { watcher.stop() }
        let path = documentPath()
        try write("{}", to: root + "/" + path)
        #expect(await recorder.waitForPaths([path]))
        let count = recorder.all.count
        // Opened for writing, written and closed, as an editor saves: one IN_CLOSE_WRITE.
        let handle = try #require(FileHandle(forWritingAtPath: root + "/" + path))
        try handle.write(contentsOf: Data("{\"name\": \"Tea\"}".utf8))
        try handle.close()
        #expect(await recorder.wait { $0.count > count && $0.last!.paths.contains(path) })
        try write(try text(at: root + "/folio.json"), to: root + "/folio.json")
        #expect(await recorder.waitForPaths(["folio.json"]))
    }

    @Test func changesInHiddenFoldersAreNotReported() async throws {
        let directory = try TemporaryDirectory()
        let (watcher, recorder, root) = try watchedStore(directory)
        defer { watcher.stop() }
        try write("{}", to: root + "/.folio/somefile.json")
        try write("ref: refs/heads/main", to: root + "/.git/HEAD")  // a hidden folder made while watching
        try write("x", to: root + "/.git/objects/ab/cdef")
        try write("{}", to: root + "/Timer/.hidden/2026/11/22/\(UUID().uuidString).json")
        let sentinel = documentPath()
        try write("{}", to: root + "/" + sentinel)
        #expect(await recorder.waitForPaths([sentinel]))
        #expect(recorder.paths == [sentinel])
    }

    @Test func storesOwnCommitIsReportedByItsDocumentsOnly() async throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        let recorder = Recorder()
        let watcher = try StoreWatcher(folder: store.folder) { recorder.record($0) }
        defer { watcher.stop() }
        let documents = (0..<20).map {
            timer("Timer \($0)", date: november22().addingTimeInterval(Double($0) * 86_400))
        }
        try store.commit(documents.map { .put($0, basedOn: nil) })
        let paths = Set(documents.map { store.document(entity: "Timer", id: $0.id)!.path.relativePath })
        #expect(await recorder.waitForPaths(paths))
        #expect(await recorder.staysQuiet())
        #expect(recorder.paths == paths, "journal and staged files are hidden")
    }

    @Test func symbolicLinkToAnOutsideFolderIsNotFollowed() async throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        let outside = directory("outside")
        try FileManager.default.createDirectory(atPath: outside + "/deeper", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            atPath: store.root + "/Timer/2026/11", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: store.root + "/Timer/2026/11/22", withDestinationPath: outside)
        let recorder = Recorder()
        let watcher = try StoreWatcher(folder: store.folder) { recorder.record($0) }
        defer { watcher.stop() }
        #expect(watcher.watchesWholeTree, "a link is not a folder left out")
        // A link made while watching is reported as an entry, and not followed either.
        try FileManager.default.createSymbolicLink(
            atPath: store.root + "/Timer/2026/11/23", withDestinationPath: outside)
        #expect(await recorder.waitForPaths(["Timer/2026/11/23"]))
        try write("{}", to: outside + "/\(UUID().uuidString).json")
        try write("{}", to: store.root + "/Timer/2026/11/22/deeper/\(UUID().uuidString).json")
        try write("{}", to: store.root + "/Timer/2026/11/23/\(UUID().uuidString).json")
        let sentinel = documentPath(day: 24)
        try write("{}", to: store.root + "/" + sentinel)
        #expect(await recorder.waitForPaths([sentinel]))
        #expect(recorder.paths == ["Timer/2026/11/23", sentinel])
    }

    @Test func folderMovedInIsReportedWithTheFilesItHolds() async throws {
        let directory = try TemporaryDirectory()
        let (watcher, recorder, root) = try watchedStore(directory)
        defer { watcher.stop() }
        try FileManager.default.createDirectory(atPath: root + "/Timer/2026/11", withIntermediateDirectories: true)
        let names = (0..<3).map { _ in "\(UUID().uuidString).json" }
        for name in names { try write("{}", to: directory("incoming/\(name)")) }
        try move(directory("incoming"), to: root + "/Timer/2026/11/25")
        let paths = Set(names.map { "Timer/2026/11/25/" + $0 })
        #expect(await recorder.waitForPaths(paths))
        #expect(recorder.paths == paths)
        #expect(!recorder.all.contains { $0.overflowed })
    }

    @Test func folderRenamedInTheStoreIsReportedUnderBothPathsAndStaysWatched() async throws {
        let directory = try TemporaryDirectory()
        let names = (0..<2).map { _ in "\(UUID().uuidString).json" }
        let store = try makeStore(in: directory)
        for name in names { try write("{}", to: store.root + "/Timer/2026/11/22/" + name) }
        let recorder = Recorder()
        let watcher = try StoreWatcher(folder: store.folder) { recorder.record($0) }
        defer { watcher.stop() }
        try move(store.root + "/Timer/2026/11", to: store.root + "/Timer/2026/12")
        let paths = Set(names.flatMap { ["Timer/2026/11/22/" + $0, "Timer/2026/12/22/" + $0] })
        #expect(await recorder.waitForPaths(paths))
        #expect(await recorder.staysQuiet())
        #expect(recorder.paths == paths)
        #expect(!recorder.all.contains { $0.overflowed }, "the move was seen from both ends")
        // The watches moved with the folders, and know their new paths.
        let later = "Timer/2026/12/22/\(UUID().uuidString).json"
        try write("{}", to: store.root + "/" + later)
        #expect(await recorder.waitForPaths([later]))
    }

    @Test func folderMovedOutOfTheStoreAsksForAFullRefresh() async throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        try write("{}", to: store.root + "/" + documentPath())
        let recorder = Recorder()
        let watcher = try StoreWatcher(folder: store.folder) { recorder.record($0) }
        defer { watcher.stop() }
        try move(store.root + "/Timer/2026", to: directory("elsewhere"))
        #expect(await recorder.wait { $0.contains { $0.overflowed } })
        // Its watches were dropped: what happens to it now is not the store's.
        try write("{}", to: directory("elsewhere/11/22/\(UUID().uuidString).json"))
        let sentinel = "TodoItem/2026/11/22/\(UUID().uuidString).json"
        try write("{}", to: store.root + "/" + sentinel)
        #expect(await recorder.waitForPaths([sentinel]))
        #expect(recorder.paths == [sentinel])
    }

    @Test func folderRemovedWithItsFilesReportsEachFile() async throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        let paths = Set((0..<3).map { _ in documentPath() })
        for path in paths { try write("{}", to: store.root + "/" + path) }
        let recorder = Recorder()
        let watcher = try StoreWatcher(folder: store.folder) { recorder.record($0) }
        defer { watcher.stop() }
        try FileManager.default.removeItem(atPath: store.root + "/Timer")
        #expect(await recorder.waitForPaths(paths))
        #expect(await recorder.staysQuiet())
        #expect(recorder.paths == paths)
        #expect(!recorder.all.contains { $0.overflowed })
    }

    @Test func burstOfAHundredFilesComesInFewReports() async throws {
        let directory = try TemporaryDirectory()
        // A longer debounce than the default, so that a loaded machine's pauses between two
        // writes do not split the burst; what is pinned is that reports gather, not how fast.
        let (watcher, recorder, root) = try watchedStore(
            directory, debounce: .milliseconds(100), maximumDelay: .seconds(2))
        defer { watcher.stop() }
        try FileManager.default.createDirectory(atPath: root + "/Timer/2026/11/22", withIntermediateDirectories: true)
        let paths = Set((0..<100).map { _ in documentPath() })
        for path in paths { try write("{}", to: root + "/" + path) }
        #expect(await recorder.waitForPaths(paths))
        #expect(await recorder.staysQuiet())
        #expect(recorder.paths == paths)
        #expect(recorder.all.count <= 5)
    }

    @Test func overflowAsksForAFullRefreshAndWatchesTheFoldersItMissed() async throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        try FileManager.default.createDirectory(
            atPath: store.root + "/Timer/2026/11/22", withIntermediateDirectories: true)
        let recorder = Recorder()
        let gate = DispatchSemaphore(value: 0)
        let held = Mutex(false)
        let watcher = try StoreWatcher(folder: store.folder) { changes in
            recorder.record(changes)
            // The first report holds the watcher's thread, so that the kernel's queue fills up.
            if held.withLock({ holding in
                defer { holding = true }
                return !holding
            }) {
                gate.wait()
            }
        }
        defer { watcher.stop() }
        let first = documentPath()
        try write("{}", to: store.root + "/" + first)
        #expect(await recorder.waitForPaths([first]))
        // One IN_CLOSE_WRITE per opening for writing, past the queue's limit; two files in turn,
        // since the kernel merges an event with the one queued just before it when they are equal.
        let limit =
            Int(try text(at: "/proc/sys/fs/inotify/max_queued_events").trimmingCharacters(in: .whitespacesAndNewlines))
            ?? 16_384
        let pair = [documentPath(), documentPath()]
        for path in pair { try write("{}", to: store.root + "/" + path) }
        for round in 0..<(limit + 100) {
            let descriptor = open(store.root + "/" + pair[round % 2], O_WRONLY | O_CLOEXEC)
            try #require(descriptor >= 0)
            close(descriptor)
        }
        // Made while the queue is full: its IN_CREATE is lost, and only the rescan after the
        // overflow can watch it.
        try FileManager.default.createDirectory(
            atPath: store.root + "/TodoItem/2026/11/23", withIntermediateDirectories: true)
        gate.signal()
        #expect(await recorder.wait { $0.contains { $0.overflowed } })
        #expect(watcher.watchesWholeTree)
        let later = "TodoItem/2026/11/23/\(UUID().uuidString).json"
        try write("{}", to: store.root + "/" + later)
        #expect(await recorder.waitForPaths([later]))
    }

    @Test func noReportAfterStop() async throws {
        let directory = try TemporaryDirectory()
        let (watcher, recorder, root) = try watchedStore(directory)
        let first = documentPath()
        try write("{}", to: root + "/" + first)
        #expect(await recorder.waitForPaths([first]))
        watcher.stop()
        watcher.stop()  // idempotent
        try write("{}", to: root + "/" + documentPath())
        #expect(await recorder.staysQuiet())
    }

    @Test func changesJustBeforeStopAreNeverReportedAfterIt() async throws {
        let directory = try TemporaryDirectory()
        let (watcher, recorder, root) = try watchedStore(directory)
        try write("{}", to: root + "/" + documentPath())
        watcher.stop()
        let count = recorder.all.count
        #expect(await recorder.staysQuiet())
        #expect(recorder.all.count == count)
    }

    @Test(.timeLimit(.minutes(1)))
    func stopFromInsideOnChangeReturnsAndEndsTheReports() async throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        let recorder = Recorder()
        let holder = Mutex<StoreWatcher?>(nil)
        let watcher = try StoreWatcher(folder: store.folder) { changes in
            recorder.record(changes)
            holder.withLock { $0 }?.stop()
        }
        holder.withLock { $0 = watcher }
        try write("{}", to: store.root + "/" + documentPath())
        #expect(await recorder.wait { !$0.isEmpty })
        try write("{}", to: store.root + "/" + documentPath())
        #expect(await recorder.staysQuiet())
        #expect(recorder.all.count == 1)
        watcher.stop()  // from outside as well: joins a thread already ended, without hanging
        holder.withLock { $0 = nil }
    }

    @Test func releasingTheWatcherStopsIt() async throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        let recorder = Recorder()
        do {
            let watcher = try StoreWatcher(folder: store.folder) { recorder.record($0) }
            #expect(watcher.watchesWholeTree)
        }
        try write("{}", to: store.root + "/" + documentPath())
        #expect(await recorder.staysQuiet())
    }
}
