import Folio
import FolioTestSupport
import Foundation
import Testing

/// A value type from a package the app does not control, stored with `@Attribute(.codable)`.
struct MapPoint: Codable, Hashable {
    var latitude: Double
    var longitude: Double
}

@Model final class Landmark {
    var name: String
    @Attribute(.codable) var location: MapPoint
    @Attribute(.codable) var nearby: [MapPoint]?

    init(name: String, location: MapPoint) {
        self.name = name
        self.location = location
    }
}

/// `@Attribute(.codable)`, new in iOS 27: the value is stored through its `Codable`
/// conformance, which is how Folio stores every `Codable` value.
struct CodableAttributeTests {
    @Test func aCodableAttributeIsStoredAsNestedJSONAndReadBackAfterAReopen() throws {
        let folder = try TemporaryDirectory()
        func container() throws -> ModelContainer {
            try ModelContainer(
                for: Landmark.self, configurations: ModelConfiguration(url: folder.url, durability: .none))
        }
        let tower = MapPoint(latitude: 48.8584, longitude: 2.2945)
        do {
            let context = ModelContext(try container())
            let landmark = Landmark(name: "Tower", location: tower)
            landmark.nearby = [MapPoint(latitude: 48.8606, longitude: 2.3376)]
            context.insert(landmark)
            try context.save()
        }

        let fetched = try ModelContext(try container()).fetch(FetchDescriptor<Landmark>())
        #expect(fetched.map(\.location) == [tower])
        #expect(fetched.first?.nearby == [MapPoint(latitude: 48.8606, longitude: 2.3376)])

        let files = try #require(FileManager.default.enumerator(atPath: folder("Landmark")))
            .compactMap { $0 as? String }.filter { $0.hasSuffix(".json") }
        let text = try String(contentsOfFile: folder("Landmark/" + (try #require(files.first))), encoding: .utf8)
        #expect(text.contains("\"location\": {"), "\(text)")
        #expect(text.contains("\"latitude\": 48.8584"), "\(text)")
    }

    @Test func theSchemaSaysWhichAttributesAreCodable() throws {
        let entity = try #require(Schema([Landmark.self]).entity(named: "Landmark"))
        #expect(entity.attribute(named: "location")?.isCodable == true)
        #expect(entity.attribute(named: "nearby")?.isCodable == true)
        #expect(entity.attribute(named: "name")?.isCodable == false)
    }
}
