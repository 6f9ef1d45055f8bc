@testable import Folio
import Foundation
import Testing

/// A tag identified by its name: `#Unique` on a property that is not an `id`.
@Model
final class Label {
    #Unique<Label>([\.name])
    var name: String
    var color: String

    init(name: String, color: String) {
        self.name = name
        self.color = color
    }
}

/// Models nested in a namespace, as `VersionedSchema` enums hold them.
enum ArchiveV1 {
    @Model
    final class Box {
        var label: String
        @Relationship(deleteRule: .cascade, inverse: \Item.box) var items: [Item] = []
        init(label: String) { self.label = label }
    }

    @Model
    final class Item {
        var name: String
        var box: Box?
        init(name: String) { self.name = name }
    }
}

/// The context's bookkeeping and SwiftData's semantics where the seeds do not reach.
struct ModelContextTests {
    func inMemory() throws -> ModelContext {
        ModelContext(try ModelContainer(for: Label.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
    }

    @Test func insertingAModelWithAUniqueValueUpdatesTheStoredOne() throws {
        let folder = try TemporaryDirectory()
        let container = try ModelContainer(for: Label.self, configurations: ModelConfiguration(url: folder.url, durability: .none))
        let first = ModelContext(container)
        let original = Label(name: "urgent", color: "red")
        first.insert(original)
        try first.save()

        let second = ModelContext(container)
        let replacement = Label(name: "urgent", color: "orange")
        second.insert(replacement)
        try second.save()
        #expect(replacement.persistentModelID == original.persistentModelID, "the new model takes over the stored identity")
        let labels = try ModelContext(container).fetch(FetchDescriptor<Label>())
        #expect(labels.map(\.color) == ["orange"])
    }

    @Test func pendingChangesCountUnlessTheDescriptorSaysOtherwise() throws {
        let context = try inMemory()
        let saved = Label(name: "saved", color: "blue")
        context.insert(saved)
        try context.save()
        context.insert(Label(name: "new", color: "green"))
        context.delete(saved)
        #expect(try context.fetch(FetchDescriptor<Label>()).map(\.name) == ["new"])
        var storedOnly = FetchDescriptor<Label>()
        storedOnly.includePendingChanges = false
        #expect(try context.fetch(storedOnly).map(\.name) == ["saved"])
        // Counting without a predicate reads no models, and agrees.
        #expect(try context.fetchCount(FetchDescriptor<Label>()) == 1 && context.fetchCount(storedOnly) == 1)
        #expect(try context.fetchCount(FetchDescriptor<Label>(fetchLimit: 0)) == 0)
    }

    @Test func theContextListsWhatTheNextSaveWillWrite() throws {
        let context = try inMemory()
        let kept = Label(name: "kept", color: "blue")
        let gone = Label(name: "gone", color: "grey")
        context.insert(kept)
        context.insert(gone)
        try context.save()
        kept.color = "navy"
        context.delete(gone)
        let added = Label(name: "added", color: "green")
        context.insert(added)
        #expect(context.insertedModelsArray.map { $0 as? Label } == [added])
        #expect(context.changedModelsArray.map { $0 as? Label } == [kept])
        #expect(context.deletedModelsArray.map { $0 as? Label } == [gone])
        #expect(gone.isDeleted && !kept.isDeleted)
        try context.save()
        #expect(context.insertedModelsArray.isEmpty && context.changedModelsArray.isEmpty && context.deletedModelsArray.isEmpty)
    }

    @Test func aTransactionThatThrowsLeavesNothingBehind() throws {
        struct Abandoned: Error {}
        let context = try inMemory()
        #expect(throws: Abandoned.self) {
            try context.transaction {
                context.insert(Label(name: "half", color: "white"))
                throw Abandoned()
            }
        }
        #expect(!context.hasChanges)
        try context.transaction { context.insert(Label(name: "whole", color: "black")) }
        #expect(try context.fetch(FetchDescriptor<Label>()).map(\.name) == ["whole"])
    }

    @Test func identifiersCrossTasksAndComeBackAsTheSameModel() throws {
        let context = try inMemory()
        let label = Label(name: "shared", color: "teal")
        context.insert(label)
        try context.save()
        let identifiers = try context.fetchIdentifiers(FetchDescriptor<Label>())
        #expect(identifiers == [label.persistentModelID])
        #expect(context.model(for: identifiers[0]) as? Label === label)
        #expect(context.registeredModel(for: identifiers[0]) as Label? === label)
        #expect(context.model(for: PersistentIdentifier(entityName: "Label", id: UUID())) == nil)
    }

    @Test func aContainerThatDoesNotAllowSavesRefusesToWrite() throws {
        let folder = try TemporaryDirectory()
        let readOnly = ModelConfiguration(url: folder.url, allowsSave: false)
        #expect(throws: FolioError.self, "a read-only configuration creates no store") { try ModelContainer(for: Label.self, configurations: readOnly) }
        _ = try ModelContainer(for: Label.self, configurations: ModelConfiguration(url: folder.url, durability: .none))
        let context = ModelContext(try ModelContainer(for: Label.self, configurations: readOnly))
        context.insert(Label(name: "x", color: "y"))
        #expect(throws: FolioError.self) { try context.save() }
    }

    @Test func aNestedModelIsNamedByItsOwnName() throws {
        let folder = try TemporaryDirectory()
        let context = ModelContext(try ModelContainer(for: ArchiveV1.Box.self, configurations: ModelConfiguration(url: folder.url, durability: .none)))
        let box = ArchiveV1.Box(label: "Letters")
        context.insert(box)
        let item = ArchiveV1.Item(name: "1998")
        box.items.append(item)
        try context.save()
        #expect(box.persistentModelID.entityName == "Box")
        #expect(FileManager.default.fileExists(atPath: folder("Box")) && FileManager.default.fileExists(atPath: folder("Item")))
        // The fetching context is gone by the time the relationship is read: it still loads.
        #expect(try ModelContext(context.container).fetch(FetchDescriptor<ArchiveV1.Box>()).first?.items.map(\.name) == ["1998"])
    }

    @Test func aContainerLeavesACacheSoTheNextLaunchReadsNothingUnchanged() throws {
        let folder = try TemporaryDirectory()
        let configuration = ModelConfiguration(url: folder.url, durability: .none)
        do {
            let container = try ModelContainer(for: Label.self, configurations: configuration)
            let context = ModelContext(container)
            for index in 0..<20 { context.insert(Label(name: "label \(index)", color: "red")) }
            try context.save()
        }
        let reopened = try ModelContainer(for: Label.self, configurations: configuration)
        #expect(reopened.store.statistics.filesRead == 0)
        #expect(reopened.store.statistics.cacheHits == 20)
        #expect(try ModelContext(reopened).fetchCount(FetchDescriptor<Label>()) == 20)
    }
}
