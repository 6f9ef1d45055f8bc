import Foundation

/// A model's stored values, which of them changed since the last save, and where the
/// model stands with its context and its document.
///
/// The `@Model` macro turns each stored property into one that keeps its value here,
/// so that Folio can read, write and track every property by name without knowing the
/// class, and so that a model can be made from a document without running its
/// initializer (`init(backingData:)`).
public final class ModelBackingData {
    /// The values, by the position `positions` gives each property: one array, filled in
    /// place, costs no hashing per property and about a third of a dictionary's memory. A
    /// member of a model made from a document without a value yet is decoded from
    /// `document` when first read (see `ModelDocument.fill`).
    private var slotValues: [Any?] = []
    /// Where each property's value is in `slotValues`: the layout's positions for a model
    /// made from a document, its class's entity's (`ModelEntities.Info.positions`) for one
    /// made by its initializer. Either is one table shared by every model of the entity; a
    /// property neither names (a subclass's, set before its superclass's storage knew the
    /// class) is appended to this model's own copy.
    private var positions: [String: Int] = [:]
    /// The container's layout of the entity, for a model made from a document.
    private var layout: EntityLayout?
    /// Relationships not read yet: how to find the related models on first read.
    private var faults: [String: () -> Any] = [:]
    /// The properties set since the model was loaded or last saved.
    public private(set) var changedProperties: Set<String> = []

    /// The context the model is registered in.
    weak var context: ModelContext?
    /// The model's identity, fixed when it is inserted or loaded.
    var persistentIdentifier: PersistentIdentifier?
    /// The document as last read or written, whose unknown keys a save keeps in place.
    var document: StoredDocument?
    /// When the model was soft-deleted, as its document records it.
    var deletedAt: Date?

    /// Backing data with no values yet, which places each where it is first set: what a
    /// model can be made around (`init(backingData:)`) with values set by name.
    public init() {}

    /// Backing data that keeps its values where the class's entity puts them.
    init(of type: any PersistentModel.Type) {
        positions = ModelEntities.info(of: type).positions
    }

    /// The backing data of a model made from a document, everything set at once: stores
    /// made by an initializer need none of the exclusivity checks that setting each
    /// property afterwards paid, once per property of every model fetched.
    init(
        layout: EntityLayout, values: [Any?], faults: [String: () -> Any], identifier: PersistentIdentifier,
        document: StoredDocument,
        deletedAt: Date?, context: ModelContext
    ) {
        self.layout = layout
        positions = layout.positions
        slotValues = values
        self.faults = faults
        persistentIdentifier = identifier
        self.document = document
        self.deletedAt = deletedAt
        self.context = context
    }

    /// The backing data in a model's storage, made there first if the model has none
    /// yet: the `@Model` macro's code calls this, so that a model made from a document
    /// (`init(backingData:)`) makes no backing data only to replace it.
    public static func ensured<Model: PersistentModel>(_ storage: inout ModelBackingData?, of model: Model.Type)
        -> ModelBackingData
    {
        if let data = storage { return data }
        let data = ModelBackingData(of: model)
        storage = data
        return data
    }

    /// The backing data of a model whose class inherits from another model: the
    /// superclass's, having taken in the values the subclass's initializer set before
    /// `super.init` (which it kept in its own storage, the superclass's being out of reach then).
    public static func adopting(_ pending: inout ModelBackingData?, into data: ModelBackingData) -> ModelBackingData {
        guard let initial = pending else { return data }
        pending = nil
        for (key, position) in initial.positions where position < initial.slotValues.count {
            if let value = initial.slotValues[position] { data.setInitialValue(value, forKey: key) }
        }
        return data
    }

    /// The value of a property; the macro's getters call this.
    ///
    /// Every property gets a value before anyone can read it: the class's initializer sets
    /// each one (Swift checks that), and models loaded from documents are filled before
    /// they are handed out (relationships when first read). An optional the initializer
    /// left unset is `nil`, as Swift has it.
    public func value<Value>(forKey key: String) -> Value {
        guard
            let value = currentValue(forKey: key) as? Value ?? (Value.self as? any OptionalValue.Type)?.noValue
                as? Value
        else {
            // Reached only when a required member without a default fails to decode on first read, which
            // `ModelDocument.member` explains and the context's `issues` records; a getter has no error to throw.
            preconditionFailure(
                "\(key) has no value of type \(Value.self): \(context?.issues.last?.description ?? "it was read before it was set")"
            )
        }
        return value
    }

    /// Sets a property and records it as changed; the macro's setters call this.
    ///
    /// Changes are recorded for models that are registered in a context or were loaded
    /// from a document (a new model's values are all written when it is inserted anyway),
    /// and not for a to-many that documents do not keep (its other side records them).
    ///
    /// Setting a relationship also updates the other side of every model it gains or
    /// loses, and registers newly related models in this model's context. A to-many holds
    /// each model once, as SwiftData's does: `event.yard = yard` already put the event in
    /// `yard.events`, so a following `yard.events.append(event)` leaves it there once.
    public func setValue<Value, Model: PersistentModel>(_ value: Value, forKey key: String, of model: Model) {
        let info = ModelEntities.info(of: Model.self)
        let relationship = info.entity.relationship(named: key)
        let undoManager = context?.undoManager
        // The value before, for a relationship's inverse or the context's undo manager.
        let previous = relationship == nil && undoManager == nil ? nil : currentValue(forKey: key)
        if undoManager != nil { context?.registerUndo(ofSetting: key, on: model, from: previous, as: Value.self) }
        var value: Any = value
        if let relationship, relationship.isToMany, let access = relationship.access.value {
            let models = access.models(value)
            var seen = Set<ObjectIdentifier>()
            let once = models.filter { seen.insert(ObjectIdentifier($0)).inserted }
            if once.count != models.count { value = access.value(once) }
        }
        store(value, forKey: key)
        let changesDocument = !info.backReferences.contains(key)
        if changesDocument, context != nil || document != nil { changedProperties.insert(key) }
        if let relationship, let previous { keepInverse(of: relationship, owner: model, from: previous, to: value) }
        if changesDocument { context?.modelDidChange(self) }
    }

    /// Sets a property from the class's initializer or a document, which is not a change.
    public func setInitialValue<Value>(_ value: Value, forKey key: String) {
        store(value, forKey: key)
        faults[key] = nil
    }

    /// Sets a property from the class's initializer, which is not a change; the macro's
    /// init accessors call this.
    ///
    /// A model being made from a document takes none of these: they are the class's
    /// initial values, which Swift applies before `init(backingData:)` hands the model the
    /// backing data its document filled (see `ModelLoading`).
    public static func setInitialValue<Value, Model: PersistentModel>(
        _ value: Value, forKey key: String, in storage: inout ModelBackingData?, of model: Model.Type
    ) {
        guard storage != nil || !ModelLoading.isLoading(Model.self) else { return }
        ensured(&storage, of: model).setInitialValue(value, forKey: key)
    }

    /// Replaces every value and fault at once: a model read back from its document (a
    /// rollback), whose values were decoded together, by position in the layout's slots.
    func load(layout: EntityLayout, values: [Any?], faults: [String: () -> Any]) {
        self.layout = layout
        positions = layout.positions
        slotValues = values
        self.faults = faults
    }

    /// The value as stored (loading a relationship not read yet), or `nil` if the property has none.
    func currentValue(forKey key: String) -> Any? {
        if let position = positions[key] {
            if position < slotValues.count, let value = slotValues[position] { return value }
            // Only a model made from a document (whose `positions` are its layout's) that left
            // its members to be decoded on first read gets further for a member. Its own `id`
            // is its document's name (checked when the document was first decoded), read
            // without decoding or storing it, which would copy the slots.
            if let layout {
                if position == layout.identitySlot, let persistentIdentifier { return persistentIdentifier.id }
                // Not bound with `if let`, which copied the document (retaining its parts) per read.
                if document != nil,
                    let decoded = ModelDocument.member(atSlot: position, of: document!, layout: layout)
                {
                    switch decoded {
                    case .success(let value):
                        slotValues[position] = value
                        return value
                    case .failure(let error):
                        return undecodableMember(key, at: position, layout: layout, error)
                    }
                }
            }
        }
        guard let load = faults.removeValue(forKey: key) else { return nil }
        let value = load()
        store(value, forKey: key)
        return value
    }

    /// What a member reads as when its document no longer decodes on first read (see
    /// `ModelDocument.member`): the declaration's initial value, else nothing (an optional
    /// reads `nil`). Never silent: the error goes to the context's `issues` and is logged once.
    private func undecodableMember(_ key: String, at position: Int, layout: EntityLayout, _ error: FolioError) -> Any? {
        context?.issues.append(error)
        OnceLog.documents.notice(
            error.path ?? key, "A model's \(key) could not be decoded when first read: \(error.description)")
        guard case .member(let attribute, _) = layout.slots[position],
            let makeDefault = attribute.makeDefaultValue.value
        else { return nil }
        let value = makeDefault()
        slotValues[position] = value
        return value
    }

    private func store(_ value: Any, forKey key: String) {
        let position: Int
        if let known = positions[key] {
            position = known
        } else {
            position = max(slotValues.count, positions.count)
            positions[key] = position
        }
        // Room for every property at once: a model made by its initializer sets them all.
        if position >= slotValues.count {
            slotValues.append(contentsOf: repeatElement(nil, count: positions.count - slotValues.count))
        }
        slotValues[position] = value
    }

    /// Records a property as changed that a refill already gave its new value: an
    /// `.externalStorage` value a restore read from the past, which the next save writes.
    func markChanged(_ key: String) { changedProperties.insert(key) }

    /// Forgets the changes, once they are saved.
    public func clearChanges() { changedProperties.removeAll() }

    /// Keeps the other side of a relationship current: models gained point back here, models lost no longer do.
    ///
    /// The model is passed in, not kept: a reference from the backing data back to its
    /// model would have to be weak, and a weak reference gives every model a side table
    /// to allocate and free.
    private func keepInverse(
        of relationship: Schema.Relationship, owner: any PersistentModel, from previous: Any, to value: Any
    ) {
        guard let access = relationship.access.value else { return }
        let before = access.models(previous)
        let after = access.models(value)
        // Sets of identities, so appending to a long to-many stays linear.
        let beforeIdentities = Set(before.map(ObjectIdentifier.init))
        let afterIdentities = Set(after.map(ObjectIdentifier.init))
        let gained = after.filter { !beforeIdentities.contains(ObjectIdentifier($0)) }
        let lost = before.filter { !afterIdentities.contains(ObjectIdentifier($0)) }
        if let context {
            for related in gained where related.persistentBackingData.context == nil { context.insert(related) }
        }
        guard let inverseName = relationship.inverseName,
            let inverse = ModelEntities.entity(of: access.destination).relationship(named: inverseName),
            let inverseAccess = inverse.access.value
        else { return }
        // Not recorded for undo: undoing this set sets the other sides again (inserts above are).
        let undoManager = context?.undoManager
        undoManager?.disableUndoRegistration()
        defer { undoManager?.enableUndoRegistration() }
        for related in lost {
            let data = related.persistentBackingData
            let current = data.currentValue(forKey: inverseName).map(inverseAccess.models) ?? []
            guard current.contains(where: { $0 === owner }) else { continue }
            inverseAccess.assign(related, inverseAccess.value(current.filter { $0 !== owner }))
        }
        for related in gained {
            let data = related.persistentBackingData
            let current = data.currentValue(forKey: inverseName).map(inverseAccess.models) ?? []
            guard !current.contains(where: { $0 === owner }) else { continue }
            inverseAccess.assign(related, inverseAccess.value(inverse.isToMany ? current + [owner] : [owner]))
        }
    }
}

extension ModelBackingData {
    /// The model's own `id`, when it declares one of type `UUID`: the name of its document.
    var ownIdentity: UUID? { currentValue(forKey: "id") as? UUID }
}
