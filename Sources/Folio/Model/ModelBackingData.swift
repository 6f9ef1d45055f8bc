/// A model's stored values, and which of them changed since the last save.
///
/// The `@Model` macro turns each stored property into one that keeps its value here,
/// so that Folio can read, write and track every property by name without knowing the
/// class, and so that a model can be made from a document without running its
/// initializer (`init(backingData:)`).
public final class ModelBackingData {
    private var values: [String: Any] = [:]
    /// The properties set since the model was loaded or last saved.
    public private(set) var changedProperties: Set<String> = []

    public init() {}

    /// The value of a property; the macro's getters call this.
    ///
    /// Every property gets a value before anyone can read it: the class's initializer sets
    /// each one (Swift checks that), and models loaded from documents are filled before
    /// they are handed out.
    public func value<Value>(forKey key: String) -> Value {
        guard let value = values[key] as? Value else {
            preconditionFailure("\(key) was read before it was given a value of type \(Value.self)")
        }
        return value
    }

    /// Sets a property and records it as changed; the macro's setters call this.
    public func setValue<Value>(_ value: Value, forKey key: String) {
        values[key] = value
        changedProperties.insert(key)
    }

    /// Sets a property from the class's initializer or a document, which is not a change.
    public func setInitialValue<Value>(_ value: Value, forKey key: String) {
        values[key] = value
    }

    /// Forgets the changes, once they are saved.
    public func clearChanges() { changedProperties.removeAll() }
}
