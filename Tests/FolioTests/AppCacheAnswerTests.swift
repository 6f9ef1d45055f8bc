import FolioTestSupport
import Foundation
import Testing

@testable import FolioCore

/// An app's queries on a large folder answered from its cache file and one walk, the folder
/// left unloaded (`CachedFolder`): the answers a loaded folder gives, changes on disk told
/// and seen, saves checked as any, and the folder loaded once its answers read as much as a
/// load would.
struct AppCacheAnswerTests {
    /// The sixty errands of `CacheAnswerTests`, in a store whose cache files are written.
    func makeErrands(in folder: TemporaryDirectory) throws -> (root: String, households: [UUID]) {
        try CacheAnswerTests().makeErrands(in: folder)
    }

    /// A container on the store at `root` that watches no file (the tests say when to
    /// refresh) and answers from cache files for a folder of `minimum` documents or more
    /// (any size unless told).
    func openApp(at root: String, cacheAnswerMinimum minimum: Int = 0) throws -> (
        ModelContainer, ModelContext, DocumentStore
    ) {
        var configuration = ModelConfiguration(url: URL(fileURLWithPath: root), durability: .none)
        configuration.watchesFiles = false
        configuration.reads = StoreReads(cacheAnswerMinimum: minimum)
        let container = try ModelContainer(for: Errand.self, Household.self, configurations: configuration)
        return (container, ModelContext(container), container.store(of: "Errand"))
    }

    func isLoaded(_ folder: String, in store: DocumentStore) -> Bool {
        store.memory.isLoaded(folder)
    }

    func errands(priority: Int, in context: ModelContext) throws -> [Errand] {
        try context.fetch(
            FetchDescriptor<Errand>(predicate: #Predicate { $0.priority == priority }, sortBy: [SortDescriptor(\.code)])
        )
    }

    /// The codes of the errands of `priority`, as a store that loads the folder has them.
    func loadedCodes(priority: Int, at root: String) throws -> [String] {
        let store = try DocumentStore.open(at: root, durability: .none)
        let result = try store.query(
            DocumentQuery(
                entity: "Errand", filter: .compare(.property("priority"), .equal, .value(.integer(Int64(priority))))))
        return result.matches.compactMap { $0.stored?.content["code"]?.stringValue }.sorted()
    }

    @Test func anAppsIndexedFetchesOfALargeFolderAreAnsweredFromItsCacheFileWithoutLoadingIt() throws {
        let folder = try TemporaryDirectory()
        let (root, households) = try makeErrands(in: folder)
        let (_, context, store) = try openApp(at: root)

        let third = try errands(priority: 3, in: context)
        #expect(third.map(\.code) == (try loadedCodes(priority: 3, at: root)))
        #expect(third.count == 12)
        #expect(store.statistics.answersFromCacheFiles == 1)
        #expect(store.statistics.filesRead == 0)
        #expect(!isLoaded("Errand", in: store), "the folder was not loaded")

        // A relationship key, and a count, from the same walk.
        let north = QueryExpression.compare(
            .property("household"), .equal, .value(.document(entity: "Household", id: households[0])))
        let northern = try store.query(DocumentQuery(entity: "Errand", filter: north))
        #expect(northern.total == 30 && northern.explanation.fromCacheFile)
        #expect(try context.fetchCount(FetchDescriptor<Errand>()) == 60)
        #expect(store.statistics.answersFromCacheFiles == 3)
        #expect(!isLoaded("Errand", in: store))

        // What no index answers reads the whole folder through the cache file; the answers have
        // then read the folder's worth, so the next one loads it, with the loaded folder's answers.
        let found = try context.fetch(FetchDescriptor<Errand>(predicate: #Predicate { $0.title == "Errand 7" }))
        #expect(found.map(\.code) == ["E7"])
        #expect(store.statistics.answersFromCacheFiles == 4)
        #expect(!isLoaded("Errand", in: store))
        #expect(try errands(priority: 3, in: context).map(\.code) == third.map(\.code))
        #expect(isLoaded("Errand", in: store))
        #expect(store.memory.refreshScope.cached.isEmpty, "what the walk found is let go")
        #expect(store.statistics.answersFromCacheFiles == 4)
    }

    @Test func aFolderSmallerThanTheMinimumIsLoadedByItsFirstFetch() throws {
        let folder = try TemporaryDirectory()
        let (root, _) = try makeErrands(in: folder)
        let (_, context, store) = try openApp(at: root, cacheAnswerMinimum: 61)
        #expect(try errands(priority: 3, in: context).count == 12)
        #expect(store.statistics.answersFromCacheFiles == 0)
        #expect(isLoaded("Errand", in: store))
    }

    /// A fetch whose filter no index serves (`done` has none) reads through the cache file and
    /// keeps its results, not the folder; a second reads as many again, so it loads the folder.
    @Test func anAppsFirstFetchNoIndexServesIsStreamedAndTheSecondLoadsTheFolder() throws {
        let folder = try TemporaryDirectory()
        let (root, _) = try makeErrands(in: folder)
        let (_, context, store) = try openApp(at: root)
        let done = try context.fetch(
            FetchDescriptor<Errand>(predicate: #Predicate { $0.done }, sortBy: [SortDescriptor(\.code)]))
        let loaded = try DocumentStore.open(at: root, durability: .none)
        let expected = try loaded.query(DocumentQuery(entity: "Errand", filter: .property("done")))
        #expect(done.map(\.code) == expected.matches.compactMap { $0.stored?.content["code"]?.stringValue }.sorted())
        #expect(done.count == 20 && done.allSatisfy(\.done))
        #expect(store.statistics.answersFromCacheFiles == 1)
        #expect(!isLoaded("Errand", in: store))
        #expect(store.statistics.filesRead == 0 && store.statistics.cacheHits == 0)

        let notDone = try context.fetchCount(FetchDescriptor<Errand>(predicate: #Predicate { !$0.done }))
        #expect(notDone == 40)
        #expect(store.statistics.answersFromCacheFiles == 1)
        #expect(isLoaded("Errand", in: store))
    }

    @Test func theFolderIsLoadedOnceItsAnswersReadAsManyDocumentsAsItHas() throws {
        let folder = try TemporaryDirectory()
        let (root, _) = try makeErrands(in: folder)
        let (_, context, store) = try openApp(at: root)
        // Twelve errands of each priority: five answers read sixty.
        for priority in 0..<5 { #expect(try errands(priority: priority, in: context).count == 12) }
        #expect(store.statistics.answersFromCacheFiles == 5)
        #expect(!isLoaded("Errand", in: store))
        #expect(try errands(priority: 0, in: context).count == 12)
        #expect(store.statistics.answersFromCacheFiles == 5)
        #expect(isLoaded("Errand", in: store))
    }

    @Test func filesAWatcherNamesInAFolderAnsweredFromItsCacheFileAreToldAndSeen() throws {
        let folder = try TemporaryDirectory()
        let (root, _) = try makeErrands(in: folder)
        let (_, context, store) = try openApp(at: root)
        let third = try errands(priority: 3, in: context)
        let moved = third[0]
        let movedFile = try #require(store.document(entity: "Errand", id: moved.id)?.path.relativePath)
        // That lookup loaded the folder: a new app, to answer from the cache file again.
        let (appContainer, appContext, appStore) = try openApp(at: root)
        #expect(try errands(priority: 3, in: appContext).count == 12)
        let held = try #require(try errands(priority: 3, in: appContext).first { $0.id == moved.id })

        // One errand moves to priority 4, one is copied under a new identity, one goes.
        let cacheTests = CacheAnswerTests()
        try cacheTests.rewrite(movedFile, in: root) { $0.replacing("\"priority\": 3", with: "\"priority\": 4") }
        let files = try cacheTests.errandFiles(in: root).filter { $0 != movedFile }
        let copy = UUID()
        let copyFile = (files[0].split(separator: "/").dropLast().joined(separator: "/")) + "/\(copy.uuidString).json"
        let original = try String(contentsOfFile: root + "/" + files[0], encoding: .utf8)
        let originalID = try #require(files[0].split(separator: "/").last?.dropLast(5))
        try original.replacing(String(originalID), with: copy.uuidString)
            .write(toFile: root + "/" + copyFile, atomically: false, encoding: .utf8)
        try FileManager.default.removeItem(atPath: root + "/" + files[1])
        let untouched = files[2]

        let changes = try appContainer.opened.refresh(appStore, paths: [movedFile, copyFile, files[1], untouched])
        #expect(changes.modified.map(\.relativePath) == [movedFile])
        #expect(changes.added.map(\.relativePath) == [copyFile])
        #expect(changes.removed.map(\.relativePath) == [files[1]])
        #expect(changes.filesRead == 0)

        // The next fetch sees the disk as it is, and the model held takes the new value.
        let now = try errands(priority: 3, in: appContext)
        #expect(now.map(\.code) == (try loadedCodes(priority: 3, at: root)))
        #expect(!now.contains { $0.id == moved.id })
        #expect(held.priority == 4)
        #expect(try appContext.fetchCount(FetchDescriptor<Errand>()) == 60)
    }

    @Test func aWholeRefreshLoadsAFolderAnsweredFromItsCacheFileAndTellsWhatChanged() throws {
        let folder = try TemporaryDirectory()
        let (root, _) = try makeErrands(in: folder)
        let cacheTests = CacheAnswerTests()
        let file = try cacheTests.errandFiles(in: root)[5]
        let (_, context, store) = try openApp(at: root)
        #expect(try errands(priority: 3, in: context).count == 12)
        try cacheTests.rewrite(file, in: root) { $0.replacing("\"title\": \"", with: "\"title\": \"Renamed ") }
        let changes = try store.refresh()
        #expect(changes.modified.map(\.relativePath) == [file])
        #expect(isLoaded("Errand", in: store))
        #expect(store.memory.refreshScope.cached.isEmpty)
    }

    @Test func aModelFetchedFromTheCacheFileSavesAndConflictsAsAnyOther() throws {
        let folder = try TemporaryDirectory()
        let (root, _) = try makeErrands(in: folder)
        let (_, context, store) = try openApp(at: root)
        let first = try errands(priority: 3, in: context)
        first[0].title = "Saved"
        context.insert(
            Errand(
                title: "New", code: "N1", priority: 3, done: false, due: CacheAnswerTests.start, estimate: nil,
                note: nil, tags: []))
        try context.save()
        #expect(try errands(priority: 3, in: context).count == 13, "the commit let go of what the walk found")
        #expect(try loadedCodes(priority: 3, at: root).count == 13)
        let saved = try #require(try DocumentStore.open(at: root).document(entity: "Errand", id: first[0].id))
        #expect(saved.content["title"] == "Saved")

        // A file changed on disk after a cache answer read it conflicts at the save.
        let (_, appContext, _) = try openApp(at: root)
        let held = try #require(try errands(priority: 3, in: appContext).first { $0.id == first[1].id })
        try CacheAnswerTests().rewrite(
            try #require(store.document(entity: "Errand", id: held.id)).path.relativePath, in: root
        ) {
            $0.replacing("\"done\": ", with: "\"note\": \"by hand\",\n  \"done\": ")
        }
        held.title = "Mine"
        let error = try #require(throws: FolioError.self) { try appContext.save() }
        #expect(error.kind == .conflict, "\(error)")
    }

    @Test func aCacheFileDamagedAfterItsWalkCostsALoadNeverAWrongAnswer() throws {
        let folder = try TemporaryDirectory()
        let (root, _) = try makeErrands(in: folder)
        let expected = try loadedCodes(priority: 1, at: root)
        let (_, context, store) = try openApp(at: root)
        #expect(try errands(priority: 3, in: context).count == 12)
        #expect(!isLoaded("Errand", in: store))
        // Every entry of the file the kept walk reads from is overwritten in place (the same
        // file, so the store's open descriptor sees it): each content then fails its own
        // hash, while the index part the walk was matched against stays whole.
        let cacheFile = root + "/" + DocumentCache.fileName(of: "Errand")
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: cacheFile)))
        let footerStart = bytes.count - 8 - DocumentCache.Footer.size
        let footer = try #require(
            DocumentCache.Footer(Array(bytes[footerStart..<(footerStart + DocumentCache.Footer.size)])))
        for index in DocumentCache.magic.count..<footer.entriesEnd { bytes[index] ^= 0x5A }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: cacheFile))
        try handle.write(contentsOf: bytes)
        try handle.close()

        #expect(try errands(priority: 1, in: context).map(\.code) == expected)
        #expect(isLoaded("Errand", in: store), "the folder was loaded instead")
        #expect(store.statistics.answersFromCacheFiles == 1)
    }
}
