import Folio
import FolioTestSupport
import Foundation
import Observation
import Synchronization
import Testing

@Model final class Errand {
    var title: String
    var minutes: Int
    init(title: String, minutes: Int) {
        self.title = title
        self.minutes = minutes
    }
}

@Model class Delivery {
    var address: String
    init(address: String) { self.address = address }
}

@Model final class ExpressDelivery: Delivery {
    var deadline: Int
    init(address: String, deadline: Int) {
        self.deadline = deadline
        super.init(address: address)
    }
}

/// The names of the properties whose observers fired, gathered from any thread.
final class HeardChanges: Sendable {
    private let names = Mutex<[String]>([])

    /// Observes `read`'s properties once, as a view does, and notes `name` when they change.
    func observe(_ name: String, _ read: () -> Void) {
        withObservationTracking(read) { self.names.withLock { $0.append(name) } }
    }

    var heard: [String] { names.withLock { $0 } }
}

/// A model's own observers (`withObservationTracking`, SwiftUI) hear a change another
/// context saved or a person made on disk when the model takes it in, as they hear an
/// assignment: for the properties that changed, not the others.
struct ModelObserverTests {
    func container(_ folder: TemporaryDirectory, watching: Bool = false) throws -> ModelContainer {
        var configuration = ModelConfiguration(url: folder.url, durability: .none)
        configuration.watchesFiles = watching
        return try ModelContainer(for: Errand.self, Delivery.self, ExpressDelivery.self, configurations: configuration)
    }

    @Test func anotherContextsSaveReachesTheObserversOfWhatItChanged() throws {
        let folder = try TemporaryDirectory()
        let container = try container(folder)
        let mine = ModelContext(container)
        let errand = Errand(title: "Post the letter", minutes: 10)
        mine.insert(errand)
        try mine.save()
        let changes = HeardChanges()
        changes.observe("title") { _ = errand.title }
        changes.observe("minutes") { _ = errand.minutes }

        let other = ModelContext(container)
        let same = try #require(try other.fetch(FetchDescriptor<Errand>()).first)
        same.title = "Post the parcel"
        try other.save()
        _ = try mine.fetchCount(FetchDescriptor<Errand>())  // the context takes changes in before a fetch

        #expect(errand.title == "Post the parcel")
        #expect(changes.heard == ["title"], "minutes did not change, so its observers heard nothing")
    }

    @Test func aSubclassTellsTheObserversOfItsOwnAndItsInheritedProperties() throws {
        let folder = try TemporaryDirectory()
        let container = try container(folder)
        let mine = ModelContext(container)
        let delivery = ExpressDelivery(address: "1 High Street", deadline: 12)
        mine.insert(delivery)
        try mine.save()
        let changes = HeardChanges()
        changes.observe("address") { _ = delivery.address }
        changes.observe("deadline") { _ = delivery.deadline }

        let other = ModelContext(container)
        let same = try #require(try other.fetch(FetchDescriptor<ExpressDelivery>()).first)
        same.address = "2 Low Road"
        same.deadline = 9
        try other.save()
        _ = try mine.fetch(FetchDescriptor<Delivery>())

        #expect(delivery.address == "2 Low Road")
        #expect(delivery.deadline == 9)
        #expect(changes.heard.sorted() == ["address", "deadline"])
    }

    @MainActor @Test func theMainContextsModelsHearAnEditOnDiskWithoutAFetch() async throws {
        let folder = try TemporaryDirectory()
        let container = try container(folder, watching: true)
        let context = container.mainContext
        let errand = Errand(title: "Water the plants", minutes: 20)
        context.insert(errand)
        try context.save()
        let changes = HeardChanges()
        changes.observe("minutes") { _ = errand.minutes }
        changes.observe("title") { _ = errand.title }

        // A person's edit of the file, which the container's watcher finds.
        let url = try #require(
            FileManager.default.enumerator(at: folder.url.appending(path: "Errand"), includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.first { $0.lastPathComponent == "\(errand.persistentModelID.id).json" })
        let text = try String(contentsOf: url, encoding: .utf8)
        try text.replacingOccurrences(of: "\"minutes\": 20", with: "\"minutes\": 35")
            .write(to: url, atomically: true, encoding: .utf8)

        #expect(await eventually { changes.heard == ["minutes"] }, "heard: \(changes.heard)")
        #expect(errand.minutes == 35)
        #expect(errand.title == "Water the plants")
    }
}
