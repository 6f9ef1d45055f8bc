import FolioTestSupport
import Foundation
import Testing

@testable import FolioCore

/// The catalog's table of entries finds, replaces and removes entries by identity as a
/// dictionary does, through any sequence of changes.
struct CatalogEntriesTests {
    func entry(_ entity: String, _ id: UUID, hash: UInt64) -> Catalog.Entry {
        Catalog.Entry(
            path: DocumentPath(
                validEntity: entity, day: Day(year: 2026, month: 11, day: 26)!, id: id, blobProperty: nil),
            stamp: FileStamp(size: 1, modifiedSeconds: 0, modifiedNanoseconds: 0, inode: 1), contentHash: hash,
            verified: true, content: DocumentContent(parsed: [:]))
    }

    @Test(arguments: 0..<8)
    func randomChangesLeaveTheTableAsADictionaryWouldBe(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var table = CatalogEntries()
        var expected: [PersistentIdentifier: UInt64] = [:]
        // Few identities, so that puts replace and removals find what they remove; two
        // entities that share UUIDs, which must stay apart.
        let ids = (0..<300).map { _ in UUID() }
        let entities = ["Trip", "Stop"]
        for step in 0..<3_000 {
            let identity = PersistentIdentifier(
                entityName: entities[Int(random.next() % 2)], id: ids[Int(random.next() % UInt64(ids.count))])
            switch random.next() % 10 {
            case 0..<6:
                let hash = random.next()
                let added = table.put(entry(identity.entityName, identity.id, hash: hash))
                #expect(added == (expected.updateValue(hash, forKey: identity) == nil), "step \(step)")
            case 6..<9:
                if let position = table.position(of: identity) {
                    table.remove(at: position)
                    #expect(expected.removeValue(forKey: identity) != nil, "step \(step)")
                } else {
                    #expect(expected[identity] == nil, "step \(step)")
                }
            default:
                if random.next() % 20 == 0 {
                    table.removeAll { $0.path.entity == identity.entityName }
                    expected = expected.filter { $0.key.entityName != identity.entityName }
                } else if random.next() % 20 == 0 {
                    table.reserveCapacity(table.count + 500)
                }
            }
            #expect(table.count == expected.count, "step \(step)")
        }
        for entity in entities {
            for id in ids {
                let identity = PersistentIdentifier(entityName: entity, id: id)
                #expect(table.entry(for: identity)?.contentHash == expected[identity])
            }
        }
        #expect(table.values.count == expected.count)
        #expect(Set(table.values.map { PersistentIdentifier($0.path) }) == Set(expected.keys))
    }
}
