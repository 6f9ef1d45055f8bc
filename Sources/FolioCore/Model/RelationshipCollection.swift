/// A value that holds related models, as a to-many relationship's property does: what
/// `getValue(forKey:)` and `setValue(forKey:to:)` take for a to-many, as SwiftData's does.
///
/// An array of models is one (`[Item]`), and so is an optional array (`[Item]? = []`).
public protocol RelationshipCollection {
    /// The type of the related models.
    associatedtype PersistentElement: PersistentModel
}

/// An array of models: a to-many relationship's value.
extension Array: RelationshipCollection where Element: PersistentModel {
    /// The type of the related models: the array's elements.
    public typealias PersistentElement = Element
}

/// An optional array of models: the value of a to-many declared `[Item]? = []`.
extension Optional: RelationshipCollection where Wrapped: RelationshipCollection {
    /// The type of the related models: the wrapped collection's.
    public typealias PersistentElement = Wrapped.PersistentElement
}
