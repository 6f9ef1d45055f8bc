import Folio
// Child processes for the store's crash and concurrency tests (see FolioTests).
//
//   StoreWorkload crash-writer STORE DURABILITY SEED
//       commits transactions forever until killed: transaction T creates 1 to 1,000
//       `Item` documents tagged {"tx": T, "count": k}, deletes those of T-3, and sets
//       the `Counter` document to {"lastTx": T}.
//   StoreWorkload import-writer STORE DURABILITY SEED
//       imports forever until killed: import T writes 1 to 1,000 new `Item` documents
//       tagged {"tx": T, "count": k} and sets {"updated": T} on every one of import T-1's.
//   StoreWorkload single-writer STORE DURABILITY SEED
//       saves one `Item` document over and over until killed, each time alone in its
//       transaction (so without a journal): {"n": N, "size": S, "text": S times "x"},
//       with S between 1 and 200,000 so that some writes take a while.
//   StoreWorkload counter-writer STORE NAME COUNT
//       COUNT times: increments the shared counter and writes the pair documents
//       `<NAME>-a` and `<NAME>-b` with the same sequence number, in one transaction,
//       retrying on conflicts.
//   StoreWorkload reader STORE STOPFILE
//       refreshes in a loop until STOPFILE exists, checking that no pair is ever seen
//       half-written and that the counter never goes backwards; prints the count of checks.
//   StoreWorkload inserter STORE TAG COUNT
//       COUNT transactions of three new `Pebble` documents {"batch": TAG, "index": i,
//       "note": ...}, each through a fresh read of the store, as another app would.
//   StoreWorkload session-inserter STORE COUNT
//       COUNT saves of one new `FocusSession` each, through the model layer, by author
//       "other-app" (FocusSession.swift).
//   StoreWorkload migrator STORE DURABILITY
//       migrates the store from 1.0.0 to 2.0.0 in one transaction (`Item`: `old` renamed
//       `new`, `added` added, the documents with an odd `n` deleted; `Note` renamed `Memo`,
//       so its documents move) and prints "migrated".
//   StoreWorkload check STORE
//       checks the store; prints its errors' count and the peak memory (StoreCheck.swift).
//   StoreWorkload container-churn STORE COUNT
//       uses COUNT containers in turn (main context, a ResultsObserver, a model actor) and
//       lets each go; prints the threads and descriptors held before and after
//       (ContainerChurn.swift).
//   StoreWorkload remove-watched STORE
//       saves through a watching container, removes the store's folder and waits half a
//       second; the container's logs go to stderr (ContainerChurn.swift).
import Foundation

let counterID = UUID(uuidString: "00000000-0000-0000-0000-00000000C0DE")!
let day = Date(timeIntervalSinceReferenceDate: 817_032_600)

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

/// A deterministic identity for a named document, so processes agree on it.
func pairID(_ name: String) -> UUID {
    var bytes = [UInt8](repeating: 0, count: 16)
    for (index, byte) in name.utf8.enumerated() { bytes[index % 16] ^= byte &+ UInt8(index) }
    return UUID(
        uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], 0x40, 0x80, bytes[9], bytes[10],
            bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        ))
}

/// Numbers from a seed, the same in every run of a test (a linear congruential generator).
struct SeededNumbers {
    var state: UInt64

    /// A number in `0..<bound`.
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
}

/// The identity of the one document `single-writer` saves.
let singleID = UUID(uuidString: "00000000-0000-0000-0000-0000000051E6")!

func singleWriter(store path: String, durability: Durability, seed: UInt64) throws {
    let store = try DocumentStore.open(at: path, durability: durability)
    var numbers = SeededNumbers(state: seed)
    while true {
        let size = numbers.next(200_000) + 1
        let current = store.document(entity: "Item", id: singleID)
        let n: Int64 = if case .integer(let value)? = current?.content["n"] { value + 1 } else { 1 }
        let document = Document(
            entity: "Item", id: singleID, partitionDate: day,
            content: [
                "n": .integer(n), "size": .integer(Int64(size)), "text": .string(String(repeating: "x", count: size)),
            ])
        try store.commit([.put(document, basedOn: current?.version)])
    }
}

func crashWriter(store path: String, durability: Durability, seed: UInt64) throws {
    // A low limit on open files: a transaction keeps a quarter of it in folders open from
    // staging to applying, so the larger transactions (30 day folders) open the rest again.
    var openFiles = rlimit()
    getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &openFiles)
    openFiles.rlim_cur = min(openFiles.rlim_cur, 64)
    guard setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &openFiles) == 0 else { fail("setrlimit: \(errno)") }
    let store = try DocumentStore.open(at: path, durability: durability)
    var numbers = SeededNumbers(state: seed)
    func next(_ bound: Int) -> Int { numbers.next(bound) }
    while true {
        let counter = store.document(entity: "Counter", id: counterID)
        let lastTx: Int64 = if case .integer(let value)? = counter?.content["lastTx"] { value } else { 0 }
        let tx = lastTx + 1
        let size =
            switch next(20) {
            case 0: 200 + next(801)
            case 1...5: 20 + next(180)
            default: 1 + next(20)
            }
        var changes: [DocumentChange] = (0..<size).map { index in
            .put(
                Document(
                    entity: "Item", id: UUID(), partitionDate: day.addingTimeInterval(Double(next(30)) * 86_400),
                    content: ["tx": .integer(tx), "count": .integer(Int64(size)), "index": .integer(Int64(index))]),
                basedOn: nil)
        }
        for old in store.documents(entity: "Item") where old.content["tx"] == .integer(tx - 3) {
            changes.append(.delete(old.version))
        }
        changes.append(
            .put(
                Document(entity: "Counter", id: counterID, partitionDate: day, content: ["lastTx": .integer(tx)]),
                basedOn: counter?.version))
        try store.commit(changes)
    }
}

func importWriter(store path: String, durability: Durability, seed: UInt64) throws {
    let store = try DocumentStore.open(at: path, durability: durability)
    var numbers = SeededNumbers(state: seed)
    func next(_ bound: Int) -> Int { numbers.next(bound) }
    while true {
        let items = store.documents(entity: "Item")
        let lastTx =
            items.compactMap { item -> Int64? in
                if case .integer(let tx)? = item.content["tx"] { tx } else { nil }
            }.max() ?? 0
        let tx = lastTx + 1
        let size = next(4) == 0 ? 1 + next(1_000) : 1 + next(100)
        var updates = items.filter { $0.content["tx"] == .integer(lastTx) }.makeIterator()
        var index = 0
        try store.importDocuments(into: "Item") { () throws(FolioError) -> DocumentStore.ImportedDocument? in
            if let old = updates.next() {
                var content = old.content
                content["updated"] = .integer(tx)
                return (
                    Document(entity: "Item", id: old.version.path.id, partitionDate: day, content: content), old.version
                )
            }
            guard index < size else { return nil }
            index += 1
            return (
                Document(
                    entity: "Item", id: UUID(), partitionDate: day.addingTimeInterval(Double(next(30)) * 86_400),
                    content: ["tx": .integer(tx), "count": .integer(Int64(size))]),
                nil
            )
        }
    }
}

func counterWriter(store path: String, name: String, count: Int) throws {
    let store = try DocumentStore.open(at: path, durability: .none)
    let a = pairID(name + "-a")
    let b = pairID(name + "-b")
    var sequence = 1
    var conflicts = 0
    while sequence <= count {
        try store.refresh()
        let counter = store.document(entity: "Counter", id: counterID)
        let value: Int64 = if case .integer(let v)? = counter?.content["value"] { v } else { 0 }
        let pair = { (id: UUID) -> DocumentChange in
            .put(
                Document(
                    entity: "Pair", id: id, partitionDate: day,
                    content: ["writer": .string(name), "seq": .integer(Int64(sequence))]),
                basedOn: store.document(entity: "Pair", id: id)?.version)
        }
        do {
            try store.commit([
                .put(
                    Document(
                        entity: "Counter", id: counterID, partitionDate: day, content: ["value": .integer(value + 1)]),
                    basedOn: counter?.version),
                pair(a), pair(b),
            ])
            sequence += 1
        } catch FolioError.Kind.conflict {
            conflicts += 1  // another writer got there first: read again and retry
        } catch {
            // Rethrown here, not left to the function: Swift 6.3.1's compiler crashes on a
            // `catch` pattern of a typed throw that lets other errors through, in a loop.
            throw error
        }
    }
    print("conflicts \(conflicts)")
}

func reader(store path: String, stopFile: String) throws {
    let store = try DocumentStore.open(at: path, durability: .none)
    var checks = 0
    var lastValue: Int64 = 0
    while !FileManager.default.fileExists(atPath: stopFile) {
        try store.refresh()
        if !store.issues.isEmpty { fail("reader saw unusable files: \(store.issues)") }
        for pair in Dictionary(
            grouping: store.documents(entity: "Pair"), by: { $0.content["writer"]?.stringValue ?? "?" }
        ).values {
            guard pair.count == 2 else { continue }  // the writer's first transaction is not in yet
            if pair[0].content["seq"] != pair[1].content["seq"] {
                fail("half a transaction: \(pair[0].content) vs \(pair[1].content)")
            }
        }
        if case .integer(let value)? = store.document(entity: "Counter", id: counterID)?.content["value"] {
            if value < lastValue { fail("counter went back from \(lastValue) to \(value)") }
            lastValue = value
        }
        checks += 1
    }
    print("checks \(checks)")
}

func inserter(store path: String, tag: Int, count: Int) throws {
    let store = try DocumentStore.open(at: path, durability: .none)
    for save in 0..<count {
        let changes: [DocumentChange] = (0..<3).map { index in
            .put(
                Document(
                    entity: "Pebble", id: UUID(), partitionDate: day,
                    content: [
                        "batch": .integer(Int64(tag)), "index": .integer(Int64(save * 3 + index)),
                        "note": .string("from another process"),
                    ]),
                basedOn: nil)
        }
        try store.commit(changes)
    }
    print("inserted \(count * 3)")
}

/// The migration the crash tests kill: every document of the store rewritten, moved or deleted.
let migrationToV2 = MigrationStep(
    from: Schema.Version(1, 0, 0), to: Schema.Version(2, 0, 0),
    operations: [
        .renameProperty(entity: "Item", from: "old", to: "new"),
        .addProperty(entity: "Item", property: ["name": "added", "type": "String"], value: .constant("yes")),
        .deleteDocuments(
            entity: "Item",
            where: .compare(.arithmetic(.property("n"), .remainder, .value(.integer(2))), .equal, .value(.integer(1)))),
        .renameEntity(from: "Note", to: "Memo"),
    ])

func migrator(store path: String, durability: Durability) throws {
    let report = try DocumentStore.open(at: path, durability: durability).migrate([migrationToV2])
    guard report.applied else { fail("the migration was not applied") }
    print("migrated")
}

let arguments = CommandLine.arguments
do {
    switch arguments.dropFirst().first {
    case "crash-writer" where arguments.count == 5:
        try crashWriter(
            store: arguments[2], durability: Durability(rawValue: arguments[3]) ?? .none,
            seed: UInt64(arguments[4]) ?? 1)
    case "import-writer" where arguments.count == 5:
        try importWriter(
            store: arguments[2], durability: Durability(rawValue: arguments[3]) ?? .none,
            seed: UInt64(arguments[4]) ?? 1)
    case "single-writer" where arguments.count == 5:
        try singleWriter(
            store: arguments[2], durability: Durability(rawValue: arguments[3]) ?? .none,
            seed: UInt64(arguments[4]) ?? 1)
    case "counter-writer" where arguments.count == 5:
        try counterWriter(store: arguments[2], name: arguments[3], count: Int(arguments[4]) ?? 1)
    case "reader" where arguments.count == 4:
        try reader(store: arguments[2], stopFile: arguments[3])
    case "inserter" where arguments.count == 5:
        try inserter(store: arguments[2], tag: Int(arguments[3])!, count: Int(arguments[4])!)
    case "session-inserter" where arguments.count == 4:
        try sessionInserter(store: arguments[2], count: Int(arguments[3])!)
    case "migrator" where arguments.count == 4:
        try migrator(store: arguments[2], durability: Durability(rawValue: arguments[3]) ?? .none)
    case "check" where arguments.count == 3:
        try checkStore(at: arguments[2])
    case "remove-watched" where arguments.count == 3:
        try await removeWatchedStore(at: arguments[2])
    case "container-churn" where arguments.count == 4:
        try await containerChurn(store: arguments[2], count: Int(arguments[3])!)
    default:
        fail(
            "usage: StoreWorkload crash-writer STORE DURABILITY SEED | import-writer STORE DURABILITY SEED | single-writer STORE DURABILITY SEED | counter-writer STORE NAME COUNT | reader STORE STOPFILE | inserter STORE TAG COUNT | session-inserter STORE COUNT | migrator STORE DURABILITY | check STORE | container-churn STORE COUNT | remove-watched STORE"
        )
    }
} catch {
    fail("\(error)")
}
