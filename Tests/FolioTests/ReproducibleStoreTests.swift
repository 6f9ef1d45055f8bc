import Folio
import Foundation
import Synchronization
import Testing

/// A model without an `id` of its own: Folio names its documents.
@Model
final class Reading {
    var takenAt: Date
    var value: Double

    init(takenAt: Date, value: Double) {
        self.takenAt = takenAt
        self.value = value
    }
}

/// A model with its own `id`, which names its documents whatever the identity source says.
@Model
final class Probe {
    var id: UUID
    var installedAt: Date

    init(id: UUID, installedAt: Date) {
        self.id = id
        self.installedAt = installedAt
    }
}

/// Folio's two settings for stores that come out the same on every machine and every
/// run: the store's time zone on the configuration, and a source for the identities
/// Folio assigns.
struct ReproducibleStoreTests {
    /// Identities 00000000-0000-4000-8000-000000000001, …02, … in turn.
    final class Counter: Sendable {
        private let count = Mutex(0)

        func next() -> UUID {
            count.withLock { count in
                count += 1
                return UUID(uuidString: String(format: "00000000-0000-4000-8000-%012X", count))!
            }
        }
    }

    func relativeFiles(under root: String, entity: String) throws -> [String] {
        let enumerator = try #require(FileManager.default.enumerator(atPath: root + "/" + entity))
        return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".json") }.sorted()
    }

    @Test func aConfiguredTimeZoneIsRecordedInTheManifestAndNamesTheDayFolders() throws {
        let folder = try TemporaryDirectory()
        let auckland = try #require(TimeZone(identifier: "Pacific/Auckland"))
        let configuration = ModelConfiguration(url: folder.url, durability: .none, timeZone: auckland)
        let context = ModelContext(try ModelContainer(for: Reading.self, configurations: configuration))
        // 2026-11-22 at 12:00 UTC is already the 23rd in Auckland (UTC+13 in summer).
        context.insert(Reading(takenAt: november22(hour: 12), value: 1))
        try context.save()
        #expect(try DocumentStore.open(at: folder.path).manifest.timeZone == auckland)
        let files = try relativeFiles(under: folder.path, entity: "Reading")
        #expect(files.count == 1 && files[0].hasPrefix("2026/11/23/"))
    }

    @Test func aStoreKeepsTheTimeZoneItWasCreatedWith() throws {
        let folder = try TemporaryDirectory()
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        _ = try ModelContainer(
            for: Reading.self, configurations: ModelConfiguration(url: folder.url, durability: .none, timeZone: tokyo))
        let reopened = ModelConfiguration(url: folder.url, durability: .none, timeZone: utc)
        _ = try ModelContainer(for: Reading.self, configurations: reopened)
        #expect(try DocumentStore.open(at: folder.path).manifest.timeZone == tokyo)
    }

    @Test func withoutATimeZoneANewStoreTakesTheMachines() throws {
        let folder = try TemporaryDirectory()
        #expect(ModelConfiguration(url: folder.url).timeZone == nil)
        _ = try ModelContainer(
            for: Reading.self, configurations: ModelConfiguration(url: folder.url, durability: .none))
        #expect(try DocumentStore.open(at: folder.path).manifest.timeZone == TimeZone.current)
    }

    @Test func anIdentitySourceNamesTheDocumentsOfModelsWithoutAnIdOfTheirOwn() throws {
        let folder = try TemporaryDirectory()
        let configuration = ModelConfiguration(url: folder.url, durability: .none, timeZone: utc)
        let context = ModelContext(try ModelContainer(for: Reading.self, configurations: configuration))
        let counter = Counter()
        let readings = [Reading(takenAt: november22(), value: 1), Reading(takenAt: november22(), value: 2)]
        try AssignedIdentity.$source.withValue({ counter.next() }) {
            for reading in readings { context.insert(reading) }
            try context.save()
        }
        #expect(
            readings.map(\.persistentModelID.id.uuidString) == [
                "00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002",
            ])
        #expect(
            try relativeFiles(under: folder.path, entity: "Reading") == [
                "2026/11/22/00000000-0000-4000-8000-000000000001.json",
                "2026/11/22/00000000-0000-4000-8000-000000000002.json",
            ])
        let text = try String(
            contentsOfFile: folder.path + "/Reading/2026/11/22/00000000-0000-4000-8000-000000000001.json",
            encoding: .utf8)
        #expect(text.contains("\"$id\": \"00000000-0000-4000-8000-000000000001\""))
    }

    @Test func outsideTheSourcesScopeIdentitiesAreRandomAgain() throws {
        let counter = Counter()
        let inside = AssignedIdentity.$source.withValue({ counter.next() }) {
            Reading(takenAt: november22(), value: 1).persistentModelID.id
        }
        let outside = [Reading(takenAt: november22(), value: 2), Reading(takenAt: november22(), value: 3)].map(
            \.persistentModelID.id)
        #expect(inside.uuidString == "00000000-0000-4000-8000-000000000001")
        #expect(outside[0] != outside[1] && !outside.contains(inside))
        #expect(AssignedIdentity.source == nil)
    }

    @Test func aModelWithItsOwnIdKeepsItAndLeavesTheSourceUnasked() throws {
        let counter = Counter()
        let own = UUID()
        let probe = AssignedIdentity.$source.withValue({ counter.next() }) {
            Probe(id: own, installedAt: november22()).persistentModelID.id
        }
        #expect(probe == own)
        #expect(counter.next().uuidString == "00000000-0000-4000-8000-000000000001", "the source was not asked")
    }
}
