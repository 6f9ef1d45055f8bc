import FolioJSON
import FolioTestSupport
import Foundation
import Testing

@testable import FolioCore
@testable import SeedApps

/// Seed 000's V1 to V2 as data: `category` added with "General", `colorHex` renamed
/// `color`, a `Category` entity; run on a V1 store made by the seed's own models.
struct TimerMigrationTests {
    static let v1 = Schema.Version(1, 0, 0)
    static let v2 = Schema.Version(2, 0, 0)

    static let toV2 = MigrationStep(
        from: v1, to: v2,
        operations: [
            .addProperty(
                entity: "Timer", property: ["name": "category", "type": "String"], value: .constant("General")),
            .renameProperty(entity: "Timer", from: "colorHex", to: "color"),
            .addEntity(name: "Category", description: ["properties": [["name": "name", "type": "String"]]]),
        ])

    /// A V1 store with the seed's sample timers and a to-do each; returns its folder.
    func v1Store(_ folder: TemporaryDirectory) throws -> String {
        let root = folder("Timers")
        let context = ModelContext(
            try ModelContainer(
                for: Timer.self, TodoItem.self, configurations: ModelConfiguration(url: URL(fileURLWithPath: root))))
        for (name, seconds) in [("Workout", 1500), ("Study Session", 2700), ("Coffee Break", 600)] {
            let timer = Timer(name: name, durationInSeconds: seconds)
            context.insert(timer)
            timer.todoItems.append(TodoItem(text: "First for \(name)"))
        }
        try context.save()
        return root
    }

    func documents(_ store: DocumentStore, _ entity: String) -> [JSONObject] {
        store.documents(entity: entity).map(\.content)
    }

    @Test func aDryRunReportsEveryChangeAndWritesNothing() throws {
        let folder = try TemporaryDirectory()
        let root = try v1Store(folder)
        let before = try snapshot(root)
        let store = try DocumentStore.open(at: root)
        let report = try store.migrate([Self.toV2], dryRun: true)
        #expect(!report.applied)
        #expect(report.entities["Timer"] == .init(changed: 3, unchanged: 0, deleted: 0, failed: 0))
        #expect(report.entities["TodoItem"] == .init(changed: 0, unchanged: 3, deleted: 0, failed: 0))
        #expect(report.failures.isEmpty)
        #expect(report.files.count == 4)
        #expect(report.files.first?.path == "folio.json")
        let timer = try #require(report.files.dropFirst().first?.new)
        let text = String(decoding: timer, as: UTF8.self)
        #expect(text.contains("\"$version\": \"2.0.0\""))
        #expect(text.contains("\"color\": \"#007AFF\""))
        #expect(text.contains("\"category\": \"General\""))
        #expect(!text.contains("colorHex"))
        #expect(try snapshot(root) == before)
    }

    @Test func applyingMigratesTheDocumentsAndTheManifestInOneTransaction() throws {
        let folder = try TemporaryDirectory()
        let root = try v1Store(folder)
        let store = try DocumentStore.open(at: root)
        let dry = try store.migrate([Self.toV2], dryRun: true)
        let report = try store.migrate([Self.toV2])
        #expect(report.applied)
        // What the dry run said is what was written, byte for byte.
        for file in dry.files {
            #expect(try Array(Data(contentsOf: URL(fileURLWithPath: root + "/" + file.path))) == file.new)
        }
        let reopened = try DocumentStore.open(at: root)
        #expect(reopened.manifest.schemaVersion == "2.0.0")
        #expect(reopened.manifest.schema["entities"]?["Category"] != nil)
        for timer in documents(reopened, "Timer") {
            #expect(timer["category"] == .string("General"))
            #expect(timer["colorHex"] == nil && timer["color"] != nil)
            #expect(timer.keys.prefix(2) == ["$entity", "$version"])
        }
        // Migrating again changes nothing: every document is at 2.0.0.
        let again = try reopened.migrate([Self.toV2], dryRun: true)
        #expect(again.files.isEmpty)
    }

    @Test func aDocumentThatCannotConvertFailsTheWholeMigrationAndWritesNothing() throws {
        let folder = try TemporaryDirectory()
        let root = try v1Store(folder)
        let before = try snapshot(root)
        let store = try DocumentStore.open(at: root)
        var step = Self.toV2
        step.operations.append(.convertType(entity: "Timer", name: "name", to: .number))
        let dry = try store.migrate([step], dryRun: true)
        #expect(dry.failures.count == 3)
        #expect(dry.failures.first?.reason.contains("is not a number") == true)
        #expect(throws: FolioError.self) { try store.migrate([step]) }
        #expect(try snapshot(root) == before)
    }

    @Test func eachDocumentMigratesFromItsOwnVersionAndNewerOnesAreRefused() throws {
        let folder = try TemporaryDirectory()
        let root = try v1Store(folder)
        let store = try DocumentStore.open(at: root)
        // One timer already at 2.0.0 by hand (a merge from a newer clone): left alone.
        let timers = store.documents(entity: "Timer")
        var ahead = timers[0].content
        ahead["$version"] = "2.0.0"
        ahead.renameMember("colorHex", to: "color")
        ahead["category"] = "Work"
        try store.commit([.put(Document(entity: "Timer", id: timers[0].id, content: ahead), basedOn: timers[0].version)]
        )
        let report = try store.migrate([Self.toV2], dryRun: true)
        #expect(report.entities["Timer"] == .init(changed: 2, unchanged: 1, deleted: 0, failed: 0))

        // One at 3.0.0: newer than the plan, so the migration is refused, naming it.
        var newer = store.documents(entity: "Timer")[1]
        newer.content["$version"] = "3.0.0"
        try store.commit([.put(Document(entity: "Timer", id: newer.id, content: newer.content), basedOn: newer.version)]
        )
        let refused = try store.migrate([Self.toV2], dryRun: true)
        #expect(refused.failures.map(\.path) == [newer.path.relativePath])
        #expect(refused.failures.first?.reason.contains("never downgrades") == true)
    }

    @Test func operationsDeleteSetAndRenameEntities() throws {
        let folder = try TemporaryDirectory()
        let root = try v1Store(folder)
        let store = try DocumentStore.open(at: root)
        let step = MigrationStep(
            from: Self.v1, to: Self.v2,
            operations: [
                .deleteDocuments(
                    entity: "Timer", where: .compare(.property("durationInSeconds"), .less, .value(.integer(1000)))),
                .setValue(
                    entity: "Timer", name: "icon", value: .expression(.property("name")),
                    where: .compare(.property("name"), .equal, .value(.string("Workout")))),
                .removeProperty(entity: "Timer", name: "notes"),
                .renameEntity(from: "TodoItem", to: "Task"),
            ])
        let report = try store.migrate([step])
        #expect(report.entities["Timer"] == .init(changed: 2, unchanged: 0, deleted: 1, failed: 0))
        #expect(report.entities["TodoItem"]?.changed == 3)
        let reopened = try DocumentStore.open(at: root)
        let timers = documents(reopened, "Timer")
        #expect(timers.count == 2)
        #expect(timers.contains { $0["icon"] == "Workout" })
        #expect(timers.allSatisfy { $0["notes"] == nil })
        #expect(documents(reopened, "TodoItem").isEmpty)
        #expect(documents(reopened, "Task").count == 3)
        #expect(documents(reopened, "Task").allSatisfy { $0["$entity"] == "Task" })
        #expect(
            reopened.manifest.schema["entities"]?["Task"] != nil
                && reopened.manifest.schema["entities"]?["TodoItem"] == nil)
    }

    @Test func planFilesReadIntoStepsAndRun() throws {
        let folder = try TemporaryDirectory()
        let root = try v1Store(folder)
        let plan = folder.url.appending(path: "Migrations/TimerApp")
        try FileManager.default.createDirectory(at: plan, withIntermediateDirectories: true)
        try #"""
        {
          "from": "1.0.0",
          "to": "2.0.0",
          "operations": [
            { "op": "addProperty", "entity": "Timer", "property": "category", "type": "String", "default": "General" },
            { "op": "renameProperty", "entity": "Timer", "from": "colorHex", "to": "color" },
            { "op": "addEntity", "entity": "Category", "properties": [{ "name": "name", "type": "String" }] },
            { "op": "setValue", "entity": "Timer", "property": "category", "value": "\"Long \" + name", "where": "durationInSeconds > 2000" }
          ]
        }
        """#.write(to: plan.appending(path: "001-v2.json"), atomically: false, encoding: .utf8)
        let steps = try MigrationStep.plan(in: plan, timeZone: TimeZone(identifier: "UTC")!)
        #expect(steps.count == 1 && steps[0].operations.count == 4)
        let store = try DocumentStore.open(at: root)
        _ = try store.migrate(steps)
        let categories = Set(
            documents(try DocumentStore.open(at: root), "Timer").compactMap { $0["category"]?.stringValue })
        #expect(categories == ["General", "Long Study Session"])

        try #"{ "from": "2.0.0", "to": "3.0.0", "operations": [{ "op": "renameColumn", "entity": "Timer" }] }"#
            .write(to: plan.appending(path: "002-v3.json"), atomically: false, encoding: .utf8)
        #expect(
            throws: FolioError.invalidDocument(
                path: plan.appending(path: "002-v3.json").path + ": operations[0]",
                reason:
                    "\"renameColumn\" is not an operation; the operations are addProperty, removeProperty, renameProperty, renameEntity, addEntity, removeEntity, setValue, deleteDocuments, convertType"
            )
        ) { try MigrationStep.plan(in: plan, timeZone: TimeZone(identifier: "UTC")!) }
    }

    /// Every file under the store but `.folio/`, with its bytes.
    func snapshot(_ root: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let relative = enumerator?.nextObject() as? String {
            guard !relative.hasPrefix(".folio"), let data = FileManager.default.contents(atPath: root + "/" + relative)
            else { continue }
            files[relative] = data
        }
        return files
    }
}
