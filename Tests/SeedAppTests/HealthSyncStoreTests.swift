import Folio
import FolioTestSupport
import Foundation
import Testing

@testable import SeedApps

/// Health Sync (seed 003) end to end: the configuration singleton, devices by activity,
/// limit and offset, the four delete rules, soft deletes on disk.
struct HealthSyncStoreTests {
    let schema = Schema([SyncConfiguration.self, PairedDevice.self, AuditEventRecord.self, Playlist.self])

    func container(at folder: TemporaryDirectory) throws -> ModelContainer {
        // The seed's configuration, with the store's folder named.
        let modelConfiguration = ModelConfiguration(
            schema: schema, url: folder.url, isStoredInMemoryOnly: false, durability: .none)
        return try ModelContainer(for: schema, configurations: [modelConfiguration])
    }

    @MainActor func loadConfiguration(_ modelContainer: ModelContainer) throws -> SyncConfiguration {
        // The seed's fetch-or-create, on the main context.
        let context = modelContainer.mainContext
        if let existing = try context.fetch(FetchDescriptor<SyncConfiguration>()).first {
            return existing
        }
        let newConfig = SyncConfiguration()
        context.insert(newConfig)
        try context.save()
        return newConfig
    }

    @Test @MainActor func theConfigurationIsCreatedOnceWithItsDefaults() throws {
        let folder = try TemporaryDirectory()
        let first = try loadConfiguration(try container(at: folder))
        #expect(first.enabledTypes == HealthDataType.allCases)
        first.enabledTypes = [.steps, .sleep]
        try first.modelContext?.save()
        let again = try loadConfiguration(try container(at: folder))
        #expect(again.enabledTypesCSV == "steps,sleep" && again.lastExportAt == nil)
        #expect(again.createdAt == first.createdAt)
    }

    @Test @MainActor func theMainContextSavesByItself() async throws {
        let folder = try TemporaryDirectory()
        let container = try container(at: folder)
        let context = container.mainContext
        #expect(context.autosaveEnabled)
        context.insert(AuditEventRecord(eventType: "launch", timestamp: Date(), detailJSON: "{}"))
        #expect(context.hasChanges)
        // The autosave is a task queued on the main actor: give it turns, not time.
        for _ in 0..<1000 where context.hasChanges { await Task.yield() }
        #expect(!context.hasChanges)
        #expect(context.autosaveError == nil)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<AuditEventRecord>()) == 1)
    }

    @Test func devicesPageAndSortAsTheSeedShows() throws {
        let folder = try TemporaryDirectory()
        let context = ModelContext(try container(at: folder))
        let start = Date(timeIntervalSinceReferenceDate: 817_000_000)
        for index in 0..<25 {
            context.insert(
                PairedDevice(
                    name: "Device \(index)", tokenHash: "hash\(index)",
                    createdAt: start.addingTimeInterval(Double(index)),
                    expiresAt: start.addingTimeInterval(86_400), lastSeenAt: nil, isActive: index % 5 != 0))
        }
        try context.save()
        let active = try context.fetchOnDocuments(
            FetchDescriptor<PairedDevice>(predicate: #Predicate { $0.isActive == true }))
        #expect(active.count == 20)
        let newest = try context.fetch(
            FetchDescriptor<PairedDevice>(sortBy: [SortDescriptor(\.createdAt, order: .reverse)]))
        #expect(newest.first?.name == "Device 24")
        let page = try context.fetch(
            FetchDescriptor<PairedDevice>(sortBy: [SortDescriptor(\.createdAt)], fetchLimit: 10, fetchOffset: 20))
        #expect(page.map(\.name) == (20..<25).map { "Device \($0)" }, "the last page holds what is left")
    }

    @Test func anAuditRecordKeepsItsJSONStringIntact() throws {
        let folder = try TemporaryDirectory()
        let detail = "{\n    \"userId\": \"123\",\n    \"action\": \"login\"\n}"
        do {
            let context = ModelContext(try container(at: folder))
            context.insert(AuditEventRecord(eventType: "login", timestamp: Date(), detailJSON: detail))
            try context.save()
        }
        let context = ModelContext(try container(at: folder))
        #expect(try context.fetch(FetchDescriptor<AuditEventRecord>()).first?.detailJSON == detail)
    }

    @Test func deletingAPlaylistCascadesToItsSongs() throws {
        let context = ModelContext(
            try ModelContainer(for: Playlist.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let playlist = Playlist(name: "Run")
        context.insert(playlist)
        playlist.songs = [Song(name: "One"), Song(name: "Two")]
        try context.save()
        context.delete(playlist)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Song>()) == 0)
    }

    @Test func denyRefusesTheWholeSaveWhileModelsRemain() throws {
        let context = ModelContext(
            try ModelContainer(for: Shelf.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let shelf = Shelf(name: "Kitchen")
        let book = Book(title: "Bread")
        context.insert(shelf)
        book.shelf = shelf
        try context.save()
        context.delete(shelf)
        let error = try #require(throws: FolioError.self) { try context.save() }
        #expect(
            error == .deleteDenied(model: shelf.persistentModelID.description, relationship: "books", relatedCount: 1))
        context.rollback()
        #expect(try context.fetchCount(FetchDescriptor<Shelf>()) == 1)
        book.shelf = nil
        context.delete(shelf)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Shelf>()) == 0)
    }

    @Test func nullifyClearsTheOtherSideAndNoActionLeavesIt() throws {
        let folder = try TemporaryDirectory()
        let container = try ModelContainer(
            for: Author.self, Publisher.self,
            configurations: ModelConfiguration(url: folder.url, durability: .none, deletion: .hard))
        let context = ModelContext(container)
        let author = Author(name: "Ada")
        let publisher = Publisher(name: "Press")
        let book = Book(title: "Notes")
        context.insert(book)
        book.author = author
        book.publisher = publisher
        try context.save()
        context.delete(author)
        context.delete(publisher)
        try context.save()
        #expect(book.author == nil, "nullify removes the deleted author from the book")
        #expect(book.publisher === publisher, "noAction leaves the reference as it was")
        let reread = try #require(try ModelContext(container).fetch(FetchDescriptor<Book>()).first)
        #expect(reread.author == nil && reread.publisher == nil, "a reference to a removed document reads as nil")
    }

    @Test func deletesOnDiskAreSoftByDefault() throws {
        let folder = try TemporaryDirectory()
        let context = ModelContext(try container(at: folder))
        let device = PairedDevice(
            name: "iPhone", tokenHash: "h", createdAt: Date(), expiresAt: Date(), lastSeenAt: nil, isActive: true)
        context.insert(device)
        try context.save()
        context.delete(device)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<PairedDevice>()) == 0)
        var withDeleted = FetchDescriptor<PairedDevice>()
        withDeleted.includeDeleted = true
        #expect(try ModelContext(try container(at: folder)).fetch(withDeleted).map(\.name) == ["iPhone"])
    }
}
