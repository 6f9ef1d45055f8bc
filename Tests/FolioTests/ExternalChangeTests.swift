import Foundation
import Testing

@testable import FolioCore

/// Changes made behind the store's back, as git, an editor or another program would make them.
struct ExternalChangeTests {
    /// A store with 50 timers, closed so its cache is written, and the timers' paths.
    func populatedStore(_ directory: TemporaryDirectory) throws -> [DocumentPath] {
        let store = try makeStore(in: directory)
        let documents = (0..<50).map {
            timer("Timer \($0)", date: november22().addingTimeInterval(Double($0) * 86_400))
        }
        try store.commit(documents.map { .put($0, basedOn: nil) })
        try store.close()
        return store.documents(entity: "Timer").map(\.path)
    }

    @Test func reopeningWithAWarmCacheReadsNoFiles() throws {
        let directory = try TemporaryDirectory()
        _ = try populatedStore(directory)
        let store = try DocumentStore.open(at: directory("store"))
        #expect(store.documents(entity: "Timer").count == 50)
        #expect(store.statistics.filesRead == 0)
        #expect(store.statistics.cacheHits == 50)
    }

    @Test func closingAStoreWhoseCacheIsCurrentWritesNothing() throws {
        let directory = try TemporaryDirectory()
        _ = try populatedStore(directory)
        let cachePath = directory("store/.folio/cache/Timer")
        let before = try FileManager.default.attributesOfItem(atPath: cachePath)[.modificationDate] as? Date
        let store = try DocumentStore.open(at: directory("store"))
        _ = store.documents(entity: "Timer")
        try store.close()
        #expect(store.statistics.cacheWrites == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: cachePath)[.modificationDate] as? Date == before)
    }

    @Test func closingAfterACommitOrALostCacheWritesTheCacheAgain() throws {
        let directory = try TemporaryDirectory()
        _ = try populatedStore(directory)
        let store = try DocumentStore.open(at: directory("store"))
        _ = store.documents(entity: "Timer")
        try FileManager.default.removeItem(atPath: directory("store/.folio/cache/Timer"))
        try store.close()
        #expect(store.statistics.cacheWrites == 1, "the cache file was removed behind the store's back")
        try store.commit([.put(timer("One more", date: november22()), basedOn: nil)])
        try store.close()
        #expect(store.statistics.cacheWrites == 2)
        let reopened = try DocumentStore.open(at: directory("store"))
        #expect(reopened.statistics.filesRead == 0)
        #expect(reopened.documents(entity: "Timer").count == 51)
    }

    @Test func checkoutOfTenFilesCostsTenReads() throws {
        let directory = try TemporaryDirectory()
        let paths = try populatedStore(directory)
        for path in paths.prefix(10) {
            let file = directory("store/" + path.relativePath)
            try write(try text(at: file).replacingOccurrences(of: "\"minutes\": 25", with: "\"minutes\": 50"), to: file)
        }
        let store = try DocumentStore.open(at: directory("store"))
        #expect(store.documents(entity: "Timer").filter { $0.content["minutes"] == 50 }.count == 10)
        #expect(store.statistics.filesRead == 10)
    }

    @Test func refreshSeesAddedEditedAndRemovedFilesAndReadsOnlyThose() throws {
        let directory = try TemporaryDirectory()
        let paths = try populatedStore(directory)
        let store = try DocumentStore.open(at: directory("store"))
        _ = store.documents(entity: "Timer")
        #expect(try store.refresh().isEmpty)

        let edited = directory("store/" + paths[0].relativePath)
        try write(try text(at: edited).replacingOccurrences(of: "Timer 0", with: "Renamed"), to: edited)
        try FileManager.default.removeItem(atPath: directory("store/" + paths[1].relativePath))
        let newID = UUID()
        try write(
            "{\n  \"$entity\": \"Timer\",\n  \"name\": \"From git\"\n}\n",
            to: directory("store/Timer/2025/01/02/\(newID.uuidString).json"))

        let changes = try store.refresh()
        #expect(changes.filesRead == 2)
        #expect(changes.modified == [paths[0]])
        #expect(changes.removed == [paths[1]])
        #expect(changes.added.map(\.id) == [newID])
        #expect(store.document(entity: "Timer", id: paths[0].id)?.content["name"] == "Renamed")
        #expect(store.document(entity: "Timer", id: paths[1].id) == nil)
        #expect(store.document(entity: "Timer", id: newID)?.content["name"] == "From git")
    }

    @Test func refreshingTheFilesAWatcherNamedReadsOnlyThoseAndNamesABrokenOne() throws {
        let directory = try TemporaryDirectory()
        let paths = try populatedStore(directory)
        let store = try DocumentStore.open(at: directory("store"))
        _ = store.documents(entity: "Timer")
        let edited = directory("store/" + paths[0].relativePath)
        try write(try text(at: edited).replacingOccurrences(of: "Timer 0", with: "Renamed"), to: edited)
        try FileManager.default.removeItem(atPath: directory("store/" + paths[1].relativePath))
        let broken = directory("store/" + paths[2].relativePath)
        try write("{ not json", to: broken)

        let changes = try store.refresh(paths: Set(paths[0...2].map(\.relativePath)))
        #expect(changes.filesRead == 2)
        #expect(changes.modified == [paths[0]])
        #expect(Set(changes.removed) == [paths[1], paths[2]])
        #expect(store.document(entity: "Timer", id: paths[0].id)?.content["name"] == "Renamed")
        #expect(store.issues.map(\.path) == [paths[2].relativePath])
        #expect(try store.refresh().isEmpty, "a whole refresh finds nothing more")

        // A path that is not a document's file makes it a whole refresh.
        try write(try text(at: edited).replacingOccurrences(of: "Renamed", with: "Again"), to: edited)
        #expect(try store.refresh(paths: ["folio.json"]).modified == [paths[0]])
    }

    @Test func anotherWritersTransactionsSeenAFileAtATimeAreItsOwnNotExternal() throws {
        let directory = try TemporaryDirectory()
        let writer = try makeStore(in: directory)
        let watching = try DocumentStore.open(at: directory("store"))
        _ = watching.documents(entity: "Timer")
        let timers = [timer("First"), timer("Second")]
        for timer in timers { try writer.commit([.put(timer, basedOn: nil)], author: "writer") }
        // A watcher names the first transaction's file, then the second's.
        for timer in timers {
            let path = try #require(writer.document(entity: "Timer", id: timer.id)?.path)
            #expect(try watching.refresh(paths: [path.relativePath]).added == [path])
        }
        #expect(try watching.history(after: 0).records.map(\.author) == ["writer", "writer"])
        #expect(try watching.refresh().isEmpty)
        #expect(try watching.history(after: 0).records.count == 2)
    }

    @Test(arguments: ["garbage", "truncated", "empty"])
    func damagedCacheIsRebuiltNeverTrusted(_ damage: String) throws {
        let directory = try TemporaryDirectory()
        _ = try populatedStore(directory)
        let cachePath = directory("store/.folio/cache/Timer")
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: cachePath)))
        switch damage {
        case "garbage": bytes[bytes.count / 2] ^= 0xFF
        case "truncated": bytes.removeLast(bytes.count / 3)
        default: bytes = []
        }
        try Data(bytes).write(to: URL(fileURLWithPath: cachePath))
        let store = try DocumentStore.open(at: directory("store"))
        #expect(store.documents(entity: "Timer").count == 50)
        #expect(store.statistics.filesRead == 50)
        #expect(store.statistics.cacheHits == 0)
        let reopened = try DocumentStore.open(at: directory("store"))
        _ = reopened.documents(entity: "Timer")
        #expect(reopened.statistics.filesRead == 0, "the cache was rebuilt")
    }

    @Test func missingCacheMeansReadingEveryFile() throws {
        let directory = try TemporaryDirectory()
        _ = try populatedStore(directory)
        try FileManager.default.removeItem(atPath: directory("store/.folio"))
        let store = try DocumentStore.open(at: directory("store"))
        _ = store.documents(entity: "Timer")
        #expect(store.statistics.filesRead == 50)
    }

    @Test func cachedEntryOfAFileEditedToTheSameStampIsNotUsed() throws {
        // A file replaced by one with another inode (as git checkout does) is read again
        // even when size and mtime match.
        let directory = try TemporaryDirectory()
        let paths = try populatedStore(directory)
        let file = directory("store/" + paths[3].relativePath)
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        let replacement = try text(at: file).replacingOccurrences(of: "Timer 3", with: "Tomer 3")
        try FileManager.default.removeItem(atPath: file)
        try write(replacement, to: file)
        try FileManager.default.setAttributes([.modificationDate: attributes[.modificationDate]!], ofItemAtPath: file)
        let store = try DocumentStore.open(at: directory("store"))
        #expect(store.document(entity: "Timer", id: paths[3].id)?.content["name"] == "Tomer 3")
    }
}

struct ManifestRefreshTests {
    @Test func refreshPicksUpAManifestEditedBehindTheStoresBack() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        let path = directory("store/folio.json")
        try write(try text(at: path).replacingOccurrences(of: "\"1.0.0\"", with: "\"2.0.0\""), to: path)
        try store.refresh()
        #expect(store.manifest.schemaVersion == "2.0.0")
    }
}
