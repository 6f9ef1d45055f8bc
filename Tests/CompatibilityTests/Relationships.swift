import Folio
import FolioTestSupport
import Foundation
import Testing

@Model
final class Backyard {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \VisitorEvent.backyard) var visitorEvents: [VisitorEvent] = []
    init(name: String) { self.name = name }
}

@Model
final class VisitorEvent {
    var species: String
    var backyard: Backyard?
    init(species: String) { self.species = species }
}

/// Relationships as SwiftData apps set them, from either side or both.
struct RelationshipTests {
    func context(_ folder: TemporaryDirectory) throws -> ModelContext {
        ModelContext(
            try ModelContainer(
                for: Backyard.self, VisitorEvent.self,
                configurations: ModelConfiguration(url: folder.url, durability: .none)))
    }

    @Test func settingBothSidesHoldsTheModelOnce() throws {
        let folder = try TemporaryDirectory()
        let context = try context(folder)
        let yard = Backyard(name: "North")
        context.insert(yard)
        let event = VisitorEvent(species: "Robin")
        event.backyard = yard
        yard.visitorEvents.append(event)
        #expect(yard.visitorEvents.count == 1)
        yard.visitorEvents += [event, VisitorEvent(species: "Wren"), event]
        #expect(yard.visitorEvents.map(\.species) == ["Robin", "Wren"])
        try context.save()
        let reread = try #require(try self.context(folder).fetch(FetchDescriptor<Backyard>()).first)
        #expect(reread.visitorEvents.map(\.species).sorted() == ["Robin", "Wren"])
    }
}
