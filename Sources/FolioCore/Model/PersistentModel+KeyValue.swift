// PersistentModel: a stored property read and written by its key path, as SwiftData's
// `getValue(forKey:)` and `setValue(forKey:to:)` do.

extension PersistentModel {
    /// The value of an attribute, read as the property itself reads it.
    ///
    /// Each overload goes through the property's own accessors, which `@Model` wrote: the
    /// read is observed and a relationship not read yet is loaded, exactly as `model.name` is.
    public func getValue<Value>(forKey key: KeyPath<Self, Value>) -> Value where Value: Decodable {
        self[keyPath: key]
    }

    /// The model a required to-one relationship (`var owner: Owner`) holds.
    public func getValue<Value>(forKey key: KeyPath<Self, Value>) -> Value where Value: PersistentModel {
        self[keyPath: key]
    }

    /// The model a to-one relationship holds, or `nil`.
    public func getValue<Value>(forKey key: KeyPath<Self, Value?>) -> Value? where Value: PersistentModel {
        self[keyPath: key]
    }

    /// The models a to-many relationship holds (`[Item]`, or `[Item]?`).
    public func getValue<Value, OtherModel>(forKey key: KeyPath<Self, Value>) -> Value
    where Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        self[keyPath: key]
    }

    /// The value of an attribute stored through a `ValueTransformer` (`@Attribute(.transformable(by:))`).
    public func getTransformableValue<Value>(forKey key: KeyPath<Self, Value>) -> Value {
        self[keyPath: key]
    }

    /// Sets an attribute, as assigning the property does.
    ///
    /// Each overload goes through the property's own setter, which `@Model` wrote: observers
    /// hear of it, the model records the change (so the next save writes it), and a
    /// relationship's other side is kept current, exactly as `model.name = value` does.
    public func setValue<Value>(forKey key: KeyPath<Self, Value>, to newValue: Value) where Value: Encodable {
        assign(newValue, to: key)
    }

    /// Sets a required to-one relationship (`var owner: Owner`).
    public func setValue<Value>(forKey key: KeyPath<Self, Value>, to newValue: Value) where Value: PersistentModel {
        assign(newValue, to: key)
    }

    /// Sets a to-one relationship, or clears it with `nil`.
    public func setValue<Value>(forKey key: KeyPath<Self, Value?>, to newValue: Value?) where Value: PersistentModel {
        assign(newValue, to: key)
    }

    /// Sets the models a to-many relationship holds.
    public func setValue<Value, OtherModel>(forKey key: KeyPath<Self, Value>, to newValue: Value)
    where Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        assign(newValue, to: key)
    }

    /// Sets an attribute stored through a `ValueTransformer` (`@Attribute(.transformable(by:))`).
    public func setTransformableValue<Value>(forKey key: KeyPath<Self, Value>, to newValue: Value) {
        assign(newValue, to: key)
    }

    /// Assigns through the key path, which for a `@Model` property calls its setter.
    ///
    /// A key path that cannot write is a `let`'s: Folio keeps a `let` in the instance, as
    /// Swift does, so nothing can change it after `init`; a save would otherwise write a
    /// value the model itself does not show.
    private func assign<Value>(_ newValue: Value, to key: KeyPath<Self, Value>) {
        guard let writable = key as? ReferenceWritableKeyPath<Self, Value> else {
            let name = Self.schemaEntity.property(readBy: key)?.name ?? "\(key)"
            preconditionFailure("\(Self.self).\(name) is a let: it is set by init alone and cannot change afterwards")
        }
        self[keyPath: writable] = newValue
    }
}
