import FolioTestSupport
import Foundation
import Testing

@testable import FolioCore

/// Queries no index narrows, in a store serving one command (`folio count`, `query`,
/// `aggregate`): streamed from the folder's cache file and a walk, the folder never loaded,
/// with the answers a loaded folder gives.
struct CacheScanTests {
    let errands = CacheAnswerTests()

    /// Unindexed filters (`done`, `title`, `estimate`), a day range on `due`, with sorts,
    /// pages, a count, soft-deleted documents, and a filter the evaluator must run.
    func queries() -> [DocumentQuery] {
        let done = QueryExpression.compare(.property("done"), .equal, .value(.bool(true)))
        let early = QueryExpression.compare(
            .property("due"), .less, .value(.date(CacheAnswerTests.start.addingTimeInterval(10 * 86_400))))
        let byTitle = [DocumentQuery.SortKey(.property("title"), ascending: false)]
        let titled = QueryExpression.text(.containsIgnoringCase, .property("title"), .value(.string("1")))
        return [
            DocumentQuery(entity: "Errand", filter: done),
            DocumentQuery(entity: "Errand", filter: done, limit: 0),
            DocumentQuery(entity: "Errand", filter: done, includeDeleted: true),
            DocumentQuery(entity: "Errand", filter: done, sort: byTitle, offset: 3, limit: 4),
            DocumentQuery(entity: "Errand", filter: early, sort: byTitle),
            DocumentQuery(entity: "Errand", filter: .or(titled, done), limit: 5),
        ]
    }

    /// Each query's answer streamed by a store serving one command, checked against a store
    /// that loads the folder; returns whether each was streamed.
    func compareAnswers(at root: String) throws -> [Bool] {
        try queries().map { query in
            let streaming = try DocumentStore.open(at: root, durability: .none, reads: .oneCommand)
            let streamed = try streaming.query(query)
            let loaded = try DocumentStore.open(at: root, durability: .none)
            #expect(try errands.answer(query, in: loaded) == errands.answer(query, in: streaming), "\(query)")
            #expect(streaming.statistics.filesRead == 0 && streaming.statistics.cacheHits == 0, "not loaded: \(query)")
            return streamed.explanation.streamed
        }
    }

    @Test func aFilterNoIndexNarrowsIsStreamedWithTheLoadedFoldersAnswers() throws {
        let folder = try TemporaryDirectory()
        let (root, _) = try errands.makeErrands(in: folder)
        #expect(try compareAnswers(at: root) == Array(repeating: true, count: queries().count))

        let store = try DocumentStore.open(at: root, durability: .none, reads: .oneCommand)
        let count = try store.query(queries()[1])
        #expect(count.total == 20 && count.matches.isEmpty, "every third errand is done")
        #expect(count.explanation.examined == 60)
        #expect(count.explanation.description.contains("streamed from the folder's cache file"))
    }

    @Test func filesChangedAddedOrRemovedSinceTheCacheFileAreStreamedToo() throws {
        let folder = try TemporaryDirectory()
        let (root, _) = try errands.makeErrands(in: folder)
        let files = try errands.errandFiles(in: root)
        // One errand is done by hand, one soft-deleted, one copied under a new identity, one goes.
        try errands.rewrite(files[1], in: root) { $0.replacing("\"done\": false", with: "\"done\": true") }
        try errands.rewrite(files[3], in: root) {
            $0.replacing("{\n", with: "{\n  \"$deleted\": \"2026-11-20T10:00:00Z\",\n", maxReplacements: 1)
        }
        let copy = try String(contentsOfFile: root + "/" + files[6], encoding: .utf8)
        let oldID = String(files[6].split(separator: "/").last!.prefix(36))
        let newID = UUID().uuidString
        try copy.replacing(oldID, with: newID).replacing(/"code": "E\d+"/, with: "\"code\": \"copy\"")
            .write(toFile: root + "/" + files[6].replacing(oldID, with: newID), atomically: false, encoding: .utf8)
        try FileManager.default.removeItem(atPath: root + "/" + files[9])

        #expect(try compareAnswers(at: root) == Array(repeating: true, count: queries().count))
    }

    /// The records are tested while the folder is walked; one whose content does not hold
    /// its hash leaves the answer to the loaded folder, which reads the files.
    @Test func aScanOverADamagedCacheFileGivesTheLoadedFoldersAnswer() throws {
        let folder = try TemporaryDirectory()
        let (root, _) = try errands.makeErrands(in: folder)
        let cache = URL(fileURLWithPath: root + "/.folio/cache/Errand")
        var damaged = [UInt8](try Data(contentsOf: cache))
        damaged[try #require(damaged.firstRange(of: Array("Errand 12".utf8))).lowerBound + 1] ^= 0x5A
        for query in queries() {
            try Data(damaged).write(to: cache)
            let streaming = try DocumentStore.open(at: root, durability: .none, reads: .oneCommand)
            let result = try streaming.query(query)
            #expect(!result.explanation.streamed, "\(query)")
            let loaded = try DocumentStore.open(at: root, durability: .none)
            let expected = try loaded.query(query)
            #expect(result.total == expected.total && result.matches.map(\.id) == expected.matches.map(\.id))
        }
    }

    @Test func anIndexDeclaredAfterTheCacheFileWasWrittenIsStreamedNotLoaded() throws {
        let folder = try TemporaryDirectory()
        let (root, _) = try errands.makeErrands(in: folder)
        // `done` gains an index in the manifest, by hand: the cache file has no part for it.
        let manifest = URL(fileURLWithPath: root + "/folio.json")
        var top = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: manifest)) as? [String: Any])
        var schema = try #require(top["schema"] as? [String: Any])
        var entities = try #require(schema["entities"] as? [String: Any])
        var errand = try #require(entities["Errand"] as? [String: Any])
        errand["indices"] = ((errand["indices"] as? [[String]]) ?? []) + [["done"]]
        entities["Errand"] = errand
        schema["entities"] = entities
        top["schema"] = schema
        try JSONSerialization.data(withJSONObject: top, options: [.prettyPrinted, .sortedKeys]).write(to: manifest)
        let done = QueryExpression.compare(.property("done"), .equal, .value(.bool(true)))
        let store = try DocumentStore.open(at: root, durability: .none, reads: .oneCommand)
        let result = try store.query(DocumentQuery(entity: "Errand", filter: done, limit: 0))
        guard case .index(["done"], _, _) = result.explanation.access else {
            Issue.record("the plan uses the declared index: \(result.explanation)")
            return
        }
        #expect(result.explanation.streamed)
        #expect(result.total == 20)
        #expect(store.statistics.filesRead == 0 && store.statistics.cacheHits == 0, "the folder was not loaded")
    }

    @Test func anAggregateWithAFilterNoIndexNarrowsIsStreamed() throws {
        let folder = try TemporaryDirectory()
        let (root, _) = try errands.makeErrands(in: folder)
        let done = QueryExpression.compare(.property("done"), .equal, .value(.bool(true)))
        let query = DocumentQuery(entity: "Errand", filter: done)
        let aggregate = QueryAggregate(.average, of: .property("priority"))
        let streaming = try DocumentStore.open(at: root, durability: .none, reads: .oneCommand)
        let streamed = try streaming.aggregate(query, aggregate, groupedBy: [.property("title")])
        #expect(streaming.statistics.answersFromCacheFiles == 1)
        #expect(streaming.statistics.filesRead == 0 && streaming.statistics.cacheHits == 0)
        let loaded = try DocumentStore.open(at: root, durability: .none)
        #expect(try loaded.aggregate(query, aggregate, groupedBy: [.property("title")]) == streamed)
    }
}
