import Folio
import FolioTestSupport
import Foundation
import Testing

@testable import FolioCore

/// An ergometer that keeps the sessions rowed on it, with no inverse: the device's document
/// holds the sessions' identities.
@Model
final class Ergometer {
    var name: String
    var label: String = ""
    @Relationship(deleteRule: .nullify) var outings: [Outing] = []

    init(name: String) { self.name = name }
}

@Model
final class Outing {
    var title: String

    init(title: String) { self.title = title }
}

/// `purge` removes, in its transaction, the references other documents keep to what it
/// removes, and the context's models that hold them follow.
struct PurgeReferenceTests {
    func context(_ folder: TemporaryDirectory) throws -> ModelContext {
        ModelContext(
            try ModelContainer(
                for: Ergometer.self, Outing.self, configurations: ModelConfiguration(url: folder.url, durability: .none)
            ))
    }

    func storedOutings(_ folder: TemporaryDirectory) throws -> [String] {
        let device = try #require(try context(folder).fetch(FetchDescriptor<Ergometer>()).first)
        return device.outings.map(\.title).sorted()
    }

    /// A saved device holding two outings, the morning one soft-deleted.
    func deviceWithADeletedOuting(in folder: TemporaryDirectory) throws -> (ModelContext, Ergometer) {
        let context = try context(folder)
        let device = Ergometer(name: "PM5")
        let morning = Outing(title: "Morning")
        context.insert(device)
        device.outings = [morning, Outing(title: "Evening")]
        try context.save()
        context.delete(morning)
        try context.save()
        return (context, device)
    }

    @Test func aPurgedModelLeavesNoReferenceBehindAndHoldersSaveWithoutConflict() throws {
        let folder = try TemporaryDirectory()
        let (context, device) = try deviceWithADeletedOuting(in: folder)
        // Soft-deleted, the outing is still held, so a restore brings it back whole.
        #expect(try context.fetch(FetchDescriptor<Ergometer>()).first?.outings.count == 2)

        #expect(try context.purge(deletedBefore: Date().addingTimeInterval(1)) == 1)
        #expect(device.outings.map(\.title) == ["Evening"])
        #expect(try storedOutings(folder) == ["Evening"])
        #expect(context.container.stores[0].check().filter { $0.severity == .error }.isEmpty)
        device.label = "after"
        try context.save()
        #expect(try storedOutings(folder) == ["Evening"])
    }

    @Test func aHolderWithUnsavedChangesKeepsThemAndLosesThePurgedModel() throws {
        let folder = try TemporaryDirectory()
        let (context, device) = try deviceWithADeletedOuting(in: folder)
        device.label = "edited before the purge"
        #expect(try context.purge(deletedBefore: Date().addingTimeInterval(1)) == 1)
        try context.save()
        let reread = try #require(try self.context(folder).fetch(FetchDescriptor<Ergometer>()).first)
        #expect(reread.label == "edited before the purge")
        #expect(reread.outings.map(\.title) == ["Evening"])
    }
}
