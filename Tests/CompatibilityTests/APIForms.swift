import Folio
import FolioTestSupport
import Foundation
import Testing

@Model
final class Trip {
    var name: String
    var start: Date
    init(name: String, start: Date) {
        self.name = name
        self.start = start
    }
}

extension FetchDescriptor where T == Trip {
    /// Apps extend the descriptor by SwiftData's name for its generic parameter.
    static var byName: FetchDescriptor<Trip> { FetchDescriptor(sortBy: [SortDescriptor(\.name)]) }
}

@ModelActor
actor TripReader {
    func name(of id: PersistentIdentifier) -> String? { self[id, as: Trip.self]?.name }
}

/// SwiftData's API as apps call it, compiling and working the same.
struct APIFormTests {
    @Test func configurationsForModelTypesWithGroupAndCloudKitArguments() throws {
        let memory = ModelConfiguration(for: Trip.self, isStoredInMemoryOnly: true)
        #expect(memory.isStoredInMemoryOnly && memory.schema?.entity(named: "Trip") != nil)
        let shared = ModelConfiguration(
            schema: Schema([Trip.self]), isStoredInMemoryOnly: true, groupContainer: .identifier("group.app"),
            cloudKitDatabase: .automatic)
        #expect(shared.cloudKitDatabase == .automatic && shared.groupContainer == .identifier("group.app"))
        let container = try ModelContainer(for: Trip.self, configurations: memory)
        #expect(container.configurations.first?.isStoredInMemoryOnly == true)
        #expect(container.migrationPlan == nil)
        #expect(container.schema.entitiesByName["Trip"]?.name == "Trip")
        let context = ModelContext(container)
        context.processPendingChanges()
        context.insert(Trip(name: "Rome", start: Date()))
        context.insert(Trip(name: "Oslo", start: Date()))
        #expect(try context.fetch(.byName).map(\.name) == ["Oslo", "Rome"])
    }

    @Test func modelForAnIdentityIsTheModelOrAPlaceholderAndTheActorSubscriptIsOptional() async throws {
        let folder = try TemporaryDirectory()
        let container = try ModelContainer(
            for: Trip.self, configurations: ModelConfiguration(url: folder.url, durability: .none))
        let context = ModelContext(container)
        let trip = Trip(name: "Lima", start: Date())
        context.insert(trip)
        try context.save()
        let id = trip.persistentModelID
        #expect(ModelContext(container).model(for: id) is Trip)
        #expect((ModelContext(container).model(for: id) as? Trip)?.name == "Lima")
        let missing = PersistentIdentifier(entityName: "Trip", id: UUID())
        #expect(ModelContext(container).model(for: missing).persistentModelID == missing)
        let reader = TripReader(modelContainer: container)
        #expect(await reader.name(of: id) == "Lima")
        #expect(await reader.name(of: missing) == nil)
    }

    @Test func swiftDataErrorsAreCaughtByTheirSwiftDataNames() throws {
        let folder = try TemporaryDirectory()
        try Data("not a manifest".utf8).write(to: folder.url.appending(path: "folio.json"))
        var caught = ""
        do {
            _ = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: folder.url))
        } catch SwiftDataError.loadIssueModelContainer {
            caught = "load"
        } catch {
            caught = "other: \(error)"
        }
        #expect(caught == "load")

        let readOnly = ModelContext(
            try ModelContainer(
                for: Trip.self,
                configurations: ModelConfiguration(for: Trip.self, isStoredInMemoryOnly: true, allowsSave: false)))
        readOnly.insert(Trip(name: "Nowhere", start: Date()))
        do {
            try readOnly.save()
            Issue.record("a read-only context saved")
        } catch {
            switch error {
            case .loadIssueModelContainer, .modelValidationFailure: Issue.record("matched the wrong name: \(error)")
            case .missingModelContext: break
            default: Issue.record("matched no name: \(error)")
            }
        }
    }

    @Test func aBatchedFetchReadsLikeAnArrayAndEraseEmptiesTheStore() throws {
        let folder = try TemporaryDirectory()
        let container = try ModelContainer(
            for: Trip.self, configurations: ModelConfiguration(url: folder.url, durability: .none))
        let context = ModelContext(container)
        for number in 0..<25 { context.insert(Trip(name: String(format: "T%02d", number), start: Date())) }
        try context.save()

        let reading = ModelContext(container)
        let trips = try reading.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]), batchSize: 10)
        #expect(trips.count == 25 && trips.batchSize == 10)
        #expect(trips.map(\.name) == (0..<25).map { String(format: "T%02d", $0) })
        #expect(trips[24] === trips[24] && trips[3] === reading.model(for: trips[3].persistentModelID))

        try container.erase()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 0)
        #expect(FileManager.default.fileExists(atPath: folder("folio.json")))
        let reopened = try ModelContainer(
            for: Trip.self, configurations: ModelConfiguration(url: folder.url, durability: .none))
        #expect(try ModelContext(reopened).fetchCount(FetchDescriptor<Trip>()) == 0)
        ModelContext(reopened).insert(Trip(name: "Again", start: Date()))
        reopened.deleteAllData()
        #expect(try ModelContext(reopened).fetchCount(FetchDescriptor<Trip>()) == 0)
    }

    @Test func eraseOfAContainerOpenedWithoutSavesIsRefusedAndErasesNothing() throws {
        let folder = try TemporaryDirectory()
        let writer = try ModelContainer(
            for: Trip.self, configurations: ModelConfiguration(url: folder.url, durability: .none))
        let context = ModelContext(writer)
        context.insert(Trip(name: "Kept", start: Date()))
        try context.save()

        let readOnly = try ModelContainer(
            for: Trip.self, configurations: ModelConfiguration(url: folder.url, allowsSave: false))
        let refusal = #expect(throws: FolioError.self) { try readOnly.erase() }
        #expect(refusal?.kind == .misuse, "\(String(describing: refusal))")
        readOnly.deleteAllData()
        #expect(try ModelContext(readOnly).fetch(FetchDescriptor<Trip>()).map(\.name) == ["Kept"])
    }

    @Test func modelForAnIdentityNotStoredGivesAPlaceholderForAModelWithLets() throws {
        let container = try ModelContainer(
            for: Badge.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let missing = PersistentIdentifier(entityName: "Badge", id: UUID())
        let placeholder = ModelContext(container).model(for: missing)
        #expect(placeholder is Badge && placeholder.persistentModelID == missing)
    }

    @Test func identifiersFetchedInBatchesStoreIdentifiersAndTheBatchSizeErrorName() throws {
        let container = try ModelContainer(
            for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        for name in ["Oslo", "Rome", "Lima"] { context.insert(Trip(name: name, start: Date())) }
        try context.save()
        var descriptor = FetchDescriptor<Trip>.byName
        descriptor.includePendingChanges = false
        let identifiers = try context.fetchIdentifiers(descriptor, batchSize: 2)
        #expect(identifiers.count == 3)
        #expect(identifiers.map { (context.model(for: $0) as? Trip)?.name } == ["Lima", "Oslo", "Rome"])
        #expect(identifiers.allSatisfy { $0.storeIdentifier == nil })
        var caught = false
        do {
            throw SwiftDataError.includePendingChangesWithBatchSize
        } catch SwiftDataError.includePendingChangesWithBatchSize {
            caught = true
        }
        #expect(caught)
    }
}
