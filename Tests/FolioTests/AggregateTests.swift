import Foundation
import Testing

@testable import FolioCore

/// Aggregates over every document read only the members they need; the answer is the one
/// the documents read whole give.
struct AggregateTests {
    @Test func aSummaryOfEveryDocumentEqualsTheSameSummaryReadWhole() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        var documents: [DocumentChange] = []
        for index in 0..<300 {
            var document = timer(
                "Timer \(index)", date: november22().addingTimeInterval(Double(index % 7) * 86_400), minutes: index % 50
            )
            document.content["kind"] = index % 3 == 0 ? "tea" : index % 3 == 1 ? "work" : .null
            if index % 10 == 0 { document.content[ReservedKey.deleted] = "2026-11-22T09:00:00.000Z" }
            documents.append(.put(document, basedOn: nil))
        }
        try store.commit(documents)
        // A new store on the same folder: its documents come from the cache, still compact.
        try store.close()
        let reopened = try DocumentStore.open(at: directory("store"), durability: .none)
        let groups: [QueryExpression] = [.property("kind")]
        for includeDeleted in [false, true] {
            for function in QueryAggregate.Function.allCases {
                let aggregate = QueryAggregate(function, of: function == .count ? nil : .property("minutes"))
                let everything = DocumentQuery(entity: "Timer", includeDeleted: includeDeleted)
                var filtered = everything
                filtered.filter = .value(.bool(true))  // read whole, as a filtered aggregate reads them
                let fast = try reopened.aggregate(everything, aggregate, groupedBy: groups)
                let whole = try reopened.aggregate(filtered, aggregate, groupedBy: groups)
                #expect(fast.map(\.description) == whole.map(\.description), "\(function), deleted: \(includeDeleted)")
                // Once rows were decoded by the filtered run, the fast path reads them from there.
                #expect(
                    try reopened.aggregate(everything, aggregate, groupedBy: groups).map(\.description)
                        == whole.map(\.description))
            }
        }
        let counts = try reopened.aggregate(DocumentQuery(entity: "Timer"), QueryAggregate(.count), groupedBy: groups)
        #expect(counts.map(\.count).reduce(0, +) == 270)
    }
}
