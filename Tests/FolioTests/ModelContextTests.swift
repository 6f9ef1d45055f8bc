import Folio
import Foundation
import Testing

@testable import FolioCore

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

/// A badge whose optional code is unique when present.
@Model
final class Badge {
    #Unique<Badge>([\.code])
    var code: String?
    var title: String
    init(code: String?, title: String) {
        self.code = code
        self.title = title
    }
}

/// `.externalStorage` on bytes that are not `Data`, which Folio refuses.
@Model
final class Scan {
    @Attribute(.externalStorage) var pixels: [UInt8]
    init(pixels: [UInt8]) { self.pixels = pixels }
}

/// A model with initial values, one of them an optional that starts as `nil`.
@Model
final class Shelf {
    var title: String = "Untitled"
    var capacity: Int = 12
    var note: String?
    init() {}
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
        ModelContext(
            try ModelContainer(for: Label.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
    }

    @Test func insertingAModelWithAUniqueValueUpdatesTheStoredOne() throws {
        let folder = try TemporaryDirectory()
        let container = try ModelContainer(
            for: Label.self, configurations: ModelConfiguration(url: folder.url, durability: .none))
        let first = ModelContext(container)
        let original = Label(name: "urgent", color: "red")
        first.insert(original)
        try first.save()

        let second = ModelContext(container)
        let replacement = Label(name: "urgent", color: "orange")
        second.insert(replacement)
        try second.save()
        #expect(
            replacement.persistentModelID == original.persistentModelID, "the new model takes over the stored identity")
        let labels = try ModelContext(container).fetch(FetchDescriptor<Label>())
        #expect(labels.map(\.color) == ["orange"])
    }

    @Test @MainActor func onlyTheMainContextAutosavesAsInSwiftData() async throws {
        let folder = try TemporaryDirectory()
        let container = try ModelContainer(
            for: Label.self, configurations: ModelConfiguration(url: folder.url, durability: .none))
        let background = ModelContext(container)
        background.autosaveEnabled = true
        background.insert(Label(name: "later", color: "grey"))
        container.mainContext.insert(Label(name: "now", color: "green"))
        // The autosave is a task queued on the main actor: give it turns, not time.
        for _ in 0..<1000 where container.mainContext.hasChanges { await Task.yield() }
        for _ in 0..<100 { await Task.yield() }
        #expect(!container.mainContext.hasChanges)
        #expect(background.hasChanges, "another context's changes wait for its save()")
        #expect(try ModelContext(container).fetch(FetchDescriptor<Label>()).map(\.name) == ["now"])
        try background.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Label>()) == 2)
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
        #expect(
            context.insertedModelsArray.isEmpty && context.changedModelsArray.isEmpty
                && context.deletedModelsArray.isEmpty)
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
        #expect(
            context.model(for: PersistentIdentifier(entityName: "Label", id: UUID())).modelContext == nil,
            "a placeholder, not registered")
    }

    @Test func aContainerThatDoesNotAllowSavesRefusesToWrite() throws {
        let folder = try TemporaryDirectory()
        let readOnly = ModelConfiguration(url: folder.url, allowsSave: false)
        #expect(throws: FolioError.self, "a read-only configuration creates no store") {
            try ModelContainer(for: Label.self, configurations: readOnly)
        }
        _ = try ModelContainer(for: Label.self, configurations: ModelConfiguration(url: folder.url, durability: .none))
        let context = ModelContext(try ModelContainer(for: Label.self, configurations: readOnly))
        context.insert(Label(name: "x", color: "y"))
        #expect(throws: FolioError.self) { try context.save() }
    }

    @Test func aNestedModelIsNamedByItsOwnName() throws {
        let folder = try TemporaryDirectory()
        let context = ModelContext(
            try ModelContainer(
                for: ArchiveV1.Box.self, configurations: ModelConfiguration(url: folder.url, durability: .none)))
        let box = ArchiveV1.Box(label: "Letters")
        context.insert(box)
        let item = ArchiveV1.Item(name: "1998")
        box.items.append(item)
        try context.save()
        #expect(box.persistentModelID.entityName == "Box")
        #expect(
            FileManager.default.fileExists(atPath: folder("Box"))
                && FileManager.default.fileExists(atPath: folder("Item")))
        // The fetching context is gone by the time the relationship is read: it still loads.
        #expect(
            try ModelContext(context.container).fetch(FetchDescriptor<ArchiveV1.Box>()).first?.items.map(\.name) == [
                "1998"
            ])
    }

    @Test func fetchedModelsHaveTheirStoredValuesRatherThanTheirInitialOnes() throws {
        let folder = try TemporaryDirectory()
        let container = try ModelContainer(
            for: Shelf.self, configurations: ModelConfiguration(url: folder.url, durability: .none))
        let context = ModelContext(container)
        let shelf = Shelf()
        shelf.title = "Kitchen"
        shelf.capacity = 3
        shelf.note = "by the window"
        context.insert(shelf)
        try context.save()
        let fetched = try #require(try ModelContext(container).fetch(FetchDescriptor<Shelf>()).first)
        #expect(fetched.title == "Kitchen" && fetched.capacity == 3 && fetched.note == "by the window")
        #expect(!fetched.hasChanges)
        // A model made by its initializer after the fetch starts from the initial values.
        let fresh = Shelf()
        #expect(fresh.title == "Untitled" && fresh.capacity == 12 && fresh.note == nil)
    }

    @Test func modelsFetchedFromTheSameDocumentDoNotSeeEachOthersUnsavedChanges() throws {
        let container = try ModelContainer(
            for: Shelf.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let writer = ModelContext(container)
        for title in ["Hall", "Kitchen", "Study"] {
            let shelf = Shelf()
            shelf.title = title
            writer.insert(shelf)
        }
        try writer.save()
        let byTitle = FetchDescriptor<Shelf>(sortBy: [SortDescriptor(\.title)])
        let first = ModelContext(container)
        let edited = try first.fetch(byTitle)
        edited[1].title = "Pantry"
        edited[1].capacity += 1
        let second = try ModelContext(container).fetch(byTitle)
        #expect(second.map(\.title) == ["Hall", "Kitchen", "Study"] && second[1].capacity == 12)
        try first.save()
        let third = try ModelContext(container).fetch(byTitle)
        #expect(third.map(\.title) == ["Hall", "Pantry", "Study"] && third[1].capacity == 13)
        #expect(second[1].title == "Kitchen", "a model fetched earlier keeps the values it was fetched with")
    }

    @Test func enumerateGoesThroughEveryModelABatchAtATimeLettingGoOfThoseNoOneKeeps() throws {
        let container = try ModelContainer(
            for: Shelf.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let writer = ModelContext(container)
        for index in 0..<7 {
            let shelf = Shelf()
            shelf.title = "Shelf \(index)"
            shelf.capacity = index
            writer.insert(shelf)
        }
        try writer.save()
        let context = ModelContext(container)
        var titles: [String] = []
        var kept: Shelf?
        try context.enumerate(FetchDescriptor<Shelf>(sortBy: [SortDescriptor(\.capacity)]), batchSize: 3) { shelf in
            titles.append(shelf.title)
            if shelf.capacity == 4 { kept = shelf }
        }
        #expect(titles == (0..<7).map { "Shelf \($0)" })
        // Only the model the block kept is still registered: the others went batch by batch.
        #expect(context.registered.count == 1)
        // The kept model is still the context's: its change is saved.
        let keeper = try #require(kept)
        keeper.title = "Kept"
        try context.save()
        #expect(
            try ModelContext(container).fetchCount(FetchDescriptor<Shelf>(predicate: #Predicate { $0.title == "Kept" }))
                == 1)
    }

    @Test func enumerateRefusesABlockThatLeavesUnsavedChangesUnlessAllowed() throws {
        let container = try ModelContainer(
            for: Shelf.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let writer = ModelContext(container)
        for _ in 0..<3 { writer.insert(Shelf()) }
        try writer.save()
        #expect(throws: FolioError.self) {
            try ModelContext(container).enumerate(FetchDescriptor<Shelf>()) { $0.capacity += 1 }
        }
        let context = ModelContext(container)
        try context.enumerate(FetchDescriptor<Shelf>(), batchSize: 2, allowEscapingMutations: true) { $0.capacity += 1 }
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Shelf>()).map(\.capacity) == [13, 13, 13])
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
        #expect(try ModelContext(reopened).fetchCount(FetchDescriptor<Label>()) == 20)
        #expect(reopened.stores[0].statistics.filesRead == 0)
        #expect(reopened.stores[0].statistics.cacheHits == 20)
    }

    @Test func modelsWithoutAUniqueValueDoNotReplaceEachOther() throws {
        let context = ModelContext(
            try ModelContainer(for: Badge.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        context.insert(Badge(code: nil, title: "first"))
        try context.save()
        context.insert(Badge(code: nil, title: "second"))
        context.insert(Badge(code: "A", title: "third"))
        try context.save()
        context.insert(Badge(code: "A", title: "fourth"))
        try context.save()
        let titles = try context.fetch(FetchDescriptor<Badge>(sortBy: [SortDescriptor(\.title)])).map(\.title)
        #expect(titles == ["first", "fourth", "second"])
    }

    @Test func deletingAnUnsavedBoxTakesItsUnsavedItemsAlong() throws {
        let context = ModelContext(
            try ModelContainer(for: ArchiveV1.Box.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let box = ArchiveV1.Box(label: "Draft")
        context.insert(box)
        box.items = [ArchiveV1.Item(name: "a"), ArchiveV1.Item(name: "b")]
        context.delete(box)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<ArchiveV1.Item>()) == 0)
        #expect(try context.fetchCount(FetchDescriptor<ArchiveV1.Box>()) == 0)
    }

    @Test func anUnreadableRelatedFileDoesNotEraseTheReference() throws {
        let folder = try TemporaryDirectory()
        let configuration = ModelConfiguration(url: folder.url, durability: .none)
        let box = ArchiveV1.Box(label: "Letters")
        let item = ArchiveV1.Item(name: "1998")
        do {
            let context = ModelContext(try ModelContainer(for: ArchiveV1.Box.self, configurations: configuration))
            context.insert(item)
            item.box = box
            try context.save()
        }
        let boxFile = try #require(FileManager.default.subpaths(atPath: folder("Box"))?.first { $0.hasSuffix(".json") })
        let original = try String(contentsOfFile: folder("Box/" + boxFile), encoding: .utf8)
        try "{ broken".write(toFile: folder("Box/" + boxFile), atomically: false, encoding: .utf8)
        let context = ModelContext(try ModelContainer(for: ArchiveV1.Box.self, configurations: configuration))
        let reread = try #require(try context.fetch(FetchDescriptor<ArchiveV1.Item>()).first)
        #expect(reread.box == nil, "the box's file cannot be read")
        reread.name = "1999"
        try context.save()
        let itemFile = try #require(
            FileManager.default.subpaths(atPath: folder("Item"))?.first { $0.hasSuffix(".json") })
        #expect(
            try String(contentsOfFile: folder("Item/" + itemFile), encoding: .utf8).contains(
                "\"box\": \"\(box.persistentModelID.id.uuidString)\""))
        #expect(!original.isEmpty)
    }

    @Test func anIDChangedBeforeTheFirstSaveNamesTheFileAndAfterwardsIsRefused() throws {
        let folder = try TemporaryDirectory()
        let context = ModelContext(
            try ModelContainer(
                for: Specimen.self, configurations: ModelConfiguration(url: folder.url, durability: .none)))
        let specimen = Specimen()
        context.insert(specimen)
        let chosen = UUID()
        specimen.id = chosen
        try context.save()
        #expect(specimen.persistentModelID.id == chosen)
        #expect(
            FileManager.default.subpaths(atPath: folder("Specimen"))?.contains {
                $0.hasSuffix(chosen.uuidString + ".json")
            } == true)
        specimen.id = UUID()
        let error = try #require(throws: FolioError.self) { try context.save() }
        #expect(error.description.contains("names its file"))
    }

    @Test func externalStorageOnSomethingOtherThanDataIsRefused() throws {
        let error = try #require(throws: FolioError.self) {
            try ModelContainer(for: Scan.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        }
        #expect(error.description.contains("Scan.pixels is Array<UInt8>"))
    }
}
