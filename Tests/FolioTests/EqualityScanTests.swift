import FolioTestSupport
import Foundation
import Testing

@testable import FolioCore

/// An equality on a number no declared index serves: the first query scans, one asked
/// again reads only the rows holding the value, from the property's ordered index, and
/// the answers are the scan's, through saves.
struct EqualityScanTests {
    /// Sixty errands whose `estimate` is 0, 1, 2, 3 or missing, in turn.
    func makeStore(in folder: TemporaryDirectory) throws -> (ModelContainer, DocumentStore) {
        let url = folder.url.appendingPathComponent("Errands")
        let container = try ModelContainer(
            for: Errand.self, Household.self, configurations: ModelConfiguration(url: url, durability: .none))
        let context = ModelContext(container)
        for number in 0..<60 {
            context.insert(
                Errand(
                    title: "Errand \(number)", code: "E\(number)", priority: number % 5, done: false,
                    due: CacheAnswerTests.start.addingTimeInterval(Double(number) * 3_600),
                    estimate: number % 5 == 4 ? nil : Double(number % 5), note: nil, tags: []))
        }
        try context.save()
        return (container, container.store(of: "Errand"))
    }

    func estimate(is value: QueryValue) -> DocumentQuery {
        DocumentQuery(entity: "Errand", filter: .compare(.property("estimate"), .equal, .value(value)))
    }

    func codes(_ result: DocumentQueryResult) -> [String] {
        result.matches.compactMap { $0.stored?.content["code"]?.stringValue }
    }

    @Test func anEqualityAskedAgainReadsOnlyTheRowsHoldingTheValue() throws {
        let folder = try TemporaryDirectory()
        let (_, store) = try makeStore(in: folder)
        let first = try store.query(estimate(is: .integer(2)))
        #expect(first.explanation.orderedBy == nil)
        #expect(first.explanation.examined == 60)
        #expect(first.total == 12)

        let again = try store.query(estimate(is: .integer(2)))
        #expect(again.explanation.orderedBy == "estimate")
        #expect(again.explanation.examined == 12)
        #expect(codes(again) == codes(first), "the same documents in the same (store) order")
        #expect(try codes(store.query(estimate(is: .double(2)))) == codes(first))
        #expect(try store.query(estimate(is: .double(2.5))).total == 0)
        #expect(try store.query(estimate(is: .integer(7))).total == 0)
        // Past 2^53 an integer and a double that compare equal may sort apart: such a
        // constant is always scanned for.
        let huge = try store.query(estimate(is: .integer(1 << 60)))
        #expect(huge.explanation.orderedBy == nil && huge.explanation.examined == 60)
    }

    @Test func theOrderedIndexFollowsSavesAndDeletes() throws {
        let folder = try TemporaryDirectory()
        let (container, store) = try makeStore(in: folder)
        _ = try store.query(estimate(is: .integer(2)))
        #expect(try store.query(estimate(is: .integer(2))).explanation.orderedBy == "estimate")

        let context = ModelContext(container)
        let errands = try context.fetch(FetchDescriptor<Errand>(sortBy: [SortDescriptor(\.code)]))
        let two = try #require(errands.first { $0.estimate == 2 })
        let none = try #require(errands.first { $0.estimate == nil })
        let three = try #require(errands.first { $0.estimate == 3 })
        two.estimate = 3
        none.estimate = 2
        context.insert(
            Errand(
                title: "New", code: "N1", priority: 0, done: false, due: CacheAnswerTests.start, estimate: 2,
                note: nil, tags: []))
        context.delete(three)
        try context.save()

        let followed = try store.query(estimate(is: .integer(2)))
        #expect(followed.explanation.orderedBy == "estimate")
        // A store that only scans: the answer the index must give.
        let scanning = try DocumentStore.open(at: store.root, durability: .none)
        let scanned = try scanning.query(estimate(is: .integer(2)))
        #expect(scanned.explanation.orderedBy == nil)
        #expect(codes(followed) == codes(scanned))
        #expect(followed.total == 13, "twelve, one moved away, one moved in, one new")
        let threes = try store.query(estimate(is: .integer(3)))
        #expect(threes.explanation.orderedBy == "estimate", "the index is the property's, whatever the value")
        #expect(codes(threes) == (try codes(scanning.query(estimate(is: .integer(3))))))
        #expect(threes.total == 12, "twelve, one moved in, one deleted")
    }
}
