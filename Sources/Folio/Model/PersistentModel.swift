import Observation

/// A class whose instances Folio stores, one JSON document each: what `@Model` makes of a class.
///
/// Do not conform by hand; the macro writes the conformance, the tracked properties and
/// the schema from the declaration, as SwiftData's `@Model` does.
public protocol PersistentModel: AnyObject, Observable {
    /// The model's entity: its name and stored properties, read from the declaration.
    static var schemaEntity: Schema.Entity { get }
    /// The model's stored values and persistence state.
    var persistentBackingData: ModelBackingData { get }
    /// Makes a model around stored values, without running the class's own initializer.
    init(backingData: ModelBackingData)
}
