import Foundation
import Synchronization
import Testing

@testable import FolioCore

/// A store's `.folio` removed while the store is open, as it is when someone deletes the
/// whole store (`rm -rf`, `FileManager.removeItem`) under a container that still watches it:
/// what the store sees go is not written back into a folder being deleted.
struct RemovedLocalStateTests {
    /// A store with three timers saved, and their paths.
    func storeWithTimers(_ directory: TemporaryDirectory) throws -> (DocumentStore, [DocumentPath]) {
        let store = try makeStore(in: directory)
        let timers = (0..<3).map { timer("Timer \($0)") }
        try store.commit(timers.map { .put($0, basedOn: nil) })
        return (store, store.documents(entity: "Timer").map(\.path))
    }

    @Test func aChangeFoundAfterLocalStateWasRemovedIsNotRecordedIntoItAgain() throws {
        let directory = try TemporaryDirectory()
        let (store, paths) = try storeWithTimers(directory)
        try FileManager.default.removeItem(atPath: directory("store/.folio"))
        try FileManager.default.removeItem(atPath: directory("store/" + paths[0].relativePath))

        let changes = try store.refresh()
        #expect(changes.removed == [paths[0]])
        #expect(!FileManager.default.fileExists(atPath: directory("store/.folio")))
        let failure = try #require(store.statistics.historyWriteFailure)
        #expect(failure.kind == .fileSystem)
        #expect(failure.description.contains("was removed while the store was open"), "\(failure.description)")
        #expect(failure.hint?.contains("open the store again") == true)
    }

    @Test func aSaveAfterLocalStateWasRemovedIsRefusedAndWritesNothing() throws {
        let directory = try TemporaryDirectory()
        let (store, _) = try storeWithTimers(directory)
        try FileManager.default.removeItem(atPath: directory("store/.folio"))
        let before = try FileManager.default.subpathsOfDirectory(atPath: directory("store")).sorted()

        let added = timer("Tea")
        let refusal = #expect(throws: FolioError.self) { try store.commit([.put(added, basedOn: nil)]) }
        #expect(refusal?.description.contains("was removed while the store was open") == true)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: directory("store")).sorted() == before)

        // Opened again, the store makes its local state anew and saves.
        let reopened = try DocumentStore.open(at: directory("store"))
        try reopened.commit([.put(timer("Coffee"), basedOn: nil)])
        #expect(reopened.documents(entity: "Timer").count == 4)
    }

    @Test func deletingAWatchedStoreLeavesNothingBehind() async throws {
        let directory = try TemporaryDirectory()
        let folder = directory.url.appending(path: "Lamps")
        let container = try ModelContainer(
            for: Lamp.self, configurations: ModelConfiguration(url: folder, durability: .none))
        let context = ModelContext(container)
        for watts in [5, 40, 60] { context.insert(Lamp("Lamp \(watts)", watts: watts)) }
        try context.save()

        // As a recursive delete reaches them: the local state first, then a document, which
        // the watcher sees go and refreshes (its report posts the container's remote change).
        let posts = Mutex(0)
        let subscription = NotificationCenter.default.addObserver(
            forName: ModelContainer.remoteChange, object: container, queue: nil
        ) { _ in posts.withLock { $0 += 1 } }
        defer { NotificationCenter.default.removeObserver(subscription) }
        try FileManager.default.removeItem(at: folder.appending(path: ".folio"))
        let lamp = try #require(
            FileManager.default.subpathsOfDirectory(atPath: folder.path).first {
                $0.hasSuffix(".json") && $0.hasPrefix("Lamp/")
            })
        try FileManager.default.removeItem(at: folder.appending(path: lamp))
        #expect(await eventually { posts.withLock { $0 } >= 1 })

        #expect(!FileManager.default.fileExists(atPath: folder.path + "/.folio"))
        try FileManager.default.removeItem(at: folder)
        #expect(!FileManager.default.fileExists(atPath: folder.path))
        withExtendedLifetime(context) {}
    }
}
