import Folio
import Foundation
import Synchronization
import Testing

@Model final class Ledger {
    var name: String
    var entries: Int
    init(name: String, entries: Int = 0) {
        self.name = name
        self.entries = entries
    }
}

/// One executor for every writer, as apps declare it so that their writers exclude each other.
enum SharedWriting {
    static let container = try! ModelContainer(
        for: Ledger.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
    static let executor = DefaultSerialModelExecutor(modelContext: ModelContext(container))
    /// How many writers' methods are running now, and the most there ever were at once.
    static let running = Mutex((now: 0, most: 0))
}

/// A writer that adds entries, on the shared executor.
actor EntryWriter: ModelActor {
    nonisolated var modelContainer: ModelContainer { SharedWriting.container }
    nonisolated var modelExecutor: any ModelExecutor { SharedWriting.executor }

    func addEntry() throws { try SharedWriting.addEntry(in: modelContext) }
}

/// Another kind of writer on the same executor, declared with the conformance in an extension.
actor ImportWriter {
    func importEntry() throws { try SharedWriting.addEntry(in: modelContext) }
}

extension ImportWriter: ModelActor {
    nonisolated var modelContainer: ModelContainer { SharedWriting.container }
    nonisolated var modelExecutor: any ModelExecutor { SharedWriting.executor }
}

extension SharedWriting {
    /// Reads the ledger, waits a little, and saves it one entry longer, counting who is inside:
    /// two writers overlapping here would both be counted, and one's entry lost.
    static func addEntry(in context: ModelContext) throws {
        running.withLock {
            $0.now += 1
            $0.most = max($0.most, $0.now)
        }
        defer { running.withLock { $0.now -= 1 } }
        let ledger =
            try context.fetch(FetchDescriptor<Ledger>()).first
            ?? {
                let ledger = Ledger(name: "shared")
                context.insert(ledger)
                return ledger
            }()
        let entries = ledger.entries
        usleep(50)
        ledger.entries = entries + 1
        try context.save()
    }
}

/// Actors that return one executor as their `modelExecutor` run one at a time on it, on its
/// context, as SwiftData's do.
struct SharedExecutorTests {
    @Test func actorsSharingAnExecutorNeverOverlapAndLoseNoSave() async throws {
        let writers = [EntryWriter(), EntryWriter()]
        let importers = [ImportWriter(), ImportWriter()]
        let rounds = 150
        try await withThrowingTaskGroup(of: Void.self) { group in
            for round in 0..<rounds {
                for writer in writers { group.addTask { try await writer.addEntry() } }
                group.addTask { try await importers[round % 2].importEntry() }
            }
            try await group.waitForAll()
        }
        #expect(SharedWriting.running.withLock { $0.most } == 1)
        let ledgers = try ModelContext(SharedWriting.container).fetch(FetchDescriptor<Ledger>())
        #expect(ledgers.map(\.entries) == [rounds * 3])
    }
}
