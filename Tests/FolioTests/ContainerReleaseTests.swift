import Folio
import FolioTestSupport
import Foundation
import Testing

@testable import FolioCore

/// A model actor over a container, as an app's importer is.
@ModelActor actor LampImporter {
    func add(_ name: String, watts: Int) throws {
        modelContext.insert(Lamp(name, watts: watts))
        try modelContext.save()
    }
}

/// Containers let go: once nothing uses a container, its context or their models, its stores
/// close (the watcher's thread stops, the cache is written), whichever way it was used. The
/// main context's pending autosave holds it until it has run, on a later turn of the main
/// actor, so the tests wait for that (`eventually`).
@MainActor struct ContainerReleaseTests {
    func container(_ folder: TemporaryDirectory) throws -> ModelContainer {
        try ModelContainer(for: Lamp.self, configurations: ModelConfiguration(url: folder.url, durability: .none))
    }

    /// Whether the folder's cache file for lamps was written (it is, when a store closes).
    func cacheWritten(_ folder: TemporaryDirectory) -> Bool {
        FileManager.default.fileExists(atPath: folder.url.path + "/.folio/cache/Lamp")
    }

    @Test func aContainerWhoseMainContextSavedIsReleasedAndWritesItsCache() async throws {
        let folder = try TemporaryDirectory()
        weak var released: ModelContainer?
        weak var stores: OpenContainer?
        try {
            let container = try container(folder)
            container.mainContext.insert(Lamp("Desk", watts: 40))
            try container.mainContext.save()
            released = container
            stores = container.opened
        }()
        #expect(released == nil)
        #expect(await eventually { stores == nil })
        #expect(cacheWritten(folder))
    }

    @Test func aContainerWithAResultsObserverIsReleasedWithIt() async throws {
        let folder = try TemporaryDirectory()
        weak var stores: OpenContainer?
        try {
            let container = try container(folder)
            let observer = try ResultsObserver(
                fetchDescriptor: FetchDescriptor<Lamp>(), modelContext: container.mainContext)
            container.mainContext.insert(Lamp("Hall", watts: 5))
            try container.mainContext.save()
            #expect(observer.results.count <= 1)
            stores = container.opened
        }()
        #expect(await eventually { stores == nil })
        #expect(cacheWritten(folder))
    }

    @Test func aContainerUsedByAModelActorIsReleasedWithIt() async throws {
        let folder = try TemporaryDirectory()
        weak var stores: OpenContainer?
        var importer: LampImporter? = LampImporter(modelContainer: try container(folder))
        try await importer?.add("Porch", watts: 9)
        stores = importer?.modelContainer.opened
        #expect(stores != nil)
        importer = nil
        #expect(stores == nil)
        #expect(cacheWritten(folder))
    }

    @Test func aMainContextKeptAfterItsContainerStillSavesAndGivesItsContainerBack() async throws {
        let folder = try TemporaryDirectory()
        weak var first: ModelContainer?
        var context: ModelContext? = try {
            let container = try container(folder)
            first = container
            return container.mainContext
        }()
        #expect(first == nil, "the main context does not keep its container")
        weak let stores = context?.opened
        try {
            let kept = try #require(context)
            #expect(kept.container.mainContext === kept, "the container made again has this main context")
            kept.insert(Lamp("Attic", watts: 25))
            try kept.save()
        }()
        #expect(try ModelContext(container(folder)).fetchCount(FetchDescriptor<Lamp>()) == 1)
        context = nil
        #expect(await eventually { stores == nil })
    }

    @Test func aModelKeptAfterItsContainerStillReadsItsRelationships() async throws {
        let folder = try TemporaryDirectory()
        let configuration = ModelConfiguration(url: folder.url, durability: .none)
        weak var stores: OpenContainer?
        var book: Book? = try {
            let container = try ModelContainer(for: ReadingShelf.self, configurations: configuration)
            let shelf = ReadingShelf(label: "Hall")
            container.mainContext.insert(shelf)
            let book = Book(title: "Emma")
            book.shelf = shelf
            try container.mainContext.save()
            stores = container.opened
            return try ModelContext(container).fetch(FetchDescriptor<Book>()).first
        }()
        #expect(book?.shelf?.label == "Hall", "the relationship loads through the stores the model keeps")
        #expect(stores != nil)
        book = nil
        #expect(await eventually { stores == nil })
    }

    /// What `StoreWorkload container-churn` printed on the line starting with `label`, by name.
    nonisolated func held(_ label: String, in output: String) throws -> [String: Int] {
        let line = try #require(output.split(separator: "\n").first { $0.hasPrefix(label + " ") })
        let words = line.split(separator: " ").dropFirst()
        return Dictionary(
            uniqueKeysWithValues: stride(from: words.startIndex, to: words.endIndex - 1, by: 2).map {
                (String(words[$0]), Int(words[$0 + 1]) ?? -1)
            })
    }

    @Test nonisolated func manyContainersComingAndGoingLeaveNoThreadOrDescriptorBehind() throws {
        let folder = try TemporaryDirectory()
        let store = folder.url.appendingPathComponent("Sessions").path
        let (status, output, errors) = try ChildProcess(["container-churn", store, "40"]).finish()
        #expect(status == 0, "\(errors)")
        let before = try held("before", in: output)
        let after = try held("after", in: output)
        #expect(after["watchers"] == 0 && after["inotify"] == 0, "\(output)")
        #expect(after["descriptors"] == before["descriptors"], "\(output)")
        // The concurrency runtime's pool may grow by a thread or two; forty leaked watchers would not.
        #expect(try #require(after["threads"]) <= before["threads"]! + 2, "\(output)")
        #expect(FileManager.default.fileExists(atPath: store + "/.folio/cache/FocusSession"), "written at each close")
        #expect(try DocumentStore.open(at: store).documents(entity: "FocusSession").count == 2 * 41)
    }

    @Test nonisolated func aStoreWhoseFolderIsRemovedWhileWatchedIsLetGoQuietly() throws {
        let folder = try TemporaryDirectory()
        let store = folder.url.appendingPathComponent("Sessions").path
        let (status, _, errors) = try ChildProcess(["remove-watched", store]).finish()
        #expect(status == 0, "\(errors)")
        #expect(!errors.contains("Could not refresh"), "\(errors)")
        #expect(!FileManager.default.fileExists(atPath: store), "nothing was made again in the removed folder")
    }
}
