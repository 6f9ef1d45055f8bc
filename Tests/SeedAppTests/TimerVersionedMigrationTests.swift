import Folio
import FolioTestSupport
import Foundation
import Testing

@testable import SeedApps

/// Seed 000's versioned schemas: V1 is the app's models as written; V2 is what the seed's
/// "Future Schema Changes" describe (`category` with a default, `colorHex` renamed `color`
/// with `.originalName`, a `Category` entity). The seed names V2's classes `TimerV2` and
/// `TodoItemV2`; SwiftData names an entity after its class, so that would be new entities
/// and the documents of the old ones lost: as the seed surely means, the classes keep their
/// names, nested in the version's enum. V3, the test's own, is V2 plus a custom stage that
/// files every timer under a `Category` document.
enum TimerAppSchema: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [SeedApps.Timer.self, TodoItem.self] }
}

enum TimerAppSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Timer.self, TodoItem.self, Category.self] }

    @Model
    final class Timer {
        @Attribute(.unique) var id: UUID
        var name: String
        var durationInSeconds: Int
        var icon: String
        @Attribute(.originalName("colorHex")) var color: String
        var createdAt: Date
        var updatedAt: Date
        @Relationship(deleteRule: .cascade, inverse: \TodoItem.timer)
        var todoItems: [TodoItem] = []
        var notes: String?
        var category: String = "General"

        init(name: String) {
            id = UUID()
            self.name = name
            durationInSeconds = 60
            icon = "timer"
            color = "#007AFF"
            createdAt = Date()
            updatedAt = Date()
        }
    }

    @Model
    final class TodoItem {
        @Attribute(.unique) var id: UUID
        var text: String
        var isCompleted: Bool
        var sortOrder: Int
        var createdAt: Date
        var updatedAt: Date
        var timer: Timer?

        init(text: String) {
            id = UUID()
            self.text = text
            isCompleted = false
            sortOrder = 0
            createdAt = Date()
            updatedAt = Date()
        }
    }

    @Model
    final class Category {
        @Attribute(.unique) var name: String
        init(name: String) { self.name = name }
    }
}

enum TimerAppSchemaV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { TimerAppSchemaV2.models }
}

enum TimerAppMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] {
        [TimerAppSchema.self, TimerAppSchemaV2.self, TimerAppSchemaV3.self]
    }
    static var stages: [MigrationStage] {
        [
            .lightweight(fromVersion: TimerAppSchema.self, toVersion: TimerAppSchemaV2.self),
            .custom(
                fromVersion: TimerAppSchemaV2.self, toVersion: TimerAppSchemaV3.self,
                willMigrate: { context in
                    // Long timers are study, the rest stay "General"; then a Category for each name used.
                    for timer in try context.fetch(FetchDescriptor<TimerAppSchemaV2.Timer>())
                    where timer.durationInSeconds >= 2700 {
                        timer.category = "Study"
                    }
                    try context.save()
                },
                didMigrate: { context in
                    let names = Set(try context.fetch(FetchDescriptor<TimerAppSchemaV2.Timer>()).map(\.category))
                    for name in names.sorted() { context.insert(TimerAppSchemaV2.Category(name: name)) }
                }),
        ]
    }
}

struct TimerVersionedMigrationTests {
    @Test func aV1StoreGoesThroughTheLightweightAndTheCustomStageWhenItOpens() throws {
        let folder = try TemporaryDirectory()
        let url = folder.url.appending(path: "Timers")
        do {
            let context = ModelContext(
                try ModelContainer(for: TimerAppSchema.schema, configurations: [ModelConfiguration(url: url)]))
            for sample in SeedApps.Timer.sampleData { context.insert(sample) }
            let workout = try #require(
                context.fetch(FetchDescriptor<SeedApps.Timer>(predicate: #Predicate { $0.name == "Workout" })).first)
            workout.todoItems.append(TodoItem(text: "Stretch"))
            try context.save()
        }
        let container = try ModelContainer(
            for: TimerAppSchemaV3.schema, migrationPlan: TimerAppMigrationPlan.self,
            configurations: [ModelConfiguration(url: url)])
        let context = ModelContext(container)
        let timers = try context.fetch(FetchDescriptor<TimerAppSchemaV2.Timer>(sortBy: [SortDescriptor(\.name)]))
        #expect(timers.map(\.name) == SeedApps.Timer.sampleData.map(\.name).sorted())
        #expect(timers.first { $0.name == "Workout" }?.color == "#FF3B30")
        #expect(timers.first { $0.name == "Workout" }?.todoItems.map(\.text) == ["Stretch"])
        #expect(Dictionary(grouping: timers, by: \.category).mapValues(\.count) == ["General": 3, "Study": 1])
        #expect(
            try context.fetch(FetchDescriptor<TimerAppSchemaV2.Category>(sortBy: [SortDescriptor(\.name)])).map(\.name)
                == ["General", "Study"])
        let store = try DocumentStore.open(at: url.path)
        #expect(store.manifest.schemaVersion == "3.0.0")
        // A document records the version that last wrote it: V3 changed no Timer's shape,
        // so they stay as V2 wrote them; the Categories are V3's.
        for document in store.documents(entity: "Timer") {
            #expect(document.content["$version"] == "2.0.0")
            #expect(document.content["colorHex"] == nil)
        }
        #expect(store.documents(entity: "Category").map { $0.content["$version"] } == ["3.0.0", "3.0.0"])
    }
}

/// The plan the `folio` tool runs, `Migrations/TimerApp`, as a stage of the app's own plan.
enum TimerAppFilePlan: SchemaMigrationPlan {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Migrations/TimerApp/001-to-2.0.0.json")
    static var schemas: [any VersionedSchema.Type] { [TimerAppSchema.self, TimerAppSchemaV2.self] }
    static var stages: [MigrationStage] {
        [.file(fromVersion: TimerAppSchema.self, toVersion: TimerAppSchemaV2.self, url: file)]
    }
}

struct TimerFileStageTests {
    @Test func aStageFileFromMigrationsRunsInsideTheAppsPlan() throws {
        let folder = try TemporaryDirectory()
        let url = folder.url.appending(path: "Timers")
        do {
            let context = ModelContext(
                try ModelContainer(for: TimerAppSchema.schema, configurations: [ModelConfiguration(url: url)]))
            for sample in SeedApps.Timer.sampleData { context.insert(sample) }
            try context.save()
        }
        let container = try ModelContainer(
            for: TimerAppSchemaV2.schema, migrationPlan: TimerAppFilePlan.self,
            configurations: [ModelConfiguration(url: url)])
        let timers = try ModelContext(container).fetch(
            FetchDescriptor<TimerAppSchemaV2.Timer>(sortBy: [SortDescriptor(\.name)]))
        #expect(timers.count == 4)
        #expect(timers.allSatisfy { $0.category == "General" })
        #expect(timers.first { $0.name == "Coffee Break" }?.color == "#8E8E93")
        #expect(
            try DocumentStore.open(at: url.path).documents(entity: "Timer").allSatisfy {
                $0.content["$version"] == "2.0.0"
            })
    }
}
