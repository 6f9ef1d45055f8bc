import FolioJSON
import Foundation

/// A scratch pad of models over a container's store: SwiftData's `ModelContext`.
///
/// Models fetched or inserted are registered here, one instance per identity; changes
/// to them stay in memory until `save()` writes every changed model, one document each,
/// in one store transaction. A context is not `Sendable`: use one per task, and pass
/// `PersistentIdentifier`s between tasks.
///
/// ```swift
/// let context = ModelContext(container)
/// context.insert(Timer(name: "Tea", durationInSeconds: 180))
/// try context.save()
/// ```
public final class ModelContext {
    /// The container whose store this context reads and writes.
    ///
    /// The main context does not keep its container (the container keeps it): when nothing
    /// else does, this is a container over the same open stores, whose `mainContext` is this.
    public var container: ModelContainer { kept ?? opened.handle() }
    /// The container this context keeps: the one it was made from, or `nil` for the main context.
    private let kept: ModelContainer?
    /// The stores this context reads and writes, kept open while it lives.
    let opened: OpenContainer
    /// Whether the context saves by itself after changes, as SwiftData's main context does:
    /// a change schedules one save on the main actor. As in SwiftData, autosave belongs to the
    /// main context: on any other, setting this does nothing, and its changes wait for `save()`
    /// (a context of a `@ModelActor` lives on its actor, where the main actor must not save it).
    public var autosaveEnabled = false
    /// Who this context's saves are by, as the store's history records them (SwiftData's
    /// `author`): apps name their own contexts, so a history reader can tell its own changes
    /// from others'. `nil` by default.
    public var author: String?
    /// The undo manager that records this context's changes, as SwiftData's: property
    /// changes, inserts and deletes, each undone by `undoManager.undo()`. `nil` (the
    /// default) records nothing. Folio provides `UndoManager` on Linux, where Foundation lacks it.
    public var undoManager: UndoManager?
    /// The error of the last autosave that failed, if any (an autosave has no caller to throw to).
    public private(set) var autosaveError: FolioError?
    /// Documents this context could not make models of when a relationship or
    /// `model(for:)` reached them, or a fetch left out under
    /// `ModelConfiguration.UnreadableDocuments.skip` (under `.fail`, the fetch throws), each
    /// with its path and why.
    public internal(set) var issues: [FolioError] = []

    /// Every model this context has handed out or been given, by identity.
    var registered: [PersistentIdentifier: any PersistentModel] = [:]
    /// Models inserted since the last save, in insertion order.
    var inserted: [PersistentIdentifier] = []
    /// Models deleted since the last save.
    var deleted: [PersistentIdentifier] = []
    /// Models with unsaved changes to their properties.
    var changed: Set<PersistentIdentifier> = []
    private var autosaveScheduled = false

    /// The documents other contexts saved or the store found changed, to merge before the next fetch.
    let inbox = ChangeInbox()
    private var listenerKey = 0

    /// A context over the container's store.
    public init(_ container: ModelContainer) {
        kept = container
        opened = container.opened
        listenerKey = opened.listeners.add { [inbox] change in inbox.add(change.documents) }
    }

    /// The main context of a container over `opened`, which keeps the stores but not the container.
    init(mainContextOf opened: OpenContainer) {
        kept = nil
        self.opened = opened
        // As SwiftData's, the main context takes in other contexts' saves and changes on disk
        // by itself, on the main actor, so its models' observers hear them without a fetch.
        let main = MainContextReference()
        main.context = self
        listenerKey = opened.listeners.add { [inbox] change in
            guard inbox.add(change.documents) else { return }
            Task { @MainActor in main.context?.mergeChanges() }
        }
    }

    deinit { opened.listeners.remove(listenerKey) }

    /// Registers a new model, to be written at the next save; models it refers to come along.
    ///
    /// Inserting a model whose unique attributes match a stored model's replaces that
    /// model at the save, as SwiftData's upsert does. Inserting a registered model does nothing.
    public func insert<Model: PersistentModel>(_ model: Model) {
        insert(model as any PersistentModel)
    }

    func insert(_ model: any PersistentModel) {
        let data = model.persistentBackingData
        guard data.context == nil else { return }
        model.recordConstants()
        let identifier = model.persistentModelID
        data.context = self
        registered[identifier] = model
        inserted.append(identifier)
        deleted.removeAll { $0 == identifier }
        registerUndo(ofInserting: model)
        scheduleAutosave()
        guard let entity = opened.layout(of: model)?.entity else { return }
        for relationship in entity.relationships {
            guard let access = relationship.access.value, let value = data.currentValue(forKey: relationship.name)
            else { continue }
            for related in access.models(value) where related.persistentBackingData.context == nil { insert(related) }
        }
    }

    /// Marks a model deleted: at the next save its document is removed (or, with soft
    /// deletes, stamped `"$deleted"`), and its relationships' delete rules apply (also to a
    /// model never saved, whose cascade then takes its unsaved children along).
    public func delete<Model: PersistentModel>(_ model: Model) {
        let data = model.persistentBackingData
        let identifier = model.persistentModelID
        if data.context == nil { data.context = self }
        // A model fetched in another context is deleted through this one all the same.
        registered[identifier] = model
        guard !deleted.contains(identifier) else { return }
        deleted.append(identifier)
        registerUndo(ofDeleting: model)
        scheduleAutosave()
    }

    /// Deletes every model of a type that matches a predicate (all of them without one):
    /// with `includeSubclasses`, also the models of classes that inherit from it.
    ///
    /// - Throws: a `FolioError`, what `fetch(_:)` throws; nothing is deleted then.
    public func delete<Model: PersistentModel>(
        model: Model.Type, where predicate: Predicate<Model>? = nil, includeSubclasses: Bool = true
    ) throws {
        for found in try fetch(FetchDescriptor<Model>(predicate: predicate))
        where includeSubclasses || type(of: found) == model {
            delete(found)
        }
    }

    /// Whether there are unsaved insertions, deletions or changes.
    public var hasChanges: Bool { !inserted.isEmpty || !deleted.isEmpty || !changed.isEmpty }

    /// The models inserted since the last save.
    public var insertedModelsArray: [any PersistentModel] { inserted.compactMap { registered[$0] } }
    /// The registered models changed since the last save, other than inserted and deleted ones.
    public var changedModelsArray: [any PersistentModel] {
        changed.subtracting(inserted).subtracting(deleted).sorted().compactMap { registered[$0] }
    }
    /// The models deleted since the last save.
    public var deletedModelsArray: [any PersistentModel] { deleted.compactMap { registered[$0] } }

    /// The registered model with this identity, if the context has it in memory.
    public func registeredModel<Model: PersistentModel>(for identifier: PersistentIdentifier) -> Model? {
        registered[identifier] as? Model
    }

    /// The model with this identity: the registered one, else read from the store. As in
    /// SwiftData, an identity the store does not hold (or cannot read) gives a placeholder
    /// of the entity's class, not registered, whose properties must not be read: check with
    /// `registeredModel(for:)` or a fetch when the model may be gone.
    public func model(for identifier: PersistentIdentifier) -> any PersistentModel {
        if let model = existingModel(for: identifier) { return model }
        guard let type = opened.layout(of: identifier.entityName)?.entity.modelType.value else {
            preconditionFailure(
                "\(identifier.entityName) is not one of this container's models; add it to the container's schema")
        }
        return placeholder(of: type, for: identifier)
    }

    /// A model of `type` with this identity and no stored values: what stands for a model
    /// that is not in the store (any more) as one of `type`.
    func placeholder<Model: PersistentModel>(of type: Model.Type, for identifier: PersistentIdentifier) -> Model {
        let data = ModelBackingData(of: type)
        data.persistentIdentifier = identifier
        // A `let` takes its stored value in `init(backingData:)`, and a placeholder has none:
        // it takes one with nothing in it (`""`, `0`, `nil`, an empty collection).
        for constant in ModelEntities.info(of: type).constants {
            guard let value = constant.placeholderValue else {
                preconditionFailure(
                    "\(identifier) is not in the store, and \(identifier.entityName).\(constant.name) is a let of a type with no empty value, so no placeholder can be made; look it up with registeredModel(for:) or a fetch when it may be gone"
                )
            }
            data.setInitialValue(value, forKey: constant.name)
        }
        return ModelLoading.loading(type) { type.init(backingData: data) }
    }

    /// The model with this identity, registered or read from the store; `nil` when the
    /// store holds no such model.
    func existingModel(for identifier: PersistentIdentifier) -> (any PersistentModel)? {
        if let model = registered[identifier] { return model }
        guard
            let stored = opened.store(of: identifier.entityName).document(
                entity: identifier.entityName, id: identifier.id)
        else { return nil }
        return recordingIssue { () throws(FolioError) in try materialize(stored) }
    }

    /// SwiftData's step that brings inverses and delete rules up to date before a fetch.
    /// Folio keeps inverses current as each property is set and applies delete rules at the
    /// save, so there is nothing left to process: it does nothing, and code calling it compiles.
    public func processPendingChanges() {}

    /// Throws away unsaved changes: inserted models are forgotten, deleted ones kept,
    /// changed ones read back from their documents. The undo manager forgets what it recorded.
    public func rollback() {
        undoManager?.removeAllActions()
        for identifier in inserted { registered[identifier]?.persistentBackingData.context = nil }
        for identifier in inserted { registered[identifier] = nil }
        for identifier in changed {
            guard let model = registered[identifier], let stored = model.persistentBackingData.document,
                let layout = opened.layout(of: model)
            else { continue }
            recordingIssue { () throws(FolioError) in
                try ModelDocument.fill(model.persistentBackingData, from: stored, layout: layout, context: self)
            }
        }
        inserted = []
        deleted = []
        changed = []
    }

    /// Runs a block and saves what it changed; if the block throws, its changes are rolled back.
    ///
    /// - Throws: what `block` throws, or the `FolioError` `save()` throws; the context's changes
    ///   are rolled back when either throws.
    public func transaction(block: () throws -> Void) throws {
        do {
            try block()
            try save()
        } catch {
            rollback()
            throw error
        }
    }

    /// Whether the model is marked for deletion at the next save.
    func isPendingDeletion(_ data: ModelBackingData) -> Bool {
        data.persistentIdentifier.map(deleted.contains) ?? false
    }

    /// A setter changed a registered model.
    func modelDidChange(_ data: ModelBackingData) {
        guard let identifier = data.persistentIdentifier, registered[identifier] != nil else { return }
        changed.insert(identifier)
        scheduleAutosave()
    }

    /// The model for a stored document: the registered instance, else a new one filled from it.
    func materialize(_ stored: StoredDocument) throws(FolioError) -> any PersistentModel {
        try materialize(stored, isKnownReadable: false).model
    }

    /// The registered model for a document, else one made from it, and whether every
    /// member was decoded to make it, the own `id` agreeing with the document's name. A
    /// document a model was made from so before (with this container's layout, so
    /// decoding it cannot fail) leaves its members to be decoded when first read.
    ///
    /// `mayBeRegistered` is false when the caller knows the context has no model for the
    /// document (a fetch into an empty context), which spares hashing the identity twice.
    /// A fetch passes its entity's `layout`, looked up once rather than once per result.
    func materialize(
        _ stored: StoredDocument, isKnownReadable: Bool, mayBeRegistered: Bool = true, layout: EntityLayout? = nil
    ) throws(FolioError) -> (model: any PersistentModel, decoded: Bool) {
        let identifier = PersistentIdentifier(entityName: stored.entity, id: stored.id)
        if mayBeRegistered, let model = registered[identifier] { return (model, false) }
        guard let layout = opened.layout(of: stored, given: layout), let type = layout.entity.modelType.value else {
            throw .invalidDocument(
                path: stored.path.relativePath,
                reason:
                    "no model of this container is named \(stored.content[ReservedKey.entity]?.stringValue ?? stored.entity)"
            )
        }
        let contents = try ModelDocument.contents(
            of: stored, layout: layout, context: self, decodingMembers: !isKnownReadable)
        let data = ModelBackingData(
            layout: layout, values: contents.values, faults: contents.faults, identifier: identifier, document: stored,
            deletedAt: contents.deletedAt,
            context: self)
        let model = ModelLoading.loading(type) { type.init(backingData: data) }
        registered[identifier] = model
        // The own `id` read from its slot: by name it was a dictionary lookup per model.
        let ownIdentity = layout.identitySlot.flatMap { contents.values[$0] } as? UUID
        return (model, !isKnownReadable && (!layout.hasOwnIdentity || ownIdentity == stored.id))
    }

    /// The models of an entity whose to-one relationship `inverseName` refers to a model:
    /// the other side of a to-many that documents do not store.
    func models(of entity: String, referringTo owner: UUID, through inverseName: String, includingDeleted: Bool = false)
        -> [any PersistentModel]
    {
        guard let destination = opened.schema.entity(named: entity)?.relationship(named: inverseName)?.destination
        else { return [] }
        let owners = opened.schema.storageName(of: destination)
        // The relationship index answers this without reading the entity's other documents.
        let query = DocumentQuery(
            entity: entity,
            filter: .compare(.property(inverseName), .equal, .value(.document(entity: owners, id: owner))),
            includeDeleted: includingDeleted)
        guard let result = recordingIssue({ () throws(FolioError) in try opened.store(of: entity).query(query) })
        else { return [] }
        return result.matches.compactMap(\.stored)
            .compactMap { stored in recordingIssue { () throws(FolioError) in try materialize(stored) } }
            .filter { !isPendingDeletion($0.persistentBackingData) }
    }

    /// Runs a step whose failure has no caller to go to, keeping the error in `issues`.
    @discardableResult
    func recordingIssue<Value>(_ step: () throws(FolioError) -> Value) -> Value? {
        do { return try step() } catch {
            issues.append(error)
            return nil
        }
    }

    private func scheduleAutosave() {
        // Only the main context (the one that keeps no container) autosaves: it lives on the main actor.
        guard autosaveEnabled, kept == nil, !autosaveScheduled else { return }
        autosaveScheduled = true
        nonisolated(unsafe) let context = self
        Task { @MainActor in
            context.autosaveScheduled = false
            do throws(FolioError) { try context.save() } catch { context.autosaveError = error }
        }
    }
}

/// The main context, as the threads that report changes reach it: weakly, so that it can go,
/// and only to send work to the main actor, where it is used.
private final class MainContextReference: @unchecked Sendable {
    weak var context: ModelContext?
}
