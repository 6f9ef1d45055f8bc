import Foundation
import Testing

@testable import FolioCore

/// What is in a store's journal folder: nothing once every transaction is settled, and no
/// folder at all when a writer was killed before its first transaction began.
func journalsLeft(in store: String) throws -> [String] {
    let journal = store + "/.folio/journal"
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: journal, isDirectory: &isFolder) else { return [] }
    #expect(isFolder.boolValue, "\(journal) is not a folder")
    return try FileManager.default.contentsOfDirectory(atPath: journal)
}

/// A writer killed (SIGKILL) at random moments: after each kill the store must open,
/// recover, and show every transaction entirely or not at all, every document whole.
@Suite(.serialized) struct CrashSafetyTests {
    static let kills = 200

    @Test func writerKilledAtRandomMomentsLeavesEveryTransactionAllOrNothing() throws {
        let directory = try TemporaryDirectory()
        let manifest = StoreManifest(timeZone: utc, schema: ["entities": ["Item": [:], "Counter": [:]]])
        _ = try DocumentStore.create(at: directory("store"), manifest: manifest, durability: .none)
        var generator = SystemRandomNumberGenerator()
        var recovered = (finished: 0, discarded: 0)
        var committed = Int64(0)
        // Kills in a row that found no new transaction: each gives the next writer 0.1 s more,
        // so a loaded machine, slow to start processes, still sees transactions land.
        var stalled: UInt32 = 0
        for kill in 0..<Self.kills {
            let durability: Durability = kill % 10 == 0 ? .full : kill % 10 == 5 ? .normal : .none
            let writer = try ChildProcess(["crash-writer", directory("store"), durability.rawValue, "\(kill + 1)"])
            usleep(UInt32.random(in: 30_000...250_000, using: &generator) + min(stalled, 10) * 100_000)
            writer.kill()

            let store = try DocumentStore.open(at: directory("store"), durability: .none)
            recovered.finished += store.statistics.transactionsRecovered
            recovered.discarded += store.statistics.transactionsDiscarded
            #expect(store.issues.isEmpty, "kill \(kill): \(store.issues)")
            let lastTx: Int64 =
                if case .integer(let value)? = store.document(
                    entity: "Counter", id: UUID(uuidString: "00000000-0000-0000-0000-00000000C0DE")!)?.content["lastTx"]
                { value } else { 0 }
            var byTransaction: [Int64: (count: Int, expected: Int64)] = [:]
            for item in store.documents(entity: "Item") {
                guard case .integer(let tx)? = item.content["tx"], case .integer(let expected)? = item.content["count"]
                else {
                    Issue.record("kill \(kill): item without tx/count: \(item.content)")
                    continue
                }
                byTransaction[tx, default: (0, expected)].count += 1
            }
            for (tx, found) in byTransaction {
                #expect(
                    tx > lastTx - 3 && tx <= lastTx,
                    "kill \(kill): transaction \(tx) visible with the counter at \(lastTx)")
                #expect(
                    Int64(found.count) == found.expected,
                    "kill \(kill): transaction \(tx) has \(found.count) of \(found.expected) documents")
            }
            for tx in max(1, lastTx - 2)...max(1, lastTx) where lastTx > 0 {
                #expect(byTransaction[tx] != nil, "kill \(kill): transaction \(tx) lost")
            }
            #expect(try journalsLeft(in: directory("store")).isEmpty, "kill \(kill)")
            // One history record per transaction that landed, none for one a kill undid, and
            // none of the writer's own changes taken for someone else's.
            let records = try store.history(after: 0).records
            #expect(records.count == Int(lastTx), "kill \(kill): \(records.count) records for \(lastTx) transactions")
            #expect(
                records.last.map { $0.token == lastTx } ?? (lastTx == 0),
                "kill \(kill): the last record is not the last transaction's")
            #expect(
                !records.contains { $0.author == HistoryRecord.externalAuthor },
                "kill \(kill): an own change recorded as external: \(records.filter { $0.author == HistoryRecord.externalAuthor }.map { ($0.token, $0.changes.prefix(3).map { ($0.kind, $0.path) }) })"
            )
            stalled = lastTx > committed ? 0 : stalled + 1
            committed = lastTx
        }
        print(
            "crash test: \(Self.kills) kills, \(committed) transactions committed, \(recovered.finished) finished from the journal and \(recovered.discarded) discarded on recovery"
        )
        // What the test is for is above; this says only that it was not vacuous. How far the
        // writer got depends on the machine's load, which is no fault.
        #expect(committed > 0, "no transaction landed, so nothing was checked")
        #expect(recovered.finished + recovered.discarded > 0, "some kills landed inside a transaction")
    }
}

/// An importer killed at random moments: each import, which stages its files before it
/// has a plan, is there whole or not at all, with its history record, and leaves nothing behind.
@Suite(.serialized) struct ImportCrashTests {
    @Test func importsKilledAtRandomMomentsAreAllOrNothing() throws {
        let directory = try TemporaryDirectory()
        let manifest = StoreManifest(timeZone: utc, schema: ["entities": ["Item": [:]]])
        _ = try DocumentStore.create(at: directory("store"), manifest: manifest, durability: .none)
        var generator = SystemRandomNumberGenerator()
        var last = Int64(0)
        var recovered = (finished: 0, discarded: 0)
        // Kills in a row that found no new import: each gives the next writer 0.1 s more, so
        // a machine slow to start processes (the whole suite running) still sees imports land.
        var stalled: UInt32 = 0
        for kill in 0..<60 {
            let durability: Durability = kill % 4 == 0 ? .full : kill % 4 == 1 ? .normal : .none
            let writer = try ChildProcess(["import-writer", directory("store"), durability.rawValue, "\(kill + 1)"])
            usleep(UInt32.random(in: 30_000...300_000, using: &generator) + min(stalled, 10) * 100_000)
            writer.kill()

            let store = try DocumentStore.open(at: directory("store"), durability: .none)
            recovered.finished += store.statistics.transactionsRecovered
            recovered.discarded += store.statistics.transactionsDiscarded
            #expect(store.issues.isEmpty, "kill \(kill): \(store.issues)")
            var byImport: [Int64: (count: Int, expected: Int64, updated: Set<Int64>)] = [:]
            for item in store.documents(entity: "Item") {
                guard case .integer(let tx)? = item.content["tx"], case .integer(let expected)? = item.content["count"]
                else {
                    Issue.record("kill \(kill): item without tx/count: \(item.content)")
                    continue
                }
                let updated: Int64 = if case .integer(let value)? = item.content["updated"] { value } else { 0 }
                byImport[tx, default: (0, expected, [])].count += 1
                byImport[tx]!.updated.insert(updated)
            }
            let lastTx = byImport.keys.max() ?? 0
            #expect(
                Set(byImport.keys) == Set((0...lastTx).dropFirst()), "kill \(kill): imports \(byImport.keys.sorted())")
            for (tx, found) in byImport {
                #expect(
                    Int64(found.count) == found.expected,
                    "kill \(kill): import \(tx) has \(found.count) of \(found.expected)")
                // Import T set "updated" on all of T-1's documents, or on none.
                #expect(
                    found.updated == [tx == lastTx ? 0 : tx + 1],
                    "kill \(kill): import \(tx) updated by \(found.updated)")
            }
            #expect(try journalsLeft(in: directory("store")).isEmpty, "kill \(kill)")
            let records = try store.history(after: 0).records
            #expect(
                records.count == Int(lastTx), "kill \(kill): \(records.count) history records for \(lastTx) imports")
            #expect(
                !records.contains { $0.author == HistoryRecord.externalAuthor },
                "kill \(kill): an import taken for someone else's change")
            stalled = lastTx > last ? 0 : stalled + 1
            last = lastTx
        }
        print(
            "import crash test: 60 kills, \(last) imports, \(recovered.finished) finished from the journal and \(recovered.discarded) discarded with a plan"
        )
        #expect(last > 0, "no import landed, so nothing was checked")
        // What a kill left staged is swept by the next commit, which walks the folders it writes.
        let store = try DocumentStore.open(at: directory("store"), durability: .none)
        try store.commit([
            .put(
                Document(entity: "Item", id: UUID(), content: ["tx": .integer(-1), "count": .integer(1)]), basedOn: nil)
        ])
        let staged = (FileManager.default.enumerator(atPath: directory("store"))?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".staged") }
        #expect(staged.isEmpty, "\(staged.prefix(5))")
    }
}

/// A writer of one document at a time, which commits without a journal, killed at
/// random moments: the document is always whole, old or new, and the count goes on.
@Suite(.serialized) struct SingleDocumentCrashTests {
    @Test func oneDocumentSavesKilledAtRandomMomentsLeaveTheDocumentWhole() throws {
        let directory = try TemporaryDirectory()
        let manifest = StoreManifest(timeZone: utc, schema: ["entities": ["Item": [:]]])
        _ = try DocumentStore.create(at: directory("store"), manifest: manifest, durability: .none)
        var generator = SystemRandomNumberGenerator()
        var last = Int64(0)
        var stalled: UInt32 = 0  // as in the tests above
        for kill in 0..<40 {
            let durability: Durability = kill % 4 == 0 ? .full : kill % 4 == 1 ? .normal : .none
            let writer = try ChildProcess(["single-writer", directory("store"), durability.rawValue, "\(kill + 1)"])
            usleep(UInt32.random(in: 30_000...150_000, using: &generator) + min(stalled, 10) * 100_000)
            writer.kill()

            let store = try DocumentStore.open(at: directory("store"), durability: .none)
            #expect(store.issues.isEmpty, "kill \(kill): \(store.issues)")
            guard
                let item = store.document(entity: "Item", id: UUID(uuidString: "00000000-0000-0000-0000-0000000051E6")!)
            else { continue }
            guard case .integer(let n)? = item.content["n"], case .integer(let size)? = item.content["size"],
                case .string(let text)? = item.content["text"]
            else {
                Issue.record("kill \(kill): the document lost members: \(item.content.keys)")
                continue
            }
            #expect(text.utf8.count == Int(size), "kill \(kill): the document is torn")
            #expect(n >= last, "kill \(kill): the count went back from \(last) to \(n)")
            // Each save that landed has its record, and a save a kill undid has none.
            let records = try store.history(after: 0).records
            #expect(records.count == Int(n), "kill \(kill): \(records.count) history records for \(n) saves")
            #expect(
                records.last?.changes.first?.contentHash == item.version.contentHash,
                "kill \(kill): the last record is not the document's")
            stalled = n > last ? 0 : stalled + 1
            last = n
        }
        #expect(last > 0, "no save landed, so nothing was checked")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory("store/.folio/journal")).isEmpty)
    }
}

/// Two writers and a reader in three processes on one store.
struct ConcurrentProcessTests {
    @Test func twoWritersAndAReaderLoseNoUpdateAndNeverSeeHalfATransaction() throws {
        let directory = try TemporaryDirectory()
        let manifest = StoreManifest(timeZone: utc, schema: ["entities": ["Counter": [:], "Pair": [:]]])
        _ = try DocumentStore.create(at: directory("store"), manifest: manifest, durability: .none)
        let stopFile = directory("stop")
        let reader = try ChildProcess(["reader", directory("store"), stopFile])
        let writers = try ["one", "two"].map { try ChildProcess(["counter-writer", directory("store"), $0, "1000"]) }
        let results = writers.map { $0.finish() }
        try write("stop", to: stopFile)
        let read = reader.finish()

        for result in results { #expect(result.status == 0, "\(result.errors)") }
        #expect(read.status == 0, "\(read.errors)")
        let store = try DocumentStore.open(at: directory("store"))
        let counter = store.documents(entity: "Counter").first?.content["value"]
        #expect(counter == 2000, "no lost update: 2 x 1,000 increments")
        print(
            "concurrency test: counter \(counter ?? nil), writers: \(results.map { $0.output.trimmingCharacters(in: .whitespacesAndNewlines) }), reader: \(read.output.trimmingCharacters(in: .whitespacesAndNewlines))"
        )
        #expect(read.output.hasPrefix("checks "))
    }
}
