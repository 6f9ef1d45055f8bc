import FolioJSON
import FolioTestSupport
import Foundation
import Testing

@testable import FolioCore

/// A commit of new documents by a store that serves one command (`folio insert`): their
/// folder stays unloaded, each identity is checked against a walk of the folder, and the
/// store's other readers see the documents as if the folder had been loaded.
struct NewDocumentWalkTests {
    let errands = CacheAnswerTests()

    /// A new errand's document, as `folio insert` makes it, with the identity given.
    func newErrand(_ id: UUID, code: String, due: String, in store: DocumentStore) throws -> Document {
        try store.newDocument(
            entity: "Errand",
            values: [
                "id": .string(id.uuidString), "title": "Walked", "code": .string(code), "priority": 2,
                "done": false, "due": .string(due), "tags": [],
            ])
    }

    /// The store at `root` as a one-command process opens it (`folio insert`).
    func oneCommandStore(at root: String) throws -> DocumentStore {
        let store = try DocumentStore.open(at: root, durability: .none, reads: .oneCommand)
        return store
    }

    @Test func aNewDocumentIsWrittenWithoutLoadingItsFolder() throws {
        let folder = try TemporaryDirectory()
        let (root, _) = try errands.makeErrands(in: folder)
        let store = try oneCommandStore(at: root)
        let document = try newErrand(UUID(), code: "W1", due: "2026-12-01T09:00:00Z", in: store)
        let summary = try store.commit(store.changes(putting: document, over: nil))

        #expect(summary.written == 1)
        #expect(store.statistics.cacheHits == 0, "no cached entry of the folder was taken in")
        #expect(try errands.errandFiles(in: root).count == 61)
        // The same store, once it loads the folder, and a fresh one both see it, and the
        // version the commit returned is the file's.
        let path = try #require(summary.versions.keys.first)
        let stored = store.document(entity: "Errand", id: document.id)
        #expect(stored?.version.stamp == summary.versions[path]?.stamp)
        #expect(stored?.version.contentHash == summary.versions[path]?.contentHash)
        #expect(stored?.content["code"] == "W1")
        let fresh = try DocumentStore.open(at: root, durability: .none)
        #expect(try fresh.query(DocumentQuery(entity: "Errand", limit: 0)).total == 61)
        #expect(fresh.check().filter { $0.severity == .error }.isEmpty)
    }

    @Test func aNewDocumentWhoseIdentityIsStoredOnAnotherDayIsRefusedAndNothingIsWritten() throws {
        let folder = try TemporaryDirectory()
        let (root, _) = try errands.makeErrands(in: folder)
        let existing = try #require(try errands.errandFiles(in: root).first)
        let id = try #require(DocumentPath(relativePath: existing)?.id)
        let store = try oneCommandStore(at: root)
        // A year later than any errand: another day folder than the stored one.
        let document = try newErrand(id, code: "W2", due: "2027-12-01T09:00:00Z", in: store)
        let error = try #require(throws: FolioError.self) {
            try store.commit(store.changes(putting: document, over: nil))
        }
        #expect(error.kind == .conflict)
        #expect(error.path == existing)
        #expect(try errands.errandFiles(in: root).count == 60)
        #expect(store.statistics.transactionsCommitted == 0)
    }

    @Test func aWalkThatFindsAStrayFileLoadsTheFolderAndCommitsAsAnyCommitDoes() throws {
        let folder = try TemporaryDirectory()
        let (root, _) = try errands.makeErrands(in: folder)
        let day = try #require(try errands.errandFiles(in: root).first).split(separator: "/").dropLast().joined(
            separator: "/")
        try Data("notes".utf8).write(to: URL(fileURLWithPath: root + "/" + day + "/notes.txt"))
        let store = try oneCommandStore(at: root)
        let document = try newErrand(UUID(), code: "W3", due: "2026-12-02T09:00:00Z", in: store)
        let summary = try store.commit(store.changes(putting: document, over: nil))

        #expect(summary.written == 1)
        #expect(store.statistics.cacheHits == 60, "the folder was loaded, from its cache file")
        #expect(store.issues.contains { $0.path.hasSuffix("notes.txt") }, "and the stray file reported")
        #expect(try errands.errandFiles(in: root).count == 61)
    }

    @Test func aChangeToAStoredDocumentStillLoadsItsFolder() throws {
        let folder = try TemporaryDirectory()
        let (root, _) = try errands.makeErrands(in: folder)
        let existing = try #require(DocumentPath(relativePath: try errands.errandFiles(in: root)[0]))
        let store = try oneCommandStore(at: root)
        let stored = try #require(store.document(entity: "Errand", id: existing.id))
        let document = try store.document(stored, setting: ["title": "Renamed"])
        let added = try newErrand(UUID(), code: "W4", due: "2026-12-03T09:00:00Z", in: store)
        let summary = try store.commit(store.changes(putting: [(document, stored), (added, nil)]))

        #expect(summary.written == 2)
        #expect(store.document(entity: "Errand", id: existing.id)?.content["title"] == "Renamed")
        #expect(try errands.errandFiles(in: root).count == 61)
    }
}
