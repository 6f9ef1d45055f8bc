import FolioJSON
import Foundation
import Testing

@testable import FolioCore

/// A migration killed (SIGKILL) at random moments: after each kill the store must open,
/// recover, and be exactly as it was before the migration or exactly as the migration
/// leaves it, byte for byte, never a mix.
@Suite(.serialized) struct MigrationCrashTests {
    static let kills = 30
    static let items = 1_500
    static let notes = 500

    /// A store at 1.0.0 with the same bytes every time: `Item`s and `Note`s over 30 days.
    static func makeStore(at root: String) throws {
        let manifest = StoreManifest(
            schemaVersion: "1.0.0", timeZone: utc, schema: ["entities": ["Item": [:], "Note": [:]]])
        let store = try DocumentStore.create(at: root, manifest: manifest, durability: .none)
        let day = Date(timeIntervalSinceReferenceDate: 817_032_600)
        var changes: [DocumentChange] = []
        for n in 0..<(items + notes) {
            let id = UUID(uuidString: String(format: "00000000-0000-4000-8000-%012X", n))!
            let entity = n < items ? "Item" : "Note"
            let content: JSONObject = [
                "$version": "1.0.0", "n": .integer(Int64(n)), "old": .string("value \(n)"), "text": "a line that stays",
            ]
            changes.append(
                .put(
                    Document(
                        entity: entity, id: id, partitionDate: day.addingTimeInterval(Double(n % 30) * 86_400),
                        content: content), basedOn: nil))
        }
        try store.commit(changes)
        try store.close()
    }

    /// Every file of the store but `.folio/`, with its bytes.
    static func snapshot(_ root: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let relative = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            guard !relative.hasPrefix(".folio"),
                FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isFolder),
                !isFolder.boolValue
            else { continue }
            files[relative] = try Data(contentsOf: URL(fileURLWithPath: root + "/" + relative))
        }
        return files
    }

    @Test func aMigrationKilledAtRandomMomentsLeavesTheStoreAsItWasOrFullyMigrated() throws {
        let directory = try TemporaryDirectory()
        // The two states a kill may leave: before, and after a migration run to its end.
        try Self.makeStore(at: directory("reference"))
        let before = try Self.snapshot(directory("reference"))
        let started = Date()
        let finished = try ChildProcess(["migrator", directory("reference"), "none"]).finish()
        let duration = Date().timeIntervalSince(started)
        #expect(finished.status == 0 && finished.output == "migrated\n", "\(finished.errors)")
        let after = try Self.snapshot(directory("reference"))
        #expect(after != before && after.keys.contains { $0.hasPrefix("Memo/") })

        var generator = SystemRandomNumberGenerator()
        var outcomes = (old: 0, migrated: 0)
        var recovered = (finished: 0, discarded: 0)
        for kill in 0..<Self.kills {
            let root = directory("store-\(kill)")
            try Self.makeStore(at: root)
            let durability: Durability = kill % 3 == 0 ? .full : kill % 3 == 1 ? .normal : .none
            let migrator = try ChildProcess(["migrator", root, durability.rawValue])
            usleep(UInt32(Double.random(in: 0...(duration * 1.2), using: &generator) * 1_000_000))
            migrator.kill()

            let store = try DocumentStore.open(at: root, durability: .none)
            #expect(store.issues.isEmpty, "kill \(kill): \(store.issues)")
            recovered.finished += store.statistics.transactionsRecovered
            recovered.discarded += store.statistics.transactionsDiscarded
            #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/.folio/journal").isEmpty)
            let found = try Self.snapshot(root)
            if found == before {
                outcomes.old += 1
            } else if found == after {
                outcomes.migrated += 1
            } else {
                let differing = Set(found.keys).symmetricDifference(after.keys).union(
                    found.keys.filter { after[$0] != nil && after[$0] != found[$0] })
                Issue.record(
                    "kill \(kill): the store is neither as it was nor migrated; \(differing.count) files differ from the migrated state, such as \(differing.sorted().prefix(3))"
                )
            }
        }
        print(
            "migration crash test: \(Self.kills) kills over \(Int(duration * 1_000)) ms runs, \(outcomes.old) left the store as it was, \(outcomes.migrated) fully migrated; "
                + "recovery finished \(recovered.finished) migrations from the journal and discarded \(recovered.discarded)"
        )
        #expect(outcomes.old + outcomes.migrated == Self.kills)
    }
}
