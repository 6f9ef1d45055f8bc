import Folio
import FolioTestSupport
import Foundation
import Testing

/// A query no index serves, streamed from a folder's cache file and a walk while another
/// process commits into that folder: each answer is the store at one moment.
struct ScanBesideAWriterTests {
    static let seeded = 3_000
    static let saves = 200

    /// Every count streamed beside the writer holds the seeded pebbles and whole saves of
    /// three, never part of one or a document twice, and never goes back; once the writer
    /// is done, the count is every document.
    @Test func countsStreamedBesideAWriterInAnotherProcessSeeWholeSaves() throws {
        let directory = try TemporaryDirectory()
        let root = directory("store")
        let container = try ModelContainer(
            for: Pebble.self, configurations: ModelConfiguration(url: URL(fileURLWithPath: root), durability: .none))
        let context = ModelContext(container)
        for index in 0..<Self.seeded { context.insert(Pebble(batch: 1, index: index, note: "seed")) }
        try context.save()
        // The folder's cache file, written once the files are past the clock tick, vouches for them all.
        CacheAnswerTests().letStampsSettle()
        try DocumentStore.discardCache(at: root)
        let loading = try DocumentStore.open(at: root, durability: .none)
        #expect(loading.documents(entity: "Pebble").count == Self.seeded)
        try loading.close()

        // `batch` has no index: every count below is a scan of the whole folder.
        let every = DocumentQuery(
            entity: "Pebble", filter: .compare(.property("batch"), .greaterOrEqual, .value(.integer(0))), limit: 0)
        func count() throws -> (total: Int, streamed: Bool, explained: String) {
            let store = try DocumentStore.open(at: root, durability: .none, reads: .oneCommand)
            defer { try? store.close() }
            let answer = try store.query(every)
            return (answer.total, answer.explanation.streamed, answer.explanation.description)
        }
        let first = try count()
        #expect(first.total == Self.seeded && first.streamed, "before the writer: \(first.explained)")

        let writer = try ChildProcess(["inserter", root, "99", "\(Self.saves)"])
        var counts: [Int] = []
        var streamed = 0
        while writer.process.isRunning {
            let (total, wasStreamed, _) = try count()
            counts.append(total)
            streamed += wasStreamed ? 1 : 0
        }
        let finished = writer.finish()
        #expect(finished.status == 0, "the writer failed: \(finished.errors)")
        for (position, total) in counts.enumerated() {
            let added = total - Self.seeded
            #expect(added >= 0 && added <= 3 * Self.saves && added % 3 == 0, "count \(position): \(total)")
            if position > 0 { #expect(total >= counts[position - 1], "went back: \(counts)") }
        }
        let last = try count()
        #expect(last.total == Self.seeded + 3 * Self.saves)
        let fromWriter = DocumentQuery(
            entity: "Pebble", filter: .compare(.property("note"), .equal, .value(.string("from another process"))),
            limit: 0)
        let store = try DocumentStore.open(at: root, durability: .none, reads: .oneCommand)
        #expect(try store.query(fromWriter).total == 3 * Self.saves)
        #expect(
            !counts.isEmpty && streamed > 0, "counted \(counts.count) times beside the writer, \(streamed) streamed")
    }
}
