import Folio
import Foundation

// Every SwiftData symbol that `docs/swiftdata.md` marks Y or partly, named here in a form the
// compiler checks: a type, a member read, a function or initializer called or referenced with
// its labels. A symbol the page claims and Folio lacks stops the build. Each check follows a
// `// symbol: Name` line giving the page's name for it; `SwiftDataSymbolListTests` compares
// those lines with the page. Nothing here runs: the functions are only compiled.

/// A value stored whole through its `Codable` conformance.
struct SymbolTint: Codable, Hashable {
    var red = 0.0
    var green = 0.0
}

// symbol: @Model
@Model
final class SymbolLamp {
    // symbol: #Unique
    #Unique<SymbolLamp>([\.name, \.watts])
    // symbol: #Index
    #Index<SymbolLamp>(.binary([\.name]), .rtree([\.latitude, \.longitude]))

    // symbol: @Attribute
    @Attribute(.spotlight, .allowsCloudEncryption, originalName: "title", hashModifier: "2") var name: String
    @Attribute(.preserveValueOnDeletion) var serial: String
    @Attribute(.codable) var tint: SymbolTint
    var watts: Int
    var latitude = 0.0
    var longitude = 0.0
    // symbol: @Relationship
    @Relationship(deleteRule: .cascade, minimumModelCount: 0, maximumModelCount: 4, hashModifier: "1")
    var shades: [SymbolShade] = []
    // symbol: @Transient
    @Transient var glowCache = 0

    init(name: String, serial: String, watts: Int) {
        self.name = name
        self.serial = serial
        self.watts = watts
        tint = SymbolTint()
    }
}

@Model
final class SymbolShade {
    var fabric: String
    var lamp: SymbolLamp?
    init(fabric: String) { self.fabric = fabric }
}

// symbol: @ModelActor
@ModelActor
actor SymbolLampWriter {
    func name(of id: PersistentIdentifier) -> String? { self[id, as: SymbolLamp.self]?.name }
}

/// The migration plan the container symbols name.
enum SymbolSchemaV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [SymbolLamp.self, SymbolShade.self] }
}

enum SymbolPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [SymbolSchemaV1.self] }
    static var stages: [MigrationStage] { [] }
}

/// Models and their values.
func symbolModels<M: PersistentModel>(_ model: M, lamp: SymbolLamp) {
    // symbol: PersistentModel
    _ = M.self as any PersistentModel.Type
    // symbol: PersistentModel.persistentModelID
    _ = model.persistentModelID
    // symbol: PersistentModel.modelContext
    _ = model.modelContext
    // symbol: PersistentModel.hasChanges
    _ = model.hasChanges
    // symbol: PersistentModel.isDeleted
    _ = model.isDeleted
    // symbol: PersistentModel.persistentBackingData
    let data = model.persistentBackingData
    // symbol: PersistentModel.init(backingData:)
    _ = M(backingData: data)
    // symbol: PersistentModel.schemaMetadata
    _ = M.schemaMetadata
    // symbol: PersistentModel.getValue(forKey:)
    _ = lamp.getValue(forKey: \.name)
    // symbol: PersistentModel.setValue(forKey:to:)
    lamp.setValue(forKey: \.watts, to: 40)
    // symbol: PersistentModel.getTransformableValue(forKey:)
    _ = lamp.getTransformableValue(forKey: \.tint)
    // symbol: PersistentModel.setTransformableValue(forKey:to:)
    lamp.setTransformableValue(forKey: \.tint, to: SymbolTint())
    // symbol: Schema.PropertyMetadata
    // symbol: Schema.PropertyMetadata.init(name:keypath:defaultValue:metadata:)
    let metadata = Schema.PropertyMetadata(name: "name", keypath: \SymbolLamp.name, defaultValue: nil, metadata: nil)
    // symbol: Schema.PropertyMetadata.name
    _ = metadata.name
    // symbol: Schema.PropertyMetadata.keypath
    _ = metadata.keypath
    // symbol: Schema.PropertyMetadata.defaultValue
    _ = metadata.defaultValue
    // symbol: Schema.PropertyMetadata.metadata
    _ = metadata.metadata
}

/// The element type a to-many relationship's collection names.
func symbolRelationshipCollection<C: RelationshipCollection>(_: C.Type) {
    // symbol: RelationshipCollection
    // symbol: RelationshipCollection.PersistentElement
    _ = C.PersistentElement.self
    // symbol: Array.PersistentElement
    _ = [SymbolShade].PersistentElement.self
}

/// The schema and its descriptions.
func symbolSchema(_ entity: Schema.Entity, _ attribute: Schema.Attribute, _ relationship: Schema.Relationship) {
    // symbol: Schema
    // symbol: Schema.init(_:version:)
    let schema = Schema([SymbolLamp.self], version: Schema.Version(1, 0, 0))
    // symbol: Schema.init()
    _ = Schema()
    // symbol: Schema.init(versionedSchema:)
    _ = Schema(versionedSchema: SymbolSchemaV1.self)
    // symbol: Schema.entities
    _ = schema.entities
    // symbol: Schema.entitiesByName
    _ = schema.entitiesByName
    // symbol: Schema.entity(for:)
    _ = schema.entity(for: SymbolLamp.self)
    // symbol: Schema.entityName(for:)
    _ = Schema.entityName(for: SymbolLamp.self)
    // symbol: Schema.version
    _ = schema.version
    // symbol: Schema.Version
    // symbol: Schema.Version.init(_:_:_:)
    let version = Schema.Version(2, 1, 0)
    // symbol: Schema.Version.major
    _ = version.major
    // symbol: Schema.Version.minor
    _ = version.minor
    // symbol: Schema.Version.patch
    _ = version.patch
    // symbol: Schema.Entity
    // symbol: Schema.Entity.properties
    _ = entity.properties
    // symbol: Schema.Entity.attributes
    _ = entity.attributes
    // symbol: Schema.Entity.relationships
    _ = entity.relationships
    // symbol: Schema.Entity.name
    _ = entity.name
    // symbol: Schema.Entity.attributesByName
    _ = entity.attributesByName
    // symbol: Schema.Entity.relationshipsByName
    _ = entity.relationshipsByName
    // symbol: Schema.Entity.uniquenessConstraints
    _ = entity.uniquenessConstraints
    // symbol: Schema.Entity.superentity
    _ = entity.superentity
    // symbol: Schema.Entity.superentityName
    _ = entity.superentityName
    // symbol: Schema.Entity.subentities
    _ = entity.subentities
    // symbol: Schema.Entity.indices
    _ = entity.indices
    // symbol: Schema.Attribute
    // symbol: Schema.Attribute.originalName
    _ = attribute.originalName
    // symbol: Schema.Attribute.valueType
    _ = attribute.valueType
    // symbol: Schema.Attribute.name
    _ = attribute.name
    // symbol: Schema.Attribute.options
    _ = attribute.options
    // symbol: Schema.Attribute.defaultValue
    _ = attribute.defaultValue
    // symbol: Schema.Attribute.isOptional
    _ = attribute.isOptional
    // symbol: Schema.Attribute.isUnique
    _ = attribute.isUnique
    // symbol: Schema.Attribute.isTransformable
    _ = attribute.isTransformable
    // symbol: Schema.Attribute.isCodable
    _ = attribute.isCodable
    // symbol: Schema.Attribute.Option
    let options: [Schema.Attribute.Option] = [
        // symbol: Schema.Attribute.Option.unique
        .unique,
        // symbol: Schema.Attribute.Option.externalStorage
        .externalStorage,
        // symbol: Schema.Attribute.Option.ephemeral
        .ephemeral,
        // symbol: Schema.Attribute.Option.transformable(by:)
        .transformable(by: "SymbolTransformer"),
        // symbol: Schema.Attribute.Option.preserveValueOnDeletion
        .preserveValueOnDeletion,
        // symbol: Schema.Attribute.Option.spotlight
        .spotlight,
        // symbol: Schema.Attribute.Option.allowsCloudEncryption
        .allowsCloudEncryption,
        // symbol: Schema.Attribute.Option.codable
        .codable,
    ]
    _ = options
    // symbol: Schema.Relationship
    // symbol: Schema.Relationship.originalName
    _ = relationship.originalName
    // symbol: Schema.Relationship.name
    _ = relationship.name
    // symbol: Schema.Relationship.destination
    _ = relationship.destination
    // symbol: Schema.Relationship.deleteRule
    _ = relationship.deleteRule
    // symbol: Schema.Relationship.inverseName
    _ = relationship.inverseName
    // symbol: Schema.Relationship.keypath
    _ = relationship.keypath
    // symbol: Schema.Relationship.isToOneRelationship
    _ = relationship.isToOneRelationship
    // symbol: Schema.Relationship.isOptional
    _ = relationship.isOptional
    // symbol: Schema.Relationship.isUnique
    _ = relationship.isUnique
    // symbol: Schema.Relationship.minimumModelCount
    _ = relationship.minimumModelCount
    // symbol: Schema.Relationship.maximumModelCount
    _ = relationship.maximumModelCount
    // symbol: Schema.Relationship.DeleteRule
    let rules: [Schema.Relationship.DeleteRule] = [
        // symbol: Schema.Relationship.DeleteRule.nullify
        .nullify,
        // symbol: Schema.Relationship.DeleteRule.cascade
        .cascade,
        // symbol: Schema.Relationship.DeleteRule.deny
        .deny,
        // symbol: Schema.Relationship.DeleteRule.noAction
        .noAction,
    ]
    _ = rules
    // symbol: Schema.Relationship.Option
    // symbol: Schema.Relationship.Option.unique
    _ = Schema.Relationship.Option.unique
    // symbol: Schema.Index
    // symbol: Schema.Index.init(_:)
    let index = Schema.Index<SymbolLamp>([\.name], [\.watts])
    // symbol: Schema.Index.indices
    _ = index.indices
    // symbol: Schema.Index.Types
    let kinds: [Schema.Index<SymbolLamp>.Types<SymbolLamp>] = [
        // symbol: Schema.Index.Types.binary(_:)
        .binary([\.name]),
        // symbol: Schema.Index.Types.rtree(_:)
        .rtree([\.latitude, \.longitude]),
    ]
    _ = Schema.Index<SymbolLamp>(kinds[0], kinds[1])
    // symbol: Schema.Unique
    // symbol: Schema.Unique.init(_:)
    let unique = Schema.Unique<SymbolLamp>([\.name, \.watts])
    // symbol: Schema.Unique.constraints
    _ = unique.constraints
}

/// Containers, configurations and migration plans.
@MainActor
func symbolContainers(url: URL) throws {
    // symbol: ModelConfiguration
    // symbol: ModelConfiguration.init(_:schema:isStoredInMemoryOnly:allowsSave:groupContainer:cloudKitDatabase:)
    let configuration = ModelConfiguration(
        "lamps", schema: Schema([SymbolLamp.self]), isStoredInMemoryOnly: true, allowsSave: true,
        groupContainer: .automatic, cloudKitDatabase: .none)
    // symbol: ModelConfiguration.init(_:schema:url:allowsSave:cloudKitDatabase:)
    _ = ModelConfiguration("lamps", schema: nil, url: url, allowsSave: false, cloudKitDatabase: .automatic)
    // symbol: ModelConfiguration.init(for:isStoredInMemoryOnly:)
    _ = ModelConfiguration(for: SymbolLamp.self, SymbolShade.self, isStoredInMemoryOnly: true)
    // symbol: ModelConfiguration.init(isStoredInMemoryOnly:)
    _ = ModelConfiguration(isStoredInMemoryOnly: true)
    // symbol: ModelConfiguration.name
    _ = configuration.name
    // symbol: ModelConfiguration.schema
    _ = configuration.schema
    // symbol: ModelConfiguration.url
    _ = configuration.url
    // symbol: ModelConfiguration.isStoredInMemoryOnly
    _ = configuration.isStoredInMemoryOnly
    // symbol: ModelConfiguration.allowsSave
    _ = configuration.allowsSave
    // symbol: ModelConfiguration.cloudKitDatabase
    _ = configuration.cloudKitDatabase
    // symbol: ModelConfiguration.groupContainer
    _ = configuration.groupContainer
    // symbol: ModelConfiguration.CloudKitDatabase
    let databases: [ModelConfiguration.CloudKitDatabase] = [
        // symbol: ModelConfiguration.CloudKitDatabase.automatic
        .automatic,
        // symbol: ModelConfiguration.CloudKitDatabase.none
        .none,
        // symbol: ModelConfiguration.CloudKitDatabase.private(_:)
        .private("iCloud.lamps"),
    ]
    _ = databases
    // symbol: ModelConfiguration.GroupContainer
    let groups: [ModelConfiguration.GroupContainer] = [
        // symbol: ModelConfiguration.GroupContainer.automatic
        .automatic,
        // symbol: ModelConfiguration.GroupContainer.none
        .none,
        // symbol: ModelConfiguration.GroupContainer.identifier(_:)
        .identifier("group.lamps"),
    ]
    _ = groups
    // symbol: ModelContainer
    // symbol: ModelContainer.init(for:migrationPlan:configurations:)
    let container = try ModelContainer(
        for: SymbolLamp.self, SymbolShade.self, migrationPlan: SymbolPlan.self, configurations: configuration)
    // symbol: ModelContainer.init(for:configurations:)
    _ = try ModelContainer(for: Schema([SymbolLamp.self]), configurations: [configuration])
    // symbol: ModelContainer.schema
    _ = container.schema
    // symbol: ModelContainer.configurations
    _ = container.configurations
    // symbol: ModelContainer.migrationPlan
    _ = container.migrationPlan
    // symbol: ModelContainer.mainContext
    _ = container.mainContext
    // symbol: ModelContainer.deleteAllData()
    container.deleteAllData()
    // symbol: ModelContainer.erase()
    try container.erase()
    // symbol: VersionedSchema
    // symbol: VersionedSchema.versionIdentifier
    _ = SymbolSchemaV1.versionIdentifier
    // symbol: VersionedSchema.models
    _ = SymbolSchemaV1.models
    // symbol: SchemaMigrationPlan
    // symbol: SchemaMigrationPlan.schemas
    _ = SymbolPlan.schemas
    // symbol: SchemaMigrationPlan.stages
    _ = SymbolPlan.stages
    // symbol: MigrationStage
    let stages: [MigrationStage] = [
        // symbol: MigrationStage.lightweight(fromVersion:toVersion:)
        .lightweight(fromVersion: SymbolSchemaV1.self, toVersion: SymbolSchemaV1.self),
        // symbol: MigrationStage.custom(fromVersion:toVersion:willMigrate:didMigrate:)
        .custom(fromVersion: SymbolSchemaV1.self, toVersion: SymbolSchemaV1.self, willMigrate: nil, didMigrate: nil),
    ]
    _ = stages
}

/// Contexts, identities and fetches.
func symbolContexts(_ container: ModelContainer, lamp: SymbolLamp) throws {
    // symbol: ModelContext
    // symbol: ModelContext.init(_:)
    let context = ModelContext(container)
    // symbol: ModelContext.container
    _ = context.container
    // symbol: ModelContext.insert(_:)
    context.insert(lamp)
    // symbol: ModelContext.delete(_:)
    context.delete(lamp)
    // symbol: ModelContext.delete(model:where:includeSubclasses:)
    try context.delete(model: SymbolLamp.self, where: #Predicate { $0.watts > 100 }, includeSubclasses: true)
    // symbol: ModelContext.save()
    try context.save()
    // symbol: ModelContext.rollback()
    context.rollback()
    // symbol: ModelContext.transaction(block:)
    try context.transaction { context.insert(lamp) }
    // symbol: ModelContext.hasChanges
    _ = context.hasChanges
    // symbol: ModelContext.autosaveEnabled
    context.autosaveEnabled = false
    // symbol: ModelContext.insertedModelsArray
    _ = context.insertedModelsArray
    // symbol: ModelContext.changedModelsArray
    _ = context.changedModelsArray
    // symbol: ModelContext.deletedModelsArray
    _ = context.deletedModelsArray
    // symbol: ModelContext.registeredModel(for:)
    let registered: SymbolLamp? = context.registeredModel(for: lamp.persistentModelID)
    _ = registered
    // symbol: ModelContext.model(for:)
    _ = context.model(for: lamp.persistentModelID)
    // symbol: ModelContext.processPendingChanges()
    context.processPendingChanges()
    // symbol: FetchDescriptor
    // symbol: FetchDescriptor.init(predicate:sortBy:)
    var descriptor = FetchDescriptor<SymbolLamp>(
        predicate: #Predicate { $0.watts > 0 }, sortBy: [SortDescriptor(\.name)])
    // symbol: FetchDescriptor.predicate
    _ = descriptor.predicate
    // symbol: FetchDescriptor.sortBy
    _ = descriptor.sortBy
    // symbol: FetchDescriptor.fetchLimit
    descriptor.fetchLimit = 10
    // symbol: FetchDescriptor.fetchOffset
    descriptor.fetchOffset = 0
    // symbol: FetchDescriptor.includePendingChanges
    descriptor.includePendingChanges = true
    // symbol: FetchDescriptor.propertiesToFetch
    descriptor.propertiesToFetch = [\.name]
    // symbol: FetchDescriptor.relationshipKeyPathsForPrefetching
    descriptor.relationshipKeyPathsForPrefetching = [\.shades]
    // symbol: ModelContext.fetch(_:)
    _ = try context.fetch(descriptor)
    // symbol: ModelContext.fetch(_:batchSize:)
    // symbol: FetchResultsCollection
    let batched: FetchResultsCollection<SymbolLamp> = try context.fetch(descriptor, batchSize: 5)
    // symbol: FetchResultsCollection.startIndex
    // symbol: FetchResultsCollection.endIndex
    // symbol: FetchResultsCollection.subscript(_:)
    if batched.startIndex < batched.endIndex { _ = batched[batched.startIndex] }
    // symbol: ModelContext.fetchCount(_:)
    _ = try context.fetchCount(descriptor)
    // symbol: ModelContext.fetchIdentifiers(_:)
    _ = try context.fetchIdentifiers(descriptor)
    // symbol: ModelContext.fetchIdentifiers(_:batchSize:)
    _ = try context.fetchIdentifiers(descriptor, batchSize: 5)
    // symbol: ModelContext.enumerate(_:batchSize:allowEscapingMutations:block:)
    try context.enumerate(descriptor, batchSize: 5, allowEscapingMutations: false) { _ = $0.name }
    // symbol: ModelContext.undoManager
    context.undoManager = UndoManager()
    // symbol: ModelContext.willSave
    _ = ModelContext.willSave
    // symbol: ModelContext.didSave
    _ = ModelContext.didSave
    // symbol: ModelContext.NotificationKey
    let keys: [ModelContext.NotificationKey] = [
        // symbol: ModelContext.NotificationKey.insertedIdentifiers
        .insertedIdentifiers,
        // symbol: ModelContext.NotificationKey.updatedIdentifiers
        .updatedIdentifiers,
        // symbol: ModelContext.NotificationKey.deletedIdentifiers
        .deletedIdentifiers,
        // symbol: ModelContext.NotificationKey.invalidatedAllIdentifiers
        .invalidatedAllIdentifiers,
        // symbol: ModelContext.NotificationKey.queryGeneration
        .queryGeneration,
    ]
    _ = keys
    // symbol: ModelContext.author
    context.author = "importer"
    // symbol: PersistentIdentifier
    let identifier: PersistentIdentifier = lamp.persistentModelID
    // symbol: PersistentIdentifier.entityName
    _ = identifier.entityName
    // symbol: PersistentIdentifier.id
    _ = identifier.id
    // symbol: PersistentIdentifier.storeIdentifier
    _ = identifier.storeIdentifier
    // symbol: #Predicate
    _ = #Predicate<SymbolLamp> { $0.name.localizedStandardContains("desk") }
}

/// Model actors and executors.
func symbolConcurrency<A: ModelActor>(_ actor: A, context: ModelContext) async {
    // symbol: ModelActor
    // symbol: ModelActor.modelContainer
    _ = actor.modelContainer
    // symbol: ModelActor.modelExecutor
    _ = actor.modelExecutor
    // symbol: ModelActor.unownedExecutor
    _ = actor.unownedExecutor
    // symbol: ModelActor.modelContext
    // symbol: ModelActor.subscript(_:as:)
    _ = await symbolActorReads(actor)
    // symbol: ModelExecutor
    // symbol: ModelExecutor.modelContext
    let executor: any ModelExecutor = DefaultSerialModelExecutor(modelContext: context)
    _ = executor.modelContext
    // symbol: SerialModelExecutor
    // symbol: DefaultSerialModelExecutor
    // symbol: DefaultSerialModelExecutor.init(modelContext:)
    let serial: any SerialModelExecutor = DefaultSerialModelExecutor(modelContext: context)
    _ = serial
    let standard = DefaultSerialModelExecutor(modelContext: context)
    // symbol: DefaultSerialModelExecutor.modelContext
    _ = standard.modelContext
    // symbol: DefaultSerialModelExecutor.asUnownedSerialExecutor()
    _ = standard.asUnownedSerialExecutor()
    // symbol: DefaultSerialModelExecutor.checkIsolated()
    standard.checkIsolated()
}

/// A job handed to the executor, as the actor runtime hands it.
func symbolEnqueue(_ executor: DefaultSerialModelExecutor, _ job: consuming ExecutorJob) {
    // symbol: DefaultSerialModelExecutor.enqueue(_:)
    executor.enqueue(job)
}

/// Reads through a model actor's context and subscript, on the actor.
func symbolActorReads<A: ModelActor>(_ actor: isolated A) -> String? {
    _ = actor.modelContext
    return actor[PersistentIdentifier(entityName: "SymbolLamp", id: UUID()), as: SymbolLamp.self]?.name
}

/// Results observed as they change.
@MainActor
func symbolObservers(_ context: ModelContext, _ container: ModelContainer) throws {
    let descriptor = FetchDescriptor<SymbolLamp>()
    let filter = #Predicate<SymbolLamp> { $0.watts > 0 }
    // symbol: ResultsObserver
    // symbol: ResultsObserver.init(fetchDescriptor:modelContext:isolation:)
    let observer = try ResultsObserver<SymbolLamp, Never>(fetchDescriptor: descriptor, modelContext: context)
    // symbol: ResultsObserver.init(fetchDescriptor:modelContainer:isolation:)
    _ = try ResultsObserver<SymbolLamp, Never>(fetchDescriptor: descriptor, modelContainer: container)
    // symbol: ResultsObserver.init(filterBy:sortBy:modelContext:isolation:)
    _ = try ResultsObserver<SymbolLamp, Never>(
        filterBy: filter, sortBy: [SortDescriptor(\.name)], modelContext: context)
    // symbol: ResultsObserver.init(filterBy:sortBy:modelContainer:isolation:)
    _ = try ResultsObserver<SymbolLamp, Never>(filterBy: filter, sortBy: nil, modelContainer: container)
    // symbol: ResultsObserver.init(fetchDescriptor:sectionBy:modelContext:isolation:)
    let sectioned = try ResultsObserver<SymbolLamp, String>(
        fetchDescriptor: descriptor, sectionBy: \.name, modelContext: context)
    // symbol: ResultsObserver.init(fetchDescriptor:sectionBy:modelContainer:isolation:)
    _ = try ResultsObserver<SymbolLamp, String>(
        fetchDescriptor: descriptor, sectionBy: \.name, modelContainer: container)
    // symbol: ResultsObserver.init(filterBy:sortBy:sectionBy:modelContext:isolation:)
    _ = try ResultsObserver<SymbolLamp, String>(filterBy: filter, sortBy: nil, sectionBy: \.name, modelContext: context)
    // symbol: ResultsObserver.init(filterBy:sortBy:sectionBy:modelContainer:isolation:)
    _ = try ResultsObserver<SymbolLamp, String>(
        filterBy: filter, sortBy: nil, sectionBy: \.name, modelContainer: container)
    // symbol: ResultsObserver.fetchDescriptor
    _ = observer.fetchDescriptor
    // symbol: ResultsObserver.filterBy
    observer.filterBy = filter
    // symbol: ResultsObserver.sortBy
    observer.sortBy = [SortDescriptor(\.watts)]
    // symbol: ResultsObserver.modelContext
    _ = observer.modelContext
    // symbol: ResultsObserver.results
    _ = observer.results
    // symbol: ResultsObserver.sectionBy
    _ = sectioned.sectionBy
    // symbol: ResultsObserver.sections
    // symbol: SectionedResults
    let sections: SectionedResults<SymbolLamp, String>? = sectioned.sections
    // symbol: SectionedResults.subscript(sectionTitle:)
    // symbol: ResultsSection
    let section: ResultsSection<SymbolLamp, String>? = sections?[sectionTitle: "Desk"]
    // symbol: ResultsSection.title
    _ = section?.title
    // symbol: ResultsSection.id
    _ = section?.id
    // symbol: HistoryObserver
    // symbol: HistoryObserver.init(historyTokens:observedModels:authors:modelContainer:isolation:)
    let history = try HistoryObserver(
        historyTokens: nil, observedModels: [SymbolLamp.self], authors: ["widget"], modelContainer: container)
    // symbol: HistoryObserver.eventCounter
    _ = history.eventCounter
    // symbol: HistoryObserver.historyTokens
    let _: [String: any HistoryToken] = history.historyTokens
    // symbol: HistoryObserver.modelContainer
    _ = history.modelContainer
    // symbol: HistoryObserver.observedModels
    _ = history.observedModels
    // symbol: HistoryObserver.authors
    _ = history.authors
    // symbol: ModelContainer.remoteChange
    _ = NotificationCenter.default.addObserver(forName: ModelContainer.remoteChange, object: container, queue: nil) {
        _ in
    }
}

/// History read as SwiftData's types describe it.
func symbolHistory<T: HistoryTransaction, I: HistoryInsert, U: HistoryUpdate, D: HistoryDelete, K: HistoryToken>(
    _ transaction: T, _ insert: I, _ update: U, _ delete: D, _ token: K, context: ModelContext
) throws {
    // symbol: HistoryDescriptor
    // symbol: HistoryDescriptor.init(predicate:)
    var descriptor = HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.author == "importer" })
    // symbol: HistoryDescriptor.init(predicate:sortBy:)
    _ = HistoryDescriptor<DefaultHistoryTransaction>(predicate: nil, sortBy: [SortDescriptor(\.timestamp)])
    // symbol: HistoryDescriptor.predicate
    _ = descriptor.predicate
    // symbol: HistoryDescriptor.fetchLimit
    descriptor.fetchLimit = 10
    // symbol: HistoryDescriptor.sortBy
    descriptor.sortBy = [SortDescriptor(\.transactionIdentifier, order: .reverse)]
    // symbol: ModelContext.fetchHistory(_:)
    // symbol: DefaultHistoryTransaction
    let fetched: [DefaultHistoryTransaction] = try context.fetchHistory(descriptor)
    // symbol: ModelContext.deleteHistory(_:)
    try context.deleteHistory(descriptor)
    // symbol: HistoryTransaction
    // symbol: HistoryTransaction.author
    _ = transaction.author
    // symbol: HistoryTransaction.changes
    _ = transaction.changes
    // symbol: HistoryTransaction.storeIdentifier
    _ = transaction.storeIdentifier
    // symbol: HistoryTransaction.timestamp
    _ = transaction.timestamp
    // symbol: HistoryTransaction.token
    _ = transaction.token
    // symbol: HistoryTransaction.transactionIdentifier
    _ = transaction.transactionIdentifier
    // symbol: HistoryTransaction.TokenType
    _ = T.TokenType.self
    if let first = fetched.first {
        // symbol: DefaultHistoryTransaction.author
        _ = first.author
        // symbol: DefaultHistoryTransaction.changes
        _ = first.changes
        // symbol: DefaultHistoryTransaction.storeIdentifier
        _ = first.storeIdentifier
        // symbol: DefaultHistoryTransaction.timestamp
        _ = first.timestamp
        // symbol: DefaultHistoryTransaction.token
        // symbol: DefaultHistoryToken
        let kept: DefaultHistoryToken = first.token
        // symbol: DefaultHistoryToken.tokenValue
        _ = kept.tokenValue
        // symbol: DefaultHistoryToken.id
        _ = kept.id
        // symbol: DefaultHistoryToken.storeIdentifier
        _ = kept.storeIdentifier
        // symbol: DefaultHistoryTransaction.transactionIdentifier
        _ = first.transactionIdentifier
        // symbol: DefaultHistoryTransaction.id
        _ = first.id
        // symbol: DefaultHistoryTransaction.bundleIdentifier
        _ = first.bundleIdentifier
        // symbol: DefaultHistoryTransaction.processIdentifier
        _ = first.processIdentifier
    }
    // symbol: DefaultHistoryTransaction.ID
    _ = DefaultHistoryTransaction.ID.self
    // symbol: DefaultHistoryTransaction.TokenType
    _ = DefaultHistoryTransaction.TokenType.self
    // symbol: DefaultHistoryTransaction.TransactionIdentifier
    _ = DefaultHistoryTransaction.TransactionIdentifier.self
    // symbol: DefaultHistoryToken.ID
    _ = DefaultHistoryToken.ID.self
    // symbol: DefaultHistoryToken.TokenType
    _ = DefaultHistoryToken.TokenType.self
    // symbol: HistoryToken
    // symbol: HistoryToken.tokenValue
    _ = token.tokenValue
    // symbol: HistoryToken.TokenType
    _ = K.TokenType.self
    // symbol: HistoryToken.storeIdentifier
    _ = token.storeIdentifier
    // symbol: HistoryInsert
    // symbol: HistoryInsert.Model
    _ = I.Model.self
    // symbol: HistoryInsert.changedPersistentIdentifier
    _ = insert.changedPersistentIdentifier
    // symbol: HistoryInsert.changeIdentifier
    _ = insert.changeIdentifier
    // symbol: HistoryInsert.transactionIdentifier
    _ = insert.transactionIdentifier
    // symbol: HistoryUpdate
    // symbol: HistoryUpdate.Model
    _ = U.Model.self
    // symbol: HistoryUpdate.changedPersistentIdentifier
    _ = update.changedPersistentIdentifier
    // symbol: HistoryUpdate.changeIdentifier
    _ = update.changeIdentifier
    // symbol: HistoryUpdate.transactionIdentifier
    _ = update.transactionIdentifier
    // symbol: HistoryUpdate.updatedAttributes
    _ = update.updatedAttributes
    // symbol: HistoryUpdate.PropertyUpdate
    _ = U.PropertyUpdate.self
    // symbol: HistoryDelete
    // symbol: HistoryDelete.Model
    _ = D.Model.self
    // symbol: HistoryDelete.changedPersistentIdentifier
    _ = delete.changedPersistentIdentifier
    // symbol: HistoryDelete.changeIdentifier
    _ = delete.changeIdentifier
    // symbol: HistoryDelete.transactionIdentifier
    _ = delete.transactionIdentifier
    // symbol: HistoryDelete.tombstone
    _ = delete.tombstone
    for change in transaction.changes {
        // symbol: HistoryChange
        // symbol: HistoryChange.changedPersistentIdentifier
        _ = change.changedPersistentIdentifier
        switch change {
        // symbol: HistoryChange.insert(_:)
        case .insert(let inserted as DefaultHistoryInsert<SymbolLamp>): symbolDefaultInsert(inserted)
        // symbol: HistoryChange.update(_:)
        case .update(let updated as DefaultHistoryUpdate<SymbolLamp>): symbolDefaultUpdate(updated)
        // symbol: HistoryChange.delete(_:)
        case .delete(let deleted as DefaultHistoryDelete<SymbolLamp>): symbolDefaultDelete(deleted)
        default: break
        }
    }
}

/// A Folio store's insert, as SwiftData's `DefaultHistoryInsert`.
func symbolDefaultInsert(_ insert: DefaultHistoryInsert<SymbolLamp>) {
    // symbol: DefaultHistoryInsert
    // symbol: DefaultHistoryInsert.changedPersistentIdentifier
    _ = insert.changedPersistentIdentifier
    // symbol: DefaultHistoryInsert.changeIdentifier
    let change: DefaultHistoryInsert<SymbolLamp>.ChangeIdentifier = insert.changeIdentifier
    _ = change
    // symbol: DefaultHistoryInsert.transactionIdentifier
    let transaction: DefaultHistoryInsert<SymbolLamp>.TransactionIdentifier = insert.transactionIdentifier
    _ = transaction
    // symbol: DefaultHistoryInsert.ChangeIdentifier
    // symbol: DefaultHistoryInsert.TransactionIdentifier
}

/// A Folio store's update, as SwiftData's `DefaultHistoryUpdate`.
func symbolDefaultUpdate(_ update: DefaultHistoryUpdate<SymbolLamp>) {
    // symbol: DefaultHistoryUpdate
    // symbol: DefaultHistoryUpdate.changedPersistentIdentifier
    _ = update.changedPersistentIdentifier
    // symbol: DefaultHistoryUpdate.changeIdentifier
    // symbol: DefaultHistoryUpdate.ChangeIdentifier
    let change: DefaultHistoryUpdate<SymbolLamp>.ChangeIdentifier = update.changeIdentifier
    _ = change
    // symbol: DefaultHistoryUpdate.transactionIdentifier
    // symbol: DefaultHistoryUpdate.TransactionIdentifier
    let transaction: DefaultHistoryUpdate<SymbolLamp>.TransactionIdentifier = update.transactionIdentifier
    _ = transaction
    // symbol: DefaultHistoryUpdate.updatedAttributes
    // symbol: DefaultHistoryUpdate.PropertyUpdate
    let attributes: [any DefaultHistoryUpdate<SymbolLamp>.PropertyUpdate] = update.updatedAttributes
    _ = attributes
}

/// A Folio store's delete, as SwiftData's `DefaultHistoryDelete`.
func symbolDefaultDelete(_ delete: DefaultHistoryDelete<SymbolLamp>) {
    // symbol: DefaultHistoryDelete
    // symbol: DefaultHistoryDelete.changedPersistentIdentifier
    _ = delete.changedPersistentIdentifier
    // symbol: DefaultHistoryDelete.changeIdentifier
    // symbol: DefaultHistoryDelete.ChangeIdentifier
    let change: DefaultHistoryDelete<SymbolLamp>.ChangeIdentifier = delete.changeIdentifier
    _ = change
    // symbol: DefaultHistoryDelete.transactionIdentifier
    // symbol: DefaultHistoryDelete.TransactionIdentifier
    let transaction: DefaultHistoryDelete<SymbolLamp>.TransactionIdentifier = delete.transactionIdentifier
    _ = transaction
    // symbol: DefaultHistoryDelete.tombstone
    // symbol: HistoryTombstone
    let tombstone: HistoryTombstone<SymbolLamp> = delete.tombstone
    // symbol: HistoryTombstone.subscript(_:)
    _ = tombstone[\.serial]
}

/// SwiftData's error names, caught as apps catch them.
func symbolErrors(_ error: any Error) {
    // symbol: SwiftDataError
    let names: [SwiftDataError] = [
        // symbol: SwiftDataError.loadIssueModelContainer
        .loadIssueModelContainer,
        // symbol: SwiftDataError.backwardMigration
        .backwardMigration,
        // symbol: SwiftDataError.modelValidationFailure
        .modelValidationFailure,
        // symbol: SwiftDataError.unsupportedPredicate
        .unsupportedPredicate,
        // symbol: SwiftDataError.unsupportedSortDescriptor
        .unsupportedSortDescriptor,
        // symbol: SwiftDataError.unsupportedKeyPath
        .unsupportedKeyPath,
        // symbol: SwiftDataError.missingModelContext
        .missingModelContext,
        // symbol: SwiftDataError.duplicateConfiguration
        .duplicateConfiguration,
        // symbol: SwiftDataError.configurationSchemaNotFoundInContainerSchema
        .configurationSchemaNotFoundInContainerSchema,
        // symbol: SwiftDataError.unknownSchema
        .unknownSchema,
        // symbol: SwiftDataError.includePendingChangesWithBatchSize
        .includePendingChangesWithBatchSize,
        // symbol: SwiftDataError.historyTokenExpired
        .historyTokenExpired,
        // symbol: SwiftDataError.invalidTransactionFetchRequest
        .invalidTransactionFetchRequest,
    ]
    _ = names.contains { $0 ~= error }
}
