import Foundation

/// The models' store and schema: SwiftData's `ModelContainer`, over a Folio store folder.
///
/// Opening a container creates the store when the folder holds none, and checks the
/// schema against the one the store records. Contexts made from it read and write the
/// store; `mainContext` is the one for the main actor.
///
/// The stores stay open, watched for changes, while the container, a context made from it
/// or one of their models' relationships is in use; when the last of them goes, the watchers
/// stop and each store writes its cache, so that the next open reads only the files changed.
///
/// ```swift
/// let container = try ModelContainer(for: Timer.self, configurations: ModelConfiguration(url: storeURL))
/// let context = ModelContext(container)
/// ```
public final class ModelContainer: Sendable {
    /// The stores this container opened, which its contexts share.
    let opened: OpenContainer
    /// The main actor's context; made on first use. Kept here, and it keeps only `opened`:
    /// a context that kept its container would keep it for ever.
    private nonisolated(unsafe) var main: ModelContext?

    /// The models the container stores, with the types their relationships reach.
    public var schema: Schema { opened.schema }
    /// The container's configurations, one store folder each. A model is kept in the
    /// store of the first configuration whose schema holds it, else of the first without a
    /// schema; related models always share one (a schema holds what its models reach).
    public var configurations: [ModelConfiguration] { opened.configurations }
    /// The plan the container was opened with, which migrated its store if it was older.
    public var migrationPlan: (any SchemaMigrationPlan.Type)? { opened.plan.value }

    /// A container for these model types (and those their relationships reach).
    ///
    /// - Throws: what `init(for:migrationPlan:configurations:)` throws.
    public convenience init(for types: any PersistentModel.Type..., configurations: ModelConfiguration...)
        throws(FolioError)
    {
        try self.init(for: Schema(types), configurations: configurations)
    }

    /// A container for a schema.
    ///
    /// - Throws: what `init(for:migrationPlan:configurations:)` throws.
    public convenience init(for schema: Schema, configurations: ModelConfiguration...) throws(FolioError) {
        try self.init(for: schema, configurations: configurations)
    }

    /// A container for these model types that migrates an older store with a plan first.
    ///
    /// - Throws: what `init(for:migrationPlan:configurations:)` throws.
    public convenience init(
        for types: any PersistentModel.Type..., migrationPlan: (any SchemaMigrationPlan.Type)?,
        configurations: ModelConfiguration...
    ) throws(FolioError) {
        try self.init(for: Schema(types), migrationPlan: migrationPlan, configurations: configurations)
    }

    /// A container for a schema that migrates an older store with a plan first.
    ///
    /// - Throws: what `init(for:migrationPlan:configurations:)` throws.
    public convenience init(
        for schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?, configurations: ModelConfiguration...
    ) throws(FolioError) {
        try self.init(for: schema, migrationPlan: migrationPlan, configurations: configurations)
    }

    /// A container for a schema, stored as the configuration says.
    ///
    /// - Throws: what `init(for:migrationPlan:configurations:)` throws.
    public convenience init(for schema: Schema, configurations: [ModelConfiguration]) throws(FolioError) {
        try self.init(for: schema, migrationPlan: nil, configurations: configurations)
    }

    /// A container for a schema; a store at an older version is migrated by the plan's
    /// stages first, in one transaction with the manifest.
    ///
    /// - Throws: `.misuse` for a model Folio cannot store (a type it cannot encode, a relationship
    ///   to a non-model), a plan whose schemas do not match, or configurations that do not place
    ///   every model; `.migration` when the store is at a newer schema version or a stage cannot
    ///   run; `.invalidStore` for a folder that holds no store where the configuration may not
    ///   create one, or a manifest Folio cannot use; `.unreadableJSON` for a malformed
    ///   `folio.json`; `.fileSystem`, `.unsafePath` or `.locked` when the store cannot be read or
    ///   written; `.conflict` or `.unfinishedCommit` when a migration's commit fails.
    public init(
        for schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?, configurations: [ModelConfiguration]
    ) throws(FolioError) {
        opened = try OpenContainer(for: schema, migrationPlan: migrationPlan, configurations: configurations)
        opened.adopt(self)
    }

    /// The container over stores already open, taking their main context if it lives
    /// (`OpenContainer.handle()`).
    init(opened: OpenContainer, mainContext: ModelContext?) {
        self.opened = opened
        main = mainContext
    }

    /// The context for the main actor, as SwiftData's `mainContext`, with autosave on.
    @MainActor public var mainContext: ModelContext {
        if let main { return main }
        let context = ModelContext(mainContextOf: opened)
        context.autosaveEnabled = true
        main = context
        opened.adoptMainContext(context)
        return context
    }

    /// Files in the store that Folio could not read (malformed JSON, a symbolic link, a
    /// document in the wrong place), each with its path and why, as of the last walk.
    /// Fetches leave them out; the files are left as they are.
    public var issues: [StoreIssue] { opened.issues }

    /// Looks at the store's files again, to see what changed behind the container's back
    /// (a `git pull`, a hand edit, another process), reading only the files that changed.
    ///
    /// New contexts see the changes; models already registered in a context keep their
    /// values, and saving one whose file changed fails with a conflict. Returns what changed:
    /// the documents added, modified and removed, of every store of the container.
    ///
    /// With the file watcher on (`ModelConfiguration.watchesFiles`, the default for stores on
    /// disk), the container does this by itself within about 100 ms of a change.
    ///
    /// - Throws: `.fileSystem`, `.unsafePath` or `.invalidStore` when a store's tree cannot be
    ///   walked; `.locked` when another process holds a store's lock too long.
    @discardableResult
    public func refresh() throws(FolioError) -> StoreChanges { try opened.refresh() }

    /// Every store of the container, one per configuration.
    var stores: [DocumentStore] { opened.stores }

    /// The store that holds an entity's documents (the first one for a name the schema lacks).
    func store(of entityName: String) -> DocumentStore { opened.store(of: entityName) }
}
