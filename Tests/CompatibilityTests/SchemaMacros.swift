import Folio
import FolioTestSupport
import Foundation
import Testing

@Model
final class Owner {
    var name: String
    init(name: String) { self.name = name }
}

@Model
final class Place {
    #Index<Place>(.binary(\.name), .rtree(\.latitude, \.longitude))
    #Unique<Place>([\.name, \.city])

    var name: String
    var city: String
    var latitude: Double
    var longitude: Double
    @Relationship(.unique, deleteRule: .nullify) var owner: Owner?

    init(name: String, city: String, latitude: Double, longitude: Double) {
        self.name = name
        self.city = city
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// An index by kind as SwiftData declares the kinds: each an array of key paths.
@Model
final class Pin {
    #Index<Pin>(.binary([\.label]), .rtree([\.latitude, \.longitude]))

    var label: String
    var latitude: Double
    var longitude: Double

    init(label: String, latitude: Double, longitude: Double) {
        self.label = label
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// The schema macros spelled as SwiftData's documentation spells them, generic over the model.
@Model
final class Voyage {
    #Index<Voyage>([\.name], [\.startDate, \.endDate])
    #Unique<Voyage>([\.name, \.startDate])

    var name: String
    var startDate: Date
    var endDate: Date
    var berths = 2

    init(name: String, startDate: Date, endDate: Date) {
        self.name = name
        self.startDate = startDate
        self.endDate = endDate
    }
}

/// The schema macros in the forms SwiftData 2024 added.
struct SchemaMacroTests {
    @Test func indexesByKindWrittenWithArraysAsSwiftDataDeclaresThemAreRecorded() throws {
        #expect(Schema([Pin.self]).entity(named: "Pin")?.indices == [["label"], ["latitude", "longitude"]])
        let context = ModelContext(
            try ModelContainer(for: Pin.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        context.insert(Pin(label: "Home", latitude: 52.52, longitude: 13.40))
        context.insert(Pin(label: "Work", latitude: 52.50, longitude: 13.45))
        try context.save()
        let near = try context.fetch(
            FetchDescriptor<Pin>(predicate: #Predicate { $0.latitude > 52.51 && $0.longitude < 13.42 }))
        #expect(near.map(\.label) == ["Home"])
    }

    @Test func indexesByKindUniqueConstraintsAndUniqueRelationshipsAreRecorded() throws {
        let entity = Schema([Place.self]).entity(named: "Place")
        #expect(entity?.indices == [["name"], ["latitude", "longitude"]])
        #expect(entity?.uniquenessConstraints == [["name", "city"], ["owner"]])
        #expect(entity?.relationship(named: "owner")?.isUnique == true)

        let folder = try TemporaryDirectory()
        let context = ModelContext(
            try ModelContainer(for: Place.self, configurations: ModelConfiguration(url: folder.url, durability: .none)))
        context.insert(Place(name: "Cafe", city: "Oslo", latitude: 59.9, longitude: 10.7))
        try context.save()
        let plan = try context.explain(FetchDescriptor<Place>(predicate: #Predicate { $0.name == "Cafe" }))
        #expect("\(plan)".contains("index (name)"), "\(plan)")
        let latitude = 59.0
        #expect(try context.fetchCount(FetchDescriptor<Place>(predicate: #Predicate { $0.latitude > latitude })) == 1)
    }

    @Test func genericIndexesAndUniqueConstraintsAreRecordedAndUsedAsSwiftDataSpellsThem() throws {
        let entity = try #require(Schema([Voyage.self]).entitiesByName["Voyage"])
        #expect(entity.indices == [["name"], ["startDate", "endDate"]])
        #expect(entity.uniquenessConstraints == [["name", "startDate"]])
        #expect(Schema.Index<Voyage>([\.name], [\.startDate, \.endDate]).propertyNames == entity.indices)
        #expect(Schema.Unique<Voyage>([\.name, \.startDate]).propertyNames == entity.uniquenessConstraints)

        let folder = try TemporaryDirectory()
        let configuration = ModelConfiguration(url: folder.url, durability: .none)
        let context = ModelContext(try ModelContainer(for: Voyage.self, configurations: configuration))
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        context.insert(Voyage(name: "Fjords", startDate: start, endDate: start + 86_400 * 7))
        try context.save()
        let again = Voyage(name: "Fjords", startDate: start, endDate: start + 86_400 * 9)
        again.berths = 4
        context.insert(again)
        try context.save()
        let voyages = try ModelContext(try ModelContainer(for: Voyage.self, configurations: configuration))
            .fetch(FetchDescriptor<Voyage>())
        #expect(voyages.map(\.berths) == [4], "a second insert with the same name and start updates the first")

        let plan = try context.explain(FetchDescriptor<Voyage>(predicate: #Predicate { $0.name == "Fjords" }))
        #expect("\(plan)".contains("index (name)"), "\(plan)")
    }

    @Test func indexKindsAreValuesOfTheGenericIndex() {
        let index = Schema.Index<Place>(.binary([\.name]), .rtree([\.latitude, \.longitude]))
        #expect(index.indices == [.binary([\Place.name]), .rtree([\Place.latitude, \Place.longitude])])
        #expect(index.indices[1].keyPaths == [\Place.latitude, \Place.longitude])
        #expect(index == Schema.Index<Place>(.binary(\.name), .rtree(\.latitude, \.longitude)), "listed without arrays")
        #expect(index.propertyNames == [["name"], ["latitude", "longitude"]])
        #expect(Schema.Index<Place>([\.name]).indices == [.binary([\Place.name])], "an array is a binary index")
    }
}
