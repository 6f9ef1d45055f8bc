import FolioJSON
import Foundation
import Synchronization

/// A container's stores held open, with its schema, its models' layouts, its file watchers
/// and who hears of its changes: what a `ModelContainer`, its contexts and their models share.
///
/// Apart from `ModelContainer` so that the container's main context can keep the stores
/// without keeping the container: the container keeps its main context, and a context that
/// kept its container back would keep both for ever, with the watcher's thread and inotify
/// descriptor and the cache never written. This lives as long as anything uses the stores
/// and closes them when the last goes (`deinit`).
final class OpenContainer: Sendable {
    /// The models stored, with the types their relationships reach.
    let schema: Schema
    /// The configurations, one store folder each (see `ModelContainer.configurations`).
    var configurations: [ModelConfiguration] { parts.map(\.configuration) }
    /// The plan the stores were opened with.
    let plan: RuntimeOnly<(any SchemaMigrationPlan.Type)?>
    /// Each configuration with its store, in the order given.
    private let parts: [ConfiguredStore]
    /// Which of `parts` holds each entity, by entity name.
    private let partOfEntity: [String: Int]
    /// Each entity's layout, by entity name.
    private let layouts: RuntimeOnly<[String: EntityLayout]>
    /// Who hears of the documents saves write and refreshes find changed.
    let listeners = ChangeListeners()
    /// The file watchers of the on-disk stores whose configuration watches files.
    let watchers = Mutex<[StoreWatcher]>([])
    /// The container over these stores and its main context while either lives, so that one
    /// asked for again (`handle()`) is the same.
    private let handles = Mutex(Handles())

    /// The container and main context `handles` keeps, weakly: each keeps this.
    struct Handles: @unchecked Sendable {  // the main context is only touched on the main actor
        weak var container: ModelContainer?
        weak var mainContext: ModelContext?
    }

    /// Opens the stores of a schema; a store at an older version is migrated by the plan's
    /// stages first, in one transaction with the manifest.
    init(
        for schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?, configurations: [ModelConfiguration]
    ) throws(FolioError) {
        let configurations = configurations.isEmpty ? [ModelConfiguration(schema: schema)] : configurations
        // One configuration's schema may stand for the container's (`ModelContainer(for: schema, configurations: .init(schema: …))`).
        let given = configurations.count == 1 ? configurations[0].schema ?? schema : schema
        let schema = try Self.versioned(given, by: migrationPlan)
        try Self.check(schema)
        self.schema = schema
        layouts = RuntimeOnly(
            Dictionary(uniqueKeysWithValues: schema.entities.map { ($0.name, EntityLayout($0, in: schema)) }))
        plan = RuntimeOnly(migrationPlan)
        let assigned = try Self.assign(schema, to: configurations)
        partOfEntity = assigned
        var parts: [ConfiguredStore] = []
        for (index, configuration) in configurations.enumerated() {
            var own = schema
            own.entities = schema.entities.filter { assigned[$0.name] == index }
            parts.append(try Self.open(configuration, schema: own, migrationPlan: migrationPlan))
        }
        self.parts = parts
        announceRemoteChanges()
        startWatching()
    }

    /// The container over these stores: the one that lives, or a new one, which takes the main
    /// context that lives (a context or model outlived the container it was made from).
    func handle() -> ModelContainer {
        let kept = handles.withLock { $0 }
        if let container = kept.container { return container }
        let container = ModelContainer(opened: self, mainContext: kept.mainContext)
        return handles.withLock { handles in
            // Another thread may have made one meanwhile: the first one made is the one.
            if let first = handles.container { return first }
            handles.container = container
            return container
        }
    }

    /// The container over these stores while one lives, without making one.
    var livingContainer: ModelContainer? { handles.withLock { $0.container } }

    /// Records the container made over these stores, for `handle()`.
    func adopt(_ container: ModelContainer) {
        handles.withLock { $0.container = container }
    }

    /// Records the container's main context, for a container `handle()` makes again.
    func adoptMainContext(_ context: ModelContext) {
        handles.withLock { $0.mainContext = context }
    }

    /// Opens (or creates) one configuration's store with the entities it holds.
    private static func open(
        _ configuration: ModelConfiguration, schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?
    ) throws(FolioError) -> ConfiguredStore {
        if let revision = configuration.revision {
            return try openPast(configuration, at: revision, schema: schema, migrationPlan: migrationPlan)
        }
        var folder = configuration.url
        var scratch: ScratchFolder?
        if configuration.isStoredInMemoryOnly {
            let made = try ScratchFolder(purpose: "in-memory")
            folder = made.url.appending(path: "store", directoryHint: .isDirectory)
            scratch = made
        }
        do {
            let durability = configuration.isStoredInMemoryOnly ? .none : configuration.durability
            let store = try openStore(
                // An in-memory store is private scratch that starts empty: made even when saving is not allowed.
                at: folder.path(percentEncoded: false), schema: schema, durability: durability,
                writable: configuration.allowsSave || configuration.isStoredInMemoryOnly,
                timeZone: configuration.timeZone ?? .current, historyLimit: configuration.historyLimit,
                reads: configuration.reads,
                migrationPlan: migrationPlan)
            return ConfiguredStore(configuration: configuration, store: store, temporaryFolder: scratch)
        } catch {
            scratch?.remove()
            throw error
        }
    }

    /// Opens the store as a git revision held it, read-only: the kept copy of that revision
    /// (documents read from git's objects) when its schema is the container's, else a private
    /// copy with the documents' files, migrated to the container's schema (through the plan
    /// when there is one) and removed with the container.
    private static func openPast(
        _ configuration: ModelConfiguration, at revision: String, schema: Schema,
        migrationPlan: (any SchemaMigrationPlan.Type)?
    ) throws(FolioError) -> ConfiguredStore {
        let folder = configuration.url.path(percentEncoded: false)
        var copy = try RevisionCopy.make(of: folder, at: revision)
        let recorded = try DocumentStore.readManifest(in: OpenFolder(root: copy.root)).schemaVersion
        if let version = Schema.Version(recorded), version < schema.version {
            copy.scratch?.remove()
            copy = try RevisionCopy.make(of: folder, at: revision, writable: true)
        }
        do {
            let store = try openStore(
                // A copy with its files is the container's own, so it may be migrated; the others are read-only.
                at: copy.root, schema: schema, durability: .none, writable: copy.objects == nil,
                timeZone: configuration.timeZone ?? .current, historyLimit: 0, reads: configuration.reads,
                migrationPlan: migrationPlan, revision: copy)
            return ConfiguredStore(
                configuration: configuration, store: store, temporaryFolder: copy.scratch, revisionCopy: copy)
        } catch {
            copy.scratch?.remove()
            throw error
        }
    }

    /// Which configuration holds each entity: the first whose schema names it (a class
    /// that inherits from another model goes with its hierarchy's root), else the first
    /// without a schema. Relationships stay within one store, as in SwiftData.
    private static func assign(_ schema: Schema, to configurations: [ModelConfiguration]) throws(FolioError) -> [String:
        Int]
    {
        var assigned: [String: Int] = [:]
        for entity in schema.entities {
            let root = entity.storageName
            guard
                let index = configurations.firstIndex(where: { $0.schema?.entity(named: root) != nil })
                    ?? configurations.firstIndex(where: { $0.schema == nil })
            else {
                throw .misuse(
                    "\(entity.name) is in none of the configurations' schemas; add it to one, or give one configuration no schema to take the models no other one names"
                )
            }
            assigned[entity.name] = index
        }
        for entity in schema.entities {
            for relationship in entity.relationships where assigned[relationship.destination] != assigned[entity.name] {
                throw .misuse(
                    "\(entity.name).\(relationship.name) relates models of two configurations, whose stores are separate folders; put \(entity.name) and \(relationship.destination) in the same configuration"
                )
            }
        }
        return assigned
    }

    deinit {
        // Stopped first: a refresh it started must not run on a store being closed.
        for watcher in watchers.withLock({ $0 }) { watcher.stop() }
        for part in parts {
            if let temporaryFolder = part.temporaryFolder {
                // The in-memory store's folder is private scratch: if it cannot be removed (the
                // system already cleaned the temporary folder), nothing of the user's is lost.
                temporaryFolder.remove()
            } else {
                // The cache lets the next launch skip reading unchanged files. A deinit has no
                // one to tell of a failure, and none costs data: the next open reads the files.
                do { try part.store.close() } catch {}
            }
        }
    }

    /// Files in the stores that Folio could not read (see `ModelContainer.issues`).
    var issues: [StoreIssue] { parts.flatMap(\.store.issues) }

    /// Looks at every store's files again (see `ModelContainer.refresh()`).
    func refresh() throws(FolioError) -> StoreChanges {
        var changes = StoreChanges()
        for part in parts { changes.add(try refresh(part.store)) }
        return changes
    }

    /// The layout of an entity of the schema.
    func layout(of entityName: String) -> EntityLayout? { layouts.value[entityName] }

    /// The layout of a model's own class, which may inherit from its identity's entity.
    func layout(of model: any PersistentModel) -> EntityLayout? {
        layouts.value[ModelEntities.entity(of: type(of: model)).name]
    }

    /// The layout for a stored document: its `"$entity"`'s, which is the folder's entity
    /// or one inheriting from it. `given`, the layout a fetch looked up once, is used when
    /// it is that entity's, sparing a lookup per document.
    func layout(of stored: StoredDocument, given: EntityLayout? = nil) -> EntityLayout? {
        // The common case, every document of a fetch of one class, told without reading the name.
        if let given, stored.member(ReservedKey.entity, isText: given.entity.name) { return given }
        guard case .string(let name)? = stored.member(ReservedKey.entity) else {
            return given ?? layout(of: stored.entity)
        }
        if let given, given.entity.name == name { return given }
        guard let layout = layouts.value[name], layout.entity.storageName == stored.entity else { return nil }
        return layout
    }

    /// The store that holds an entity's documents (the first one for a name the schema lacks).
    func store(of entityName: String) -> DocumentStore { parts[partOfEntity[entityName] ?? 0].store }

    /// The configuration of the store that holds an entity.
    func configuration(of entityName: String) -> ModelConfiguration {
        parts[partOfEntity[entityName] ?? 0].configuration
    }

    /// Every store of the container, one per configuration.
    var stores: [DocumentStore] { parts.map(\.store) }

    /// Opens the store in the folder, or creates one in the time zone given; records the
    /// schema in the manifest (unless the configuration does not allow writing). A past
    /// revision's copy (`revision`) is opened as `DocumentStore.open(_:)` opens one.
    private static func openStore(
        at root: String, schema: Schema, durability: Durability, writable: Bool, timeZone: TimeZone,
        historyLimit: Int, reads: StoreReads, migrationPlan: (any SchemaMigrationPlan.Type)?,
        revision: RevisionCopy? = nil
    ) throws(FolioError) -> DocumentStore {
        var holdsStore = false
        if try FileSystem.status(root) != nil {
            holdsStore = try OpenFolder(root: root).status(of: StoreManifest.fileName) != nil
        }
        guard holdsStore else {
            guard writable else {
                throw .invalidStore(
                    path: root,
                    reason: "holds no Folio store, and the configuration (allowsSave: false) may not create one")
            }
            return try DocumentStore.create(
                at: root,
                manifest: StoreManifest(
                    schemaVersion: schema.version.description, timeZone: timeZone, schema: schema.json),
                durability: durability, historyLimit: historyLimit, reads: reads)
        }
        let store: DocumentStore
        if let revision {
            store = try DocumentStore.open(revision, reads: reads)
        } else {
            store = try DocumentStore.open(at: root, durability: durability, historyLimit: historyLimit, reads: reads)
        }
        var manifest = store.manifest
        if let recorded = Schema.Version(manifest.schemaVersion), recorded > schema.version {
            throw FolioError(
                .migration,
                "the store's schema version is \(recorded), newer than this program's \(schema.version); it was written by a newer version of the program, so update this one",
                path: root)
        }
        if writable, let recorded = Schema.Version(manifest.schemaVersion), recorded < schema.version {
            // Without a plan, as SwiftData does, the change is migrated as a lightweight stage would.
            if let migrationPlan {
                try migrate(store, from: recorded, to: schema, plan: migrationPlan)
            } else {
                try migrate(
                    store, steps: [MigrationStep.lightweight(from: manifest.schema, to: schema, fromVersion: recorded)],
                    to: schema)
            }
            manifest = store.manifest
        }
        manifest.schemaVersion = schema.version.description
        manifest.schema = schema.json
        if writable, manifest != store.manifest { try store.commit([], manifest: manifest) }
        return store
    }

    /// Runs the plan's stages between the store's version and the schema's, as one
    /// transaction. A stage that would delete the documents of an entity the new schema
    /// lacks is refused (a class renamed without a plan file would lose its data that way).
    private static func migrate(
        _ store: DocumentStore, from recorded: Schema.Version, to schema: Schema, plan: any SchemaMigrationPlan.Type
    ) throws(FolioError) {
        let stages = plan.stages.filter {
            $0.versions.to.versionIdentifier > recorded && $0.versions.to.versionIdentifier <= schema.version
        }
        .sorted { $0.versions.to.versionIdentifier < $1.versions.to.versionIdentifier }
        // The stages must lead from the store's version to the models' without a gap: a
        // version skipped would be recorded without its change made to the documents.
        var reached = recorded
        for stage in stages {
            guard stage.versions.from.versionIdentifier == reached else {
                throw .migration(
                    "the store is at \(reached), but \(plan)'s next stage goes from \(stage.versions.from.versionIdentifier) to \(stage.versions.to.versionIdentifier); add a stage from \(reached), and nothing was changed"
                )
            }
            reached = stage.versions.to.versionIdentifier
        }
        guard reached == schema.version else {
            throw .migration(
                "\(plan) has no stages from the store's version \(reached) to the models' \(schema.version); add them, and nothing was changed"
            )
        }
        if stages.contains(where: { if case .custom = $0 { true } else { false } }) {
            return try StagedMigration(store: store, stages: stages).run()
        }
        var steps: [MigrationStep] = []
        var schemaJSON = store.manifest.schema
        for stage in stages {
            let step = try stage.step(from: schemaJSON, timeZone: store.manifest.timeZone)
            schemaJSON = stage.versions.to.schema.json
            steps.append(step)
        }
        try migrate(store, steps: steps, to: schema)
    }

    /// Runs migration steps as one transaction, refusing to delete the documents of an entity the new schema lacks.
    private static func migrate(_ store: DocumentStore, steps: [MigrationStep], to schema: Schema) throws(FolioError) {
        guard !steps.isEmpty else { return }
        let dryRun = try store.migrate(steps, dryRun: true)
        let removed = steps.flatMap(\.operations).compactMap {
            if case .removeEntity(let name) = $0 { name } else { nil }
        }
        for name in removed where (dryRun.entities[name]?.deleted ?? 0) > 0 {
            throw .misuse(
                "migrating to \(schema.version) would delete the \(dryRun.entities[name]!.deleted) documents of \(name), which the new schema lacks; if the model was renamed, migrate with a plan file's renameEntity, else remove them with removeEntity"
            )
        }
        try store.migrate(steps)
    }

    /// The schema at the version a migration plan gives its models. Apps pass the current
    /// models' types with the plan (`ModelContainer(for: Email.self, migrationPlan: Plan.self)`),
    /// whose schema says nothing of versions: it is the plan's latest `VersionedSchema` that
    /// holds all those types, with every model of that version. A schema at a later version
    /// than that is taken as it is.
    static func versioned(_ schema: Schema, by plan: (any SchemaMigrationPlan.Type)?) throws(FolioError) -> Schema {
        guard let plan else { return schema }
        func types(of schema: Schema) -> Set<ObjectIdentifier> {
            Set(schema.entities.compactMap { $0.modelType.value.map(ObjectIdentifier.init) })
        }
        let wanted = types(of: schema)
        let holding = plan.schemas.map(Schema.init(versionedSchema:)).filter { wanted.isSubset(of: types(of: $0)) }
        guard let latest = holding.max(by: { $0.version < $1.version }) else {
            throw .misuse(
                "none of \(plan)'s schemas holds \(schema.entities.map(\.name).joined(separator: ", ")) (the classes themselves, as VersionedSchema.models lists them); pass the models of one of its versions"
            )
        }
        return schema.version > latest.version ? schema : latest
    }

    /// Refuses a schema Folio cannot store, naming the property and what to do.
    private static func check(_ schema: Schema) throws(FolioError) {
        for entity in schema.entities {
            guard DocumentPath.isIdentifier(entity.name) else {
                throw .misuse(
                    "the model \(entity.name) cannot name a folder; give it a name made of letters, digits and _")
            }
            for attribute in entity.attributes where attribute.coding.value == nil {
                throw .misuse(
                    "\(entity.name).\(attribute.name) has type \(attribute.valueType), which Folio cannot store; make the type Codable, or mark the property @Transient"
                )
            }
            for attribute in entity.attributes where attribute.isExternalStorage && attribute.valueType != "Data" {
                throw .misuse(
                    "\(entity.name).\(attribute.name) is \(attribute.valueType); .externalStorage keeps Data (or Data?) in a file of its own, so declare it as Data or drop the option"
                )
            }
            for relationship in entity.relationships where schema.entity(named: relationship.destination) == nil {
                throw .misuse(
                    "\(entity.name).\(relationship.name) refers to \(relationship.destination), which is not a model")
            }
        }
    }
}

extension Schema.Version {
    /// Reads "1.2.3", as the manifest records a version: three numbers of up to nine digits,
    /// so that the next version (`schema add-*` adds one to the minor) cannot overflow.
    package init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            parts.allSatisfy({ (1...9).contains($0.utf8.count) && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } })
        else { return nil }
        self.init(Int(parts[0])!, Int(parts[1])!, Int(parts[2])!)
    }
}
