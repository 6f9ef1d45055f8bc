import Foundation
import Testing

@testable import FolioCore

/// Transactions whose records were deleted (`deleteHistory`, the cap) are not found again as
/// external changes by a store whose cache predates them.
struct DeletedHistoryTests {
    @Test func savesWhoseRecordsWereDeletedAreNotRecordedAgainAsExternal() throws {
        let directory = try TemporaryDirectory()
        let first = try makeStore(in: directory)
        try first.commit([.put(timer("Tea"), basedOn: nil)])
        try first.close()
        // The cache as the widget's last open left it: from before the app's next saves.
        let cache = directory("store/.folio/cache")
        try FileManager.default.copyItem(atPath: cache, toPath: directory("old-cache"))

        let app = try DocumentStore.open(at: directory("store"), durability: .none)
        try app.commit([.put(timer("Coffee"), basedOn: nil)])
        try app.commit([.put(timer("Lunch"), basedOn: nil)])
        try app.deleteHistory { _ in true }
        try FileManager.default.removeItem(atPath: cache)
        try FileManager.default.copyItem(atPath: directory("old-cache"), toPath: cache)

        let widget = try DocumentStore.open(at: directory("store"), durability: .none)
        #expect(try widget.query(DocumentQuery(entity: "Timer")).matches.count == 3)
        let records = try widget.history(after: 0).records
        #expect(records.allSatisfy { $0.author != HistoryRecord.externalAuthor }, "\(records)")
        // A change made after, by hand, is still recorded.
        let lunch = try #require(
            try FileManager.default.subpathsOfDirectory(atPath: directory("store/Timer"))
                .first {
                    $0.hasSuffix(".json")
                        && (try? String(contentsOfFile: directory("store/Timer/" + $0), encoding: .utf8))?.contains(
                            "Lunch") == true
                })
        let path = directory("store/Timer/" + lunch)
        try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "Lunch", with: "Brunch")
            .write(toFile: path, atomically: true, encoding: .utf8)
        _ = try widget.refresh()
        let after = try widget.history(after: 0).records
        #expect(after.filter { $0.author == HistoryRecord.externalAuthor }.count == 1, "\(after)")
    }
}

/// The history keeps the number of transactions the configuration states, not a segment's
/// worth more.
struct HistoryLimitTests {
    @Test func aFetchSeesExactlyTheNewestHistoryLimitTransactions() throws {
        let directory = try TemporaryDirectory()
        let manifest = StoreManifest(timeZone: utc, schema: ["entities": ["Timer": [:], "TodoItem": [:]]])
        let store = try DocumentStore.create(
            at: directory("store"), manifest: manifest, durability: .none, historyLimit: 10)
        for number in 0..<301 { try store.commit([.put(timer("T\(number)"), basedOn: nil)]) }
        let all = try store.history(after: 0)
        #expect(all.records.map(\.token) == Array(292...301))
        #expect(try store.history(after: 291).reachesBack)
        #expect(try !store.history(after: 280).reachesBack, "a token older than the kept ten has expired")
        #expect(try store.history(after: 295).records.map(\.token) == Array(296...301))
    }
}
