import Folio
import FolioTestSupport
import Foundation
import Testing

@Model final class Expedition {
    var name: String
    var budget: Double = 0
    var base: Camp
    var guide: Mountaineer?
    @Relationship(inverse: \Waypoint.expedition) var stops: [Waypoint] = []
    var reserves: [Mountaineer]? = []

    init(name: String, base: Camp) {
        self.name = name
        self.base = base
    }
}

@Model final class Camp {
    var name: String
    init(name: String) { self.name = name }
}

@Model final class Mountaineer {
    var name: String
    init(name: String) { self.name = name }
}

@Model final class Waypoint {
    var place: String
    var expedition: Expedition?
    init(place: String) { self.place = place }
}

/// A helper as apps write them: one function for any model and any stored property.
private func rename<Model: PersistentModel>(_ model: Model, _ key: KeyPath<Model, String>, to name: String) {
    if model.getValue(forKey: key) != name { model.setValue(forKey: key, to: name) }
}

/// `getValue(forKey:)` and `setValue(forKey:to:)` by key path, and `schemaMetadata`, as
/// SwiftData declares them on `PersistentModel`.
struct KeyPathAccess {
    let folder: TemporaryDirectory
    init() throws { folder = try TemporaryDirectory() }

    func container() throws -> ModelContainer {
        try ModelContainer(
            for: Expedition.self, configurations: ModelConfiguration(url: folder.url, durability: .none))
    }

    @Test func anAttributeSetByKeyPathIsObservedRecordedAndSaved() throws {
        let context = ModelContext(try container())
        let everest = Expedition(name: "Everest", base: Camp(name: "South Base"))
        context.insert(everest)
        try context.save()

        nonisolated(unsafe) var heard = 0
        withObservationTracking {
            _ = everest.getValue(forKey: \.budget)
        } onChange: {
            heard += 1
        }
        everest.setValue(forKey: \.budget, to: 12_500)
        rename(everest, \.name, to: "Everest 2027")
        #expect(heard == 1)
        #expect(everest.hasChanges)
        #expect(everest.budget == 12_500 && everest.getValue(forKey: \.name) == "Everest 2027")
        try context.save()

        let again = try #require(try ModelContext(try container()).fetch(FetchDescriptor<Expedition>()).first)
        #expect(again.getValue(forKey: \.name) == "Everest 2027")
        #expect(again.getValue(forKey: \.budget) == 12_500)
    }

    @Test func relationshipsSetByKeyPathKeepTheirInversesAndAreSaved() throws {
        let context = ModelContext(try container())
        let k2 = Expedition(name: "K2", base: Camp(name: "Concordia"))
        context.insert(k2)
        let summit = Waypoint(place: "Summit")
        let shoulder = Waypoint(place: "Shoulder")

        k2.setValue(forKey: \.stops, to: [shoulder])
        summit.setValue(forKey: \.expedition, to: k2)
        #expect(shoulder.expedition === k2, "the to-one side of a to-many set by key path")
        #expect(k2.getValue(forKey: \.stops).map(\.place) == ["Shoulder", "Summit"], "the to-many side of a to-one")
        #expect(summit.modelContext === context, "a model a relationship reaches is inserted")

        k2.setValue(forKey: \.guide, to: Mountaineer(name: "Nirmal"))
        k2.setValue(forKey: \.reserves, to: [Mountaineer(name: "Mingma")])
        k2.setValue(forKey: \.base, to: Camp(name: "Advanced Base"))
        try context.save()

        let again = try #require(try ModelContext(try container()).fetch(FetchDescriptor<Expedition>()).first)
        #expect(again.getValue(forKey: \.guide)?.name == "Nirmal")
        #expect(again.getValue(forKey: \.reserves)?.map(\.name) == ["Mingma"])
        #expect(again.getValue(forKey: \.base).name == "Advanced Base")
        #expect(Set(again.getValue(forKey: \.stops).map(\.place)) == ["Shoulder", "Summit"])

        summit.setValue(forKey: \.expedition, to: nil)
        #expect(k2.stops.map(\.place) == ["Shoulder"], "clearing a to-one by key path leaves the to-many")
    }

    @Test func aTransformableAttributeIsReadAndWrittenByKeyPath() throws {
        let folder = try TemporaryDirectory()
        let configuration = ModelConfiguration(url: folder.url, durability: .none)
        let context = ModelContext(try ModelContainer(for: Artwork.self, configurations: configuration))
        let artwork = Artwork(title: "Dusk", palette: Palette(colors: ["navy"]))
        context.insert(artwork)
        artwork.setTransformableValue(forKey: \.palette, to: Palette(colors: ["navy", "amber"]))
        #expect(artwork.getTransformableValue(forKey: \.palette).colors == ["navy", "amber"])
        try context.save()

        let again = ModelContext(try ModelContainer(for: Artwork.self, configurations: configuration))
        let read = try #require(try again.fetch(FetchDescriptor<Artwork>()).first)
        #expect(read.getTransformableValue(forKey: \.palette).colors == ["navy", "amber"])
    }

    @Test func schemaMetadataListsTheStoredPropertiesAsTheSchemaDescribesThem() throws {
        let metadata = Expedition.schemaMetadata
        #expect(metadata.map(\.name) == ["name", "budget", "base", "guide", "stops", "reserves"])
        #expect(metadata.map(\.name) == Expedition.schemaEntity.properties.map(\.name))
        #expect(metadata[0].keypath == \Expedition.name)
        #expect(metadata[1].defaultValue as? Double == 0)
        #expect(metadata[0].defaultValue == nil, "no initial value")
        guard case .attribute(let budget) = metadata[1].metadata, case .relationship(let stops) = metadata[4].metadata
        else {
            Issue.record("budget is an attribute and stops a relationship: \(metadata.map(\.metadata))")
            return
        }
        #expect(budget.name == "budget" && stops.inverseName == "expedition")

        let business = BusinessJourney.schemaMetadata
        #expect(business.map(\.name) == ["name", "start", "legs", "company", "perDiem"], "inherited first")
        #expect(business[0].keypath == \BusinessJourney.name, "read from the subclass, as its predicates name it")
    }
}
