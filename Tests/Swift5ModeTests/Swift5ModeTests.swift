// The seeds' models, the same files SeedAppTests uses (linked from Tests/SeedApps),
// compiled in the Swift 5 language mode with warnings as errors: apps that have not moved
// to Swift 6 get no warnings from the code `@Model` generates.
import Folio
import Foundation
import Testing

struct Swift5ModeTests {
    @Test func seedModelsWorkInTheSwift5LanguageMode() throws {
        let context = ModelContext(
            try ModelContainer(
                for: Athlete.self, Timer.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let athlete = Athlete(name: "Ada", email: "ada@example.com")
        context.insert(athlete)
        athlete.sessions.append(RowingSession(athleteID: athlete.id, pm5DeviceID: "PM5"))
        try context.save()
        #expect(try context.fetch(FetchDescriptor<RowingSession>()).first?.athlete === athlete)
    }
}

/// Seed 000's versioned schema, as it writes it (`static var versionIdentifier`).
enum TimerAppSchema: VersionedSchema {
    static var versionIdentifier = Schema.Version(1, 0, 0)

    static var models: [any PersistentModel.Type] {
        [Timer.self, TodoItem.self]
    }
}

struct VersionedSchemaSwift5Tests {
    @Test func theSeedsVersionedSchemaCompilesAndNamesItsSchema() {
        #expect(TimerAppSchema.schema.version == Schema.Version(1, 0, 0))
        #expect(TimerAppSchema.schema.entities.map(\.name).sorted() == ["Timer", "TodoItem"])
    }
}

/// Seed 003's versioned schema and plan, as it writes them, but for two lines SwiftData
/// would refuse too: `Schema(versionIdentifier)` names no initializer (the nearest is
/// `Schema(versionedSchema:)`), and `static var migrationPlan: some SchemaMigrationPlan
/// { HealthSyncMigrationPlan.self }` returns a metatype, which conforms to nothing.
enum HealthSyncSchema: VersionedSchema {
    static var versionIdentifier = Schema.Version(1, 0, 0)

    static var models: [any PersistentModel.Type] {
        [SyncConfiguration.self, PairedDevice.self, AuditEventRecord.self]
    }

    static var schema: Schema {
        Schema(versionedSchema: HealthSyncSchema.self)
    }
}

enum HealthSyncMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] {
        [HealthSyncSchema.self]
    }

    static var stages: [MigrationStage] {
        []
    }
}

struct HealthSyncPlanSwift5Tests {
    @Test func theSeedsPlanWithoutStagesOpensAStoreAtItsVersion() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "folio-healthsync-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let container = try ModelContainer(
            for: HealthSyncSchema.schema, migrationPlan: HealthSyncMigrationPlan.self,
            configurations: ModelConfiguration(url: folder))
        let context = ModelContext(container)
        context.insert(SyncConfiguration())
        try context.save()
        #expect(HealthSyncSchema.schema.version == Schema.Version(1, 0, 0))
        #expect(
            container.schema.entities.map(\.name).sorted() == ["AuditEventRecord", "PairedDevice", "SyncConfiguration"])
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<SyncConfiguration>()) == 1)
    }
}
