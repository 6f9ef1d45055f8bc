import Folio
import FolioTestSupport
import Foundation
import Testing

struct Venue: Codable, Hashable {
    var name: String
    var capacity: Int
    var address: Address
    var isOutdoor: Bool

    enum CodingKeys: String, CodingKey {
        case name = "venue_name"
        case capacity, address
        case isOutdoor = "outdoor"
    }
}

struct Address: Codable, Hashable {
    var city: String
    var zip: String
}

@Model
final class Organizer {
    var name: String
    init(name: String) { self.name = name }
}

@Model
final class Concert {
    var title: String
    var venue: Venue
    var backup: Venue?
    var organizer: Organizer?
    init(title: String, venue: Venue) {
        self.title = title
        self.venue = venue
    }
}

/// Predicates and sorts on members of `Codable` values and through to-one relationships,
/// run on the documents with the same answers as on the models.
struct NestedValueTests {
    func context(_ folder: TemporaryDirectory) throws -> ModelContext {
        let context = ModelContext(
            try ModelContainer(
                for: Concert.self, configurations: ModelConfiguration(url: folder.url, durability: .none)))
        let rows: [(String, String, Int, String, String?)] = [
            ("Opening", "Hall", 900, "Oslo", "Zed"), ("Late", "Club", 120, "Bergen", "Amy"),
            ("Noon", "Park", 5000, "Oslo", nil),
        ]
        for (title, venue, capacity, city, organizer) in rows {
            let concert = Concert(
                title: title,
                venue: Venue(
                    name: venue, capacity: capacity, address: Address(city: city, zip: "0150"), isOutdoor: false))
            concert.organizer = organizer.map(Organizer.init)
            context.insert(concert)
        }
        try context.save()
        return ModelContext(context.container)
    }

    @Test func predicatesOnMembersOfCodableValuesRunOnDocumentsUnderTheirCodingKeys() throws {
        let folder = try TemporaryDirectory()
        let context = try context(folder)
        let predicate = #Predicate<Concert> {
            $0.venue.capacity > 500 && $0.venue.address.city == "Oslo" && $0.venue.name != "Nowhere"
        }
        let descriptor = FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.title)])
        let plan = try context.explain(descriptor)
        #expect(plan.fallback == nil, "\(plan)")
        #expect(try context.fetch(descriptor).map(\.title) == ["Noon", "Opening"])
        let all = try context.fetch(FetchDescriptor<Concert>())
        #expect(try all.filter { try predicate.evaluate($0) }.map(\.title).sorted() == ["Noon", "Opening"])

        // A Bool member has no marker to find it by: the predicate runs on the models, with the same answer.
        let indoor = #Predicate<Concert> { $0.venue.isOutdoor == false }
        #expect(try context.explain(FetchDescriptor(predicate: indoor)).fallback != nil)
        #expect(try context.fetchCount(FetchDescriptor(predicate: indoor)) == 3)
    }

    @Test func sortsThroughCodableValuesAndToOneRelationshipsRunOnDocuments() throws {
        let folder = try TemporaryDirectory()
        let context = try context(folder)
        let byCapacity = FetchDescriptor<Concert>(sortBy: [SortDescriptor(\.venue.capacity, order: .reverse)])
        #expect(try context.explain(byCapacity).fallback == nil)
        #expect(try context.fetch(byCapacity).map(\.title) == ["Noon", "Opening", "Late"])
        let byCity = FetchDescriptor<Concert>(sortBy: [SortDescriptor(\.venue.address.city), SortDescriptor(\.title)])
        #expect(try context.explain(byCity).fallback == nil)
        #expect(try context.fetch(byCity).map(\.title) == ["Late", "Noon", "Opening"])
        let byOrganizer = FetchDescriptor<Concert>(sortBy: [SortDescriptor(\.organizer?.name)])
        let organizerPlan = try context.explain(byOrganizer)
        #expect(organizerPlan.fallback == nil, "\(organizerPlan)")
        let onDocuments = try context.fetch(byOrganizer).map(\.title)
        #expect(onDocuments == ["Noon", "Late", "Opening"], "nil first, then Amy, Zed")
        #expect(
            try context.fetch(FetchDescriptor<Concert>()).sorted(using: SortDescriptor(\.organizer?.name)).map(\.title)
                == onDocuments)
    }
}
