import Folio
import FolioTestSupport
import Foundation
import Testing

@Model
final class Lantern {
    @Attribute(.spotlight, .allowsCloudEncryption, hashModifier: "v2") var name: String
    @Attribute(.preserveValueOnDeletion) var serial: String
    var lumens: Int
    @Relationship(deleteRule: .cascade, minimumModelCount: 0, maximumModelCount: 3, hashModifier: "v1")
    var wicks: [Wick] = []
    init(name: String, serial: String, lumens: Int) {
        self.name = name
        self.serial = serial
        self.lumens = lumens
    }
}

@Model
final class Wick {
    var length: Double
    var lantern: Lantern?
    init(length: Double) { self.length = length }
}

/// SwiftData symbols no other compatibility test uses, used as app code uses them.
struct SwiftDataSurfaceTests {
    func store() throws -> (TemporaryDirectory, ModelContainer) {
        let folder = try TemporaryDirectory()
        let container = try ModelContainer(
            for: Lantern.self, configurations: ModelConfiguration(url: folder.url, durability: .none))
        return (folder, container)
    }

    @Test func spotlightCloudEncryptionAndHashModifiersAreAcceptedAndStoreAsWithout() throws {
        let (folder, container) = try store()
        defer { withExtendedLifetime(folder) {} }
        let context = ModelContext(container)
        context.insert(Lantern(name: "Storm", serial: "S-1", lumens: 300))
        try context.save()
        let name = try #require(Lantern.schemaEntity.attributesByName["name"])
        #expect(name.options.contains(.spotlight) && name.options.contains(.allowsCloudEncryption))
        #expect(try ModelContext(container).fetch(FetchDescriptor<Lantern>()).map(\.name) == ["Storm"])
    }

    @Test func aSchemaDescribesItsVersionEntitiesAttributesAndRelationships() throws {
        let schema = Schema([Lantern.self], version: Schema.Version(2, 1, 0))
        #expect((schema.version.major, schema.version.minor, schema.version.patch) == (2, 1, 0))
        #expect(Schema().entities.isEmpty)
        #expect(schema.entities.map(\.name).sorted() == ["Lantern", "Wick"])
        let lantern = try #require(schema.entitiesByName["Lantern"])
        #expect(lantern.attributes.map(\.name) == ["name", "serial", "lumens"])
        #expect(lantern.relationships.map(\.name) == ["wicks"])
        #expect(lantern.properties.map(\.name) == ["name", "serial", "lumens", "wicks"])
        let name = try #require(lantern.attributesByName["name"])
        #expect(name.valueType == "String" && name.originalName == nil && !name.isOptional)
        let wicks = try #require(lantern.relationshipsByName["wicks"])
        #expect(wicks.destination == "Wick" && wicks.deleteRule == .cascade && wicks.inverseName == "lantern")
        #expect(wicks.minimumModelCount == 0 && wicks.maximumModelCount == 3 && !wicks.isUnique)
        #expect(!wicks.isToOneRelationship && wicks.originalName == nil)
        let lanternSide = try #require(schema.entitiesByName["Wick"]?.relationshipsByName["lantern"])
        #expect(lanternSide.isToOneRelationship && lanternSide.isOptional)
    }

    @Test func uniquenessAndIndexDescriptionsHoldTheirKeyPaths() {
        let unique = Schema.Unique<Lantern>([\.name, \.serial], [\.serial])
        #expect(unique.constraints.count == 2 && unique.constraints[0] == [\Lantern.name, \Lantern.serial])
        let index = Schema.Index<Lantern>([\.lumens], [\.name, \.serial])
        #expect(index.indices == [.binary([\.lumens]), .binary([\.name, \.serial])])
        #expect(Schema.Index<Lantern>(.rtree([\.lumens])).indices == [.rtree([\.lumens])])
    }

    @Test func propertyMetadataMadeByHandKeepsWhatItIsGiven() {
        let metadata = Schema.PropertyMetadata(name: "lumens", keypath: \Lantern.lumens, defaultValue: 100)
        #expect(metadata.name == "lumens" && metadata.keypath == \Lantern.lumens)
        #expect(metadata.defaultValue as? Int == 100 && metadata.metadata == nil)
        #expect(Lantern.schemaMetadata.map(\.name) == ["name", "serial", "lumens", "wicks"])
    }

    @Test func aToManyCollectionNamesTheTypeOfItsModels() {
        func relatedType<C: RelationshipCollection>(of _: C.Type) -> ObjectIdentifier {
            ObjectIdentifier(C.PersistentElement.self)
        }
        #expect(relatedType(of: [Wick].self) == ObjectIdentifier(Wick.self))
        #expect(relatedType(of: [Wick]?.self) == ObjectIdentifier(Wick.self))
        #expect(ObjectIdentifier([Lantern].PersistentElement.self) == ObjectIdentifier(Lantern.self))
    }

    @Test func prefetchingOptionsAreAcceptedAndTheFetchReturnsWholeModels() throws {
        let (folder, container) = try store()
        defer { withExtendedLifetime(folder) {} }
        let context = ModelContext(container)
        let lantern = Lantern(name: "Camp", serial: "C-3", lumens: 80)
        context.insert(lantern)
        lantern.wicks = [Wick(length: 4)]
        try context.save()
        var descriptor = FetchDescriptor<Lantern>()
        descriptor.propertiesToFetch = [\.name]
        descriptor.relationshipKeyPathsForPrefetching = [\.wicks]
        let fetched = try #require(try ModelContext(container).fetch(descriptor).first)
        #expect(fetched.lumens == 80 && fetched.wicks.map(\.length) == [4])
    }

    @Test func aDidSaveNotificationCarriesNoInvalidationOrQueryGeneration() throws {
        let (folder, container) = try store()
        defer { withExtendedLifetime(folder) {} }
        let context = ModelContext(container)
        let heard = HeardKeys()
        let observer = NotificationCenter.default.addObserver(
            forName: ModelContext.didSave, object: context, queue: nil
        ) { notification in
            heard.keys = (notification.userInfo ?? [:]).keys.compactMap { $0 as? String }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        context.insert(Lantern(name: "Desk", serial: "D-4", lumens: 40))
        try context.save()
        #expect(heard.keys.contains(ModelContext.NotificationKey.insertedIdentifiers.rawValue))
        #expect(!heard.keys.contains(ModelContext.NotificationKey.invalidatedAllIdentifiers.rawValue))
        #expect(!heard.keys.contains(ModelContext.NotificationKey.queryGeneration.rawValue))
    }

    @Test func anIdentityIsItsModelsUUIDAndNamesNoStore() throws {
        let (folder, container) = try store()
        defer { withExtendedLifetime(folder) {} }
        let context = ModelContext(container)
        let lantern = Lantern(name: "Pocket", serial: "P-5", lumens: 20)
        context.insert(lantern)
        try context.save()
        let identity = lantern.persistentModelID
        let copy = PersistentIdentifier(entityName: identity.entityName, id: identity.id)
        #expect(copy == identity && identity.storeIdentifier == nil)
        #expect((context.model(for: copy) as? Lantern)?.serial == "P-5")
    }

    @Test func historyChangesReadThroughSwiftDataProtocolsAndTypes() throws {
        let (folder, container) = try store()
        defer { withExtendedLifetime(folder) {} }
        let context = ModelContext(container)
        let lantern = Lantern(name: "Signal", serial: "G-6", lumens: 500)
        context.insert(lantern)
        try context.save()
        lantern.lumens = 550
        try context.save()
        context.delete(lantern)
        try context.save()

        func identity(of change: some HistoryInsert) -> PersistentIdentifier { change.changedPersistentIdentifier }
        func attributeCount<U: HistoryUpdate>(of change: U) -> Int {
            let keyPaths: [U.PropertyUpdate] = change.updatedAttributes
            return keyPaths.count
        }
        func serial<D: HistoryDelete>(of change: D) -> String? where D.Model == Lantern {
            change.tombstone[\.serial] as? String
        }
        let transactions = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        var read: [String] = []
        for transaction in transactions {
            for change in transaction.changes {
                switch change {
                case .insert(let insert):
                    read.append(identity(of: insert) == lantern.persistentModelID ? "insert" : "?")
                case .update(let update): read.append("update \(attributeCount(of: update))")
                case .delete(let delete as DefaultHistoryDelete<Lantern>):
                    read.append("delete \(serial(of: delete) ?? "")")
                case .delete: read.append("delete ?")
                }
            }
        }
        #expect(read == ["insert", "update 1", "delete G-6"])
        let tokens = transactions.map(\.token)
        #expect(tokens == tokens.sorted())
        let encoded = try JSONEncoder().encode(tokens.last)
        #expect(try JSONDecoder().decode(DefaultHistoryToken.self, from: encoded) == tokens.last)
        #expect(transactions.map(\.id) == transactions.map(\.transactionIdentifier))
    }

    @Test func aDefaultExecutorKnowsItIsRunningItsActorsJobs() async throws {
        let (folder, container) = try store()
        defer { withExtendedLifetime(folder) {} }
        let counter = LanternCounter(modelContainer: container)
        #expect(try await counter.countOnItsExecutor() == 0)
    }

    @Test func swiftDataErrorNamesCatchTheFolioErrorsTheyStandFor() throws {
        let (folder, container) = try store()
        defer { withExtendedLifetime(folder) {} }
        var caught: [String] = []
        do {
            _ = try ModelContext(container).fetchHistory(HistoryDescriptor<OtherTransaction>())
        } catch SwiftDataError.invalidTransactionFetchRequest {
            caught.append("invalidTransactionFetchRequest")
        } catch {
            caught.append("other: \(error)")
        }
        for name in [SwiftDataError.unsupportedKeyPath, .historyTokenExpired, .unsupportedPredicate] {
            if name ~= FolioError(.misuse, "a key path Folio cannot follow") { caught.append("misuse") }
        }
        #expect(caught == ["invalidTransactionFetchRequest", "misuse", "misuse"])
    }
}

/// A model actor that checks, on its own executor, that it is isolated there.
@ModelActor
actor LanternCounter {
    func countOnItsExecutor() throws -> Int {
        (modelExecutor as? DefaultSerialModelExecutor)?.checkIsolated()
        return try modelContext.fetchCount(FetchDescriptor<Lantern>())
    }
}

/// The keys of the `userInfo` a notification carried.
final class HeardKeys: @unchecked Sendable {
    var keys: [String] = []
}

/// A transaction type of an app's own, which Folio's history cannot fetch.
struct OtherTransaction: HistoryTransaction {
    /// A position in the app's own history.
    struct Token: Comparable, Hashable, Identifiable, Sendable {
        var id: Int
        static func < (lhs: Token, rhs: Token) -> Bool { lhs.id < rhs.id }
    }
    var id: Int { 0 }
    var timestamp: Date { .distantPast }
    var changes: [HistoryChange] { [] }
    var token: Token { Token(id: 0) }
    var transactionIdentifier: Int { 0 }
    var storeIdentifier: String { "" }
    var author: String? { nil }
}
