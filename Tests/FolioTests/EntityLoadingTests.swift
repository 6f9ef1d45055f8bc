import Foundation
import Testing

@testable import FolioCore

/// A store reads an entity's folder the first time the entity is used, and no other: the
/// work of an open follows the entities touched, not the size of the store.
struct EntityLoadingTests {
    /// A store with 20 timers and 5 to-do items, closed so its cache is written.
    func twoEntityStore(_ directory: TemporaryDirectory) throws -> (timers: [DocumentPath], todos: [DocumentPath]) {
        let store = try makeStore(in: directory)
        let timers = (0..<20).map { timer("Timer \($0)", date: november22().addingTimeInterval(Double($0) * 86_400)) }
        let todos = (0..<5).map {
            Document(
                entity: "TodoItem", id: UUID(), partitionDate: november22(), content: ["title": .string("Do \($0)")])
        }
        try store.commit((timers + todos).map { .put($0, basedOn: nil) })
        try store.close()
        return (store.documents(entity: "Timer").map(\.path), store.documents(entity: "TodoItem").map(\.path))
    }

    @Test func openingAStoreReadsNoEntityUntilOneIsUsed() throws {
        let directory = try TemporaryDirectory()
        _ = try twoEntityStore(directory)
        let store = try DocumentStore.open(at: directory("store"))
        #expect(store.statistics.cacheHits == 0)
        #expect(store.statistics.filesRead == 0)
        #expect(try store.query(DocumentQuery(entity: "TodoItem")).matches.count == 5)
        #expect(store.statistics.cacheHits == 5, "the to-do items' folder only, from its cache")
        #expect(store.statistics.filesRead == 0)
        #expect(store.documents(entity: "Timer").count == 20)
        #expect(store.statistics.cacheHits == 25)
    }

    @Test func aHandEditInAnEntityNotYetUsedIsSeenWhenItIsFirstUsed() throws {
        let directory = try TemporaryDirectory()
        let (timers, _) = try twoEntityStore(directory)
        let store = try DocumentStore.open(at: directory("store"))
        _ = try store.query(DocumentQuery(entity: "TodoItem"))
        let file = directory("store/" + timers[3].relativePath)
        try write(try text(at: file).replacingOccurrences(of: "\"minutes\": 25", with: "\"minutes\": 50"), to: file)
        try FileManager.default.removeItem(atPath: directory("store/" + timers[4].relativePath))
        #expect(try store.refresh().isEmpty, "a refresh looks at the folders in use only")
        #expect(store.statistics.filesRead == 0)
        let long = try store.query(
            DocumentQuery(entity: "Timer", filter: .compare(.property("minutes"), .equal, .value(.integer(50)))))
        #expect(long.matches.map(\.id) == [timers[3].id])
        #expect(store.statistics.filesRead == 1, "the edited file, and only it")
        #expect(store.documents(entity: "Timer").count == 19)
    }

    @Test func theCacheIsOneFilePerFolderAndOnlyUsedFoldersAreWritten() throws {
        let directory = try TemporaryDirectory()
        _ = try twoEntityStore(directory)
        let cache = directory("store/.folio/cache")
        #expect(try Set(FileManager.default.contentsOfDirectory(atPath: cache)) == ["Timer", "TodoItem"])
        let timers = try Data(contentsOf: URL(fileURLWithPath: cache + "/Timer"))
        let store = try DocumentStore.open(at: directory("store"))
        try store.commit([
            .put(Document(entity: "TodoItem", id: UUID(), partitionDate: november22(), content: [:]), basedOn: nil)
        ])
        try store.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: cache + "/Timer")) == timers, "the timers were not used")
        #expect(store.statistics.cacheWrites == 1)
        let reopened = try DocumentStore.open(at: directory("store"))
        #expect(reopened.documents(entity: "TodoItem").count == 6)
        #expect(reopened.statistics.filesRead == 0)
    }

    @Test func aCacheFileFromBeforeTheSplitIsReplaced() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        try store.commit([.put(timer("One"), basedOn: nil)])
        try DocumentStore.discardCache(at: directory("store"))
        try Data("FOLIO-CACHE 3\nold".utf8).write(to: URL(fileURLWithPath: directory("store/.folio/cache")))
        let reopened = try DocumentStore.open(at: directory("store"))
        #expect(reopened.documents(entity: "Timer").count == 1)
        #expect(reopened.statistics.cacheWriteFailure == nil)
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: directory("store/.folio/cache/Timer"), isDirectory: &isFolder))
        #expect(!isFolder.boolValue)
    }

    @Test func aNewDocumentWhoseIdentityIsInAnotherDayOfAnUnusedEntityConflicts() throws {
        let directory = try TemporaryDirectory()
        let (timers, _) = try twoEntityStore(directory)
        let store = try DocumentStore.open(at: directory("store"))
        let twin = timer("Twin", id: timers[0].id, date: november22().addingTimeInterval(-86_400 * 30))
        #expect(throws: FolioError.self) { try store.commit([.put(twin, basedOn: nil)]) }
        #expect(store.documents(entity: "Timer").count == 20)
    }

    @Test func aTallyCountsLiveAndDeletedDocumentsAndTheirDaysFromTheCache() throws {
        let directory = try TemporaryDirectory()
        _ = try twoEntityStore(directory)
        let store = try DocumentStore.open(at: directory("store"))
        let first = try #require(store.documents(entity: "Timer").first)
        var deleted = Document(entity: "Timer", id: first.id, partitionDate: november22(), content: first.content)
        deleted.content["$deleted"] = "2026-11-25T10:00:00Z"
        try store.commit([.put(deleted, basedOn: first.version)])
        try store.close()
        let reopened = try DocumentStore.open(at: directory("store"))
        let tally = reopened.tally(of: "Timer")
        #expect(tally.live == 19)
        #expect(tally.deleted == 1)
        #expect(tally.days.map { "\($0.lowerBound) … \($0.upperBound)" } == "2026-11-22 … 2026-12-11")
        #expect(reopened.statistics.filesRead == 0)
        #expect(
            reopened.tally(of: "TodoItem") == EntityTally(live: 5, deleted: 0, days: first.path.day...first.path.day))
    }

    @Test func aQueryFollowingARelationshipReadsItsDestinationsFolder() throws {
        let directory = try TemporaryDirectory()
        let manifest = StoreManifest(
            timeZone: utc,
            schema: [
                "entities": [
                    "Trip": ["properties": [["name": "name", "type": "String"]]],
                    "Stop": [
                        "properties": [
                            ["name": "city", "type": "String"],
                            ["name": "trip", "destination": "Trip"],
                        ]
                    ],
                ]
            ])
        let store = try DocumentStore.create(at: directory("store"), manifest: manifest, durability: .none)
        let trip = UUID()
        try store.commit([
            .put(
                Document(entity: "Trip", id: trip, partitionDate: november22(), content: ["name": "Alps"]), basedOn: nil
            ),
            .put(
                Document(
                    entity: "Stop", id: UUID(), partitionDate: november22(),
                    content: ["city": "Bern", "trip": .string(trip.uuidString)]), basedOn: nil),
        ])
        try store.close()
        let reopened = try DocumentStore.open(at: directory("store"))
        let query = DocumentQuery(
            entity: "Stop", filter: .compare(.member(.property("trip"), "name"), .equal, .value(.string("Alps"))))
        #expect(try reopened.query(query).matches.count == 1)
        #expect(reopened.statistics.cacheHits == 2, "both folders")
    }
}
