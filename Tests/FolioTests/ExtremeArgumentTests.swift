import Foundation
import Testing

@testable import FolioCore

/// Numbers a Swift caller passes to the store, as they may come from anywhere: none traps.
struct ExtremeArgumentTests {
    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e308, -1, 0])
    func anyLockTimeoutOpensAndWrites(timeout: Double) throws {
        let directory = try TemporaryDirectory()
        _ = try makeStore(in: directory)
        let store = try DocumentStore.open(at: directory("store"), durability: .none, lockTimeout: timeout)
        try store.commit([.put(timer("Tea"), basedOn: nil)])
        #expect(try store.query(DocumentQuery(entity: "Timer")).matches.count == 1)
    }

    @Test func anOffsetAndALimitNearIntMaxAskForWhatFollowsTheOffset() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        try store.commit((0..<5).map { .put(timer("T\($0)", minutes: $0), basedOn: nil) })
        let minutes = QueryExpression.property("minutes")
        for sort in [[], [DocumentQuery.SortKey(minutes)], [DocumentQuery.SortKey(minutes, ascending: false)]] {
            let all = try store.query(DocumentQuery(entity: "Timer", sort: sort, offset: 2, limit: .max))
            #expect(all.matches.count == 3)
            let none = try store.query(DocumentQuery(entity: "Timer", sort: sort, offset: .max, limit: .max))
            #expect(none.matches.isEmpty)
        }
    }
}
