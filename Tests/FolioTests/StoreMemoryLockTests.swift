import Folio
import FolioTestSupport
import Foundation
import Testing

@testable import FolioCore

@Model
final class Chore {
    var title: String
    var done: Bool

    init(title: String, done: Bool) {
        self.title = title
        self.done = done
    }
}

/// The store's memory is behind one mutex, which every thread's fetches and saves wait for:
/// a save or a fetch takes it a few times, however many documents the store holds.
struct StoreMemoryLockTests {
    /// How many times `work` took the mutex of `store`'s memory (reading the counter takes it once).
    func locks(of store: DocumentStore, during work: () throws -> Void) rethrows -> Int {
        let before = store.statistics.memoryLocks
        try work()
        return store.statistics.memoryLocks - before - 1
    }

    @Test func aOneDocumentSaveAndAWarmFetchEachTakeTheStoresMutexAtMostFourTimes() throws {
        let folder = try TemporaryDirectory()
        var configuration = ModelConfiguration(url: folder.url)
        configuration.watchesFiles = false
        let container = try ModelContainer(for: Chore.self, configurations: configuration)
        let context = ModelContext(container)
        for number in 0..<50 { context.insert(Chore(title: "Chore \(number)", done: number % 2 == 0)) }
        try context.save()
        let store = container.store(of: "Chore")
        let open = FetchDescriptor<Chore>(predicate: #Predicate { !$0.done }, sortBy: [SortDescriptor(\.title)])
        _ = try context.fetch(open)

        var fetched: [Chore] = []
        let fetch = try locks(of: store) { fetched = try context.fetch(open) }
        #expect(fetched.count == 25)
        #expect(fetch >= 1 && fetch <= 4, "a warm fetch took the mutex \(fetch) times")

        var count = 0
        let counted = try locks(of: store) { count = try context.fetchCount(open) }
        #expect(count == 25)
        #expect(counted >= 1 && counted <= 4, "a warm count took the mutex \(counted) times")

        fetched[0].done = true
        let save = try locks(of: store) { try context.save() }
        #expect(save >= 1 && save <= 4, "a one-document save took the mutex \(save) times")
        #expect(try context.fetchCount(open) == 24)

        context.insert(Chore(title: "New", done: false))
        let insert = try locks(of: store) { try context.save() }
        #expect(insert >= 1 && insert <= 4, "a one-document insert took the mutex \(insert) times")
    }
}
