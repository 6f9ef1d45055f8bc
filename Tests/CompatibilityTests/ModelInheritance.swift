import Folio
import FolioJSON
import FolioTestSupport
import Foundation
import Testing

/// A class hierarchy of models, as SwiftData allows since 2025 (`@Model class BusinessTrip: Trip`).
@Model class Journey {
    var name: String
    var start: Date
    @Relationship(deleteRule: .cascade, inverse: \Leg.journey) var legs: [Leg] = []

    init(name: String, start: Date) {
        self.name = name
        self.start = start
    }
}

@Model final class BusinessJourney: Journey {
    var company: String
    var perDiem: Double = 0

    init(name: String, start: Date, company: String, perDiem: Double) {
        self.company = company
        self.perDiem = perDiem
        super.init(name: name, start: start)
    }
}

@Model class PersonalJourney: Journey {
    var reason: String

    init(name: String, start: Date, reason: String) {
        self.reason = reason
        super.init(name: name, start: start)
    }
}

/// Two levels below the root: its documents are in the root's folder too.
@Model final class FamilyJourney: PersonalJourney {
    var travellers = 2

    init(name: String, start: Date, travellers: Int) {
        self.travellers = travellers
        super.init(name: name, start: start, reason: "family")
    }
}

/// A subclass with a property inside `#if`: described and loaded per clause, as a base's are.
@Model final class NightJourney: Journey {
    #if os(Linux)
        var lamps = 2
    #else
        var candles = 2
    #endif

    init(name: String, start: Date, lamps: Int) {
        #if os(Linux)
            self.lamps = lamps
        #endif
        super.init(name: name, start: start)
    }
}

@Model final class Leg {
    var place: String
    var journey: Journey?

    init(place: String) { self.place = place }
}

@Model final class Traveller {
    var name: String
    @Relationship(deleteRule: .nullify) var favourite: BusinessJourney?

    init(name: String) { self.name = name }
}

struct ModelInheritanceTests {
    let folder: TemporaryDirectory
    let day = Date(timeIntervalSince1970: 1_790_000_000)

    init() throws { folder = try TemporaryDirectory() }

    func container() throws -> ModelContainer {
        try ModelContainer(
            for: Journey.self, BusinessJourney.self, PersonalJourney.self, FamilyJourney.self, Traveller.self,
            configurations: ModelConfiguration(url: folder.url, durability: .none))
    }

    /// One of each class, saved: a plain journey, a business one, a personal one, a family one.
    func saveOneOfEach() throws {
        let context = ModelContext(try container())
        context.insert(Journey(name: "Weekend", start: day))
        context.insert(
            BusinessJourney(name: "Summit", start: day.addingTimeInterval(86400), company: "Acme", perDiem: 80))
        context.insert(PersonalJourney(name: "Retreat", start: day.addingTimeInterval(2 * 86400), reason: "rest"))
        context.insert(FamilyJourney(name: "Coast", start: day.addingTimeInterval(3 * 86400), travellers: 4))
        try context.save()
    }

    @Test func aFetchOfTheBaseClassReturnsEveryModelOfTheHierarchyAsItsOwnClass() throws {
        try saveOneOfEach()
        let journeys = try ModelContext(try container()).fetch(
            FetchDescriptor<Journey>(sortBy: [SortDescriptor(\.start)]))
        #expect(journeys.map(\.name) == ["Weekend", "Summit", "Retreat", "Coast"])
        #expect(type(of: journeys[0]) == Journey.self)
        let business = try #require(journeys[1] as? BusinessJourney)
        #expect(business.company == "Acme" && business.perDiem == 80)
        #expect((journeys[2] as? PersonalJourney)?.reason == "rest")
        let family = try #require(journeys[3] as? FamilyJourney)
        #expect(family.travellers == 4 && family.reason == "family" && family.name == "Coast")
    }

    @Test func aFetchOfASubclassReturnsItsModelsAndThoseOfItsSubclassesOnly() throws {
        try saveOneOfEach()
        let context = ModelContext(try container())
        #expect(try context.fetch(FetchDescriptor<BusinessJourney>()).map(\.name) == ["Summit"])
        #expect(
            try context.fetch(FetchDescriptor<PersonalJourney>(sortBy: [SortDescriptor(\.name)])).map(\.name) == [
                "Coast", "Retreat",
            ])
        #expect(try context.fetchCount(FetchDescriptor<FamilyJourney>()) == 1)
        #expect(try context.fetchCount(FetchDescriptor<Journey>()) == 4)
        // A predicate on an inherited property and one on the subclass's own, both on documents.
        let summit = FetchDescriptor<BusinessJourney>(predicate: #Predicate { $0.name == "Summit" && $0.perDiem > 50 })
        #expect(try context.fetch(summit).map(\.company) == ["Acme"])
        #expect(try context.explain(summit).fallback == nil)
        #expect(
            try context.fetch(FetchDescriptor<BusinessJourney>(predicate: #Predicate { $0.name == "Weekend" })).isEmpty)
    }

    @Test func predicatesCanTestAModelsClass() throws {
        try saveOneOfEach()
        let context = ModelContext(try container())
        let business = try context.fetch(FetchDescriptor<Journey>(predicate: #Predicate { $0 is BusinessJourney }))
        #expect(business.map(\.name) == ["Summit"])
        let personal = try context.fetch(
            FetchDescriptor<Journey>(predicate: #Predicate { $0 is PersonalJourney }, sortBy: [SortDescriptor(\.name)]))
        #expect(personal.map(\.name) == ["Coast", "Retreat"])
        let wellPaid = FetchDescriptor<Journey>(predicate: #Predicate { ($0 as? BusinessJourney)?.perDiem ?? 0 > 50 })
        #expect(try context.fetch(wellPaid).map(\.name) == ["Summit"])
        let crowded = FetchDescriptor<Journey>(
            predicate: #Predicate { $0 is PersonalJourney && ($0 as? FamilyJourney)?.travellers ?? 0 >= 4 })
        #expect(try context.fetch(crowded).map(\.name) == ["Coast"])
        for descriptor in [
            wellPaid, crowded, FetchDescriptor<Journey>(predicate: #Predicate { $0 is BusinessJourney }),
        ] {
            #expect(try context.explain(descriptor).fallback == nil, "runs on documents")
        }
    }

    @Test func aSubclassDocumentLivesInItsRootsFolderAndNamesItsOwnEntity() throws {
        try saveOneOfEach()
        let store = try DocumentStore.open(at: folder.path)
        let documents = store.documents(entity: "Journey")
        #expect(documents.count == 4)
        let summit = try #require(documents.first { $0.content["name"] == "Summit" })
        #expect(summit.content["$entity"] == "BusinessJourney")
        #expect(summit.path.relativePath.hasPrefix("Journey/"))
        #expect(summit.content["company"] == "Acme")
        for name in ["BusinessJourney", "PersonalJourney", "FamilyJourney"] {
            #expect(!FileManager.default.fileExists(atPath: folder.path + "/" + name), "no folder for \(name)")
        }
        let entities = store.manifest.schema["entities"]
        #expect(entities?["FamilyJourney"]?["superentity"] == "PersonalJourney")
        #expect(entities?["BusinessJourney"]?["superentity"] == "Journey")
        #expect(entities?["Journey"]?["superentity"] == nil)
        #expect(store.check().filter { $0.severity == .error }.isEmpty)
        // The command line's queries see the hierarchy as the library does.
        let query = try DocumentQuery(
            entity: "PersonalJourney", filter: QueryExpression(parsing: "name != \"Retreat\""))
        #expect(try store.query(query).matches.compactMap { $0.stored?.content["name"]?.stringValue } == ["Coast"])
    }

    @Test func aDocumentWhoseEntityIsNotInItsFolderHierarchyIsReported() throws {
        try saveOneOfEach()
        let store = try DocumentStore.open(at: folder.path)
        let summit = try #require(store.documents(entity: "Journey").first { $0.content["name"] == "Summit" })
        var content = summit.content
        content["$entity"] = "Traveller"
        let text = try JSONWriter().write(.object(content))
        try Data(text).write(to: URL(fileURLWithPath: folder.path + "/" + summit.path.relativePath))
        let reopened = try DocumentStore.open(at: folder.path)
        #expect(reopened.issues.map(\.path) == [summit.path.relativePath])
    }

    @Test func aBatchReachedAfterADocumentsClassWasEditedGivesAPlaceholderInsteadOfTrapping() throws {
        try saveOneOfEach()
        let context = ModelContext(try container())
        let business = try context.fetch(FetchDescriptor<BusinessJourney>(), batchSize: 1)
        #expect(business.count == 1)
        // Between the fetch and the batch, a hand edit makes the business journey a personal one.
        let store = try DocumentStore.open(at: folder.path)
        let summit = try #require(store.documents(entity: "Journey").first { $0.content["name"] == "Summit" })
        var content = summit.content
        content["$entity"] = "PersonalJourney"
        content["reason"] = "rest"
        try Data(try JSONWriter().write(.object(content))).write(
            to: URL(fileURLWithPath: folder.path + "/" + summit.path.relativePath))
        _ = try context.container.refresh()
        let reached = business[0]
        #expect(reached.persistentModelID.id == summit.id)
        #expect(try context.fetch(FetchDescriptor<BusinessJourney>()).isEmpty)
        #expect(try context.fetch(FetchDescriptor<PersonalJourney>()).count == 3)
    }

    @Test func relationshipsToABaseClassHoldModelsOfItsSubclasses() throws {
        do {
            let context = ModelContext(try container())
            let summit = BusinessJourney(name: "Summit", start: day, company: "Acme", perDiem: 80)
            let leg = Leg(place: "Geneva")
            summit.legs.append(leg)
            let ana = Traveller(name: "Ana")
            ana.favourite = summit
            context.insert(ana)
            try context.save()
        }
        let context = ModelContext(try container())
        let leg = try #require(try context.fetch(FetchDescriptor<Leg>()).first)
        let journey = try #require(leg.journey as? BusinessJourney)
        #expect(journey.company == "Acme")
        #expect(journey.legs.map(\.place) == ["Geneva"])
        let ana = try #require(try context.fetch(FetchDescriptor<Traveller>()).first)
        #expect(ana.favourite === journey)
        // A query through the relationship reads the subclass's own property.
        let through = try context.fetch(
            FetchDescriptor<Traveller>(predicate: #Predicate { $0.favourite?.perDiem == 80 }))
        #expect(through.map(\.name) == ["Ana"])
        // The cascade of the base's relationship applies to the subclass.
        context.delete(journey)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Leg>()) == 0)
        #expect(try context.fetchCount(FetchDescriptor<Journey>()) == 0)
    }

    @Test func deleteWithoutSubclassesLeavesThem() throws {
        try saveOneOfEach()
        let context = ModelContext(try container())
        try context.delete(model: PersonalJourney.self, includeSubclasses: false)
        try context.save()
        #expect(
            try context.fetch(FetchDescriptor<Journey>(sortBy: [SortDescriptor(\.name)])).map(\.name) == [
                "Coast", "Summit", "Weekend",
            ])
        try context.delete(model: Journey.self)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Journey>()) == 0)
    }

    @Test func changesToInheritedAndOwnPropertiesAreSavedAndObserved() throws {
        try saveOneOfEach()
        let context = ModelContext(try container())
        let summit = try #require(try context.fetch(FetchDescriptor<BusinessJourney>()).first)
        nonisolated(unsafe) var heard = 0
        withObservationTracking {
            _ = summit.perDiem
        } onChange: {
            heard += 1
        }
        withObservationTracking {
            _ = summit.name
        } onChange: {
            heard += 1
        }
        summit.perDiem = 95
        summit.name = "Summit 2026"
        #expect(heard == 2)
        #expect(summit.hasChanges)
        try context.save()
        let again = try #require(try ModelContext(try container()).fetch(FetchDescriptor<BusinessJourney>()).first)
        #expect(again.perDiem == 95 && again.name == "Summit 2026" && again.company == "Acme")
    }

    @Test func aSubclassWithConditionalPropertiesSavesAndLoadsThem() throws {
        let container = try ModelContainer(
            for: Journey.self, NightJourney.self, configurations: ModelConfiguration(url: folder.url, durability: .none)
        )
        let context = ModelContext(container)
        context.insert(NightJourney(name: "Aurora", start: day, lamps: 5))
        try context.save()
        let night = try #require(try ModelContext(container).fetch(FetchDescriptor<Journey>()).first as? NightJourney)
        #expect(night.name == "Aurora" && night.lamps == 5)
        #expect(NightJourney.schemaEntity.properties.map(\.name) == ["name", "start", "legs", "lamps"])
    }

    @Test func aSubclassEntityDescribesItsInheritedPropertiesFirst() {
        let entity = BusinessJourney.schemaEntity
        #expect(entity.name == "BusinessJourney")
        #expect(entity.superentityName == "Journey" && entity.storageName == "Journey")
        #expect(entity.properties.map(\.name) == ["name", "start", "legs", "company", "perDiem"])
        #expect(FamilyJourney.schemaEntity.storageName == "Journey")
        #expect(
            Schema([FamilyJourney.self]).entityNames(inheritingFrom: "Journey").sorted() == [
                "FamilyJourney", "Journey", "PersonalJourney",
            ])
    }
}

enum FleetV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Vehicle.self, Truck.self] }

    @Model class Vehicle {
        var plate: String
        init(plate: String) { self.plate = plate }
    }

    @Model final class Truck: Vehicle {
        var tonnes: Int
        init(plate: String, tonnes: Int) {
            self.tonnes = tonnes
            super.init(plate: plate)
        }
    }
}

enum FleetV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Vehicle.self, Truck.self] }

    @Model class Vehicle {
        @Attribute(originalName: "plate") var registration: String
        init(registration: String) { self.registration = registration }
    }

    @Model final class Truck: Vehicle {
        var tonnes: Int
        var axles = 2
        init(registration: String, tonnes: Int) {
            self.tonnes = tonnes
            super.init(registration: registration)
        }
    }
}

enum FleetPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [FleetV1.self, FleetV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: FleetV1.self, toVersion: FleetV2.self)] }
}

/// A migration of a hierarchy: each entity's own stage operations change its documents,
/// which stay in the root's folder.
struct ModelInheritanceMigrationTests {
    @Test func aLightweightStageMigratesTheDocumentsOfEachEntityOfAHierarchy() throws {
        let folder = try TemporaryDirectory()
        do {
            let context = ModelContext(
                try ModelContainer(
                    for: FleetV1.Vehicle.self, FleetV1.Truck.self, migrationPlan: FleetPlan.self,
                    configurations: ModelConfiguration(url: folder.url, durability: .none)))
            context.insert(FleetV1.Vehicle(plate: "B-1"))
            context.insert(FleetV1.Truck(plate: "T-9", tonnes: 12))
            try context.save()
        }
        let context = ModelContext(
            try ModelContainer(
                for: FleetV2.Vehicle.self, FleetV2.Truck.self, migrationPlan: FleetPlan.self,
                configurations: ModelConfiguration(url: folder.url, durability: .none)))
        let vehicles = try context.fetch(FetchDescriptor<FleetV2.Vehicle>(sortBy: [SortDescriptor(\.registration)]))
        #expect(vehicles.map(\.registration) == ["B-1", "T-9"])
        let truck = try #require(vehicles.last as? FleetV2.Truck)
        #expect(truck.tonnes == 12 && truck.axles == 2)
        let store = try DocumentStore.open(at: folder.path)
        #expect(
            store.documents(entity: "Vehicle").allSatisfy {
                $0.content["$version"] == "2.0.0" && $0.content["plate"] == nil
            })
        #expect(store.documents(entity: "Truck").map { $0.content["$entity"] } == ["Truck"])
        #expect(store.check().filter { $0.severity == .error }.isEmpty)
    }
}
