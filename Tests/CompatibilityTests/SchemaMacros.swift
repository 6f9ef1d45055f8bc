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

/// The schema macros in the forms SwiftData 2024 added.
struct SchemaMacroTests {
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
}
