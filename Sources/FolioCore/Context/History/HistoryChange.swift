/// One model's change in a history transaction: SwiftData's `HistoryChange`. Cast the
/// change to the model's type to read it: `case .insert(let insert as DefaultHistoryInsert<Trip>)`.
public enum HistoryChange: Sendable {
    case insert(any HistoryInsert)
    case update(any HistoryUpdate)
    case delete(any HistoryDelete)

    /// The identity of the model that changed.
    public var changedPersistentIdentifier: PersistentIdentifier {
        switch self {
        case .insert(let change): change.changedPersistentIdentifier
        case .update(let change): change.changedPersistentIdentifier
        case .delete(let change): change.changedPersistentIdentifier
        }
    }
}

/// A model inserted (or restored from a soft delete) by a transaction.
public protocol HistoryInsert<Model>: Sendable {
    associatedtype Model: PersistentModel
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    /// The change's place in its transaction.
    var changeIdentifier: ChangeIdentifier { get }
    var transactionIdentifier: TransactionIdentifier { get }
    var changedPersistentIdentifier: PersistentIdentifier { get }
}

/// A model whose attributes a transaction changed.
public protocol HistoryUpdate<Model>: Sendable {
    associatedtype Model: PersistentModel
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    var changeIdentifier: ChangeIdentifier { get }
    var transactionIdentifier: TransactionIdentifier { get }
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The properties whose stored values changed.
    var updatedAttributes: [any PartialKeyPath<Model> & Sendable] { get }
}

/// A model deleted (or soft-deleted) by a transaction, with the values it kept.
public protocol HistoryDelete<Model>: Sendable {
    associatedtype Model: PersistentModel
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    var changeIdentifier: ChangeIdentifier { get }
    var transactionIdentifier: TransactionIdentifier { get }
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The values of its `.preserveValueOnDeletion` attributes.
    var tombstone: HistoryTombstone<Model> { get }
}

/// An insert in a Folio store's history.
public struct DefaultHistoryInsert<Model: PersistentModel>: HistoryInsert {
    public let changeIdentifier: Int64
    public let transactionIdentifier: Int64
    public let changedPersistentIdentifier: PersistentIdentifier
}

/// An update in a Folio store's history.
public struct DefaultHistoryUpdate<Model: PersistentModel>: HistoryUpdate {
    public typealias PropertyUpdate = PartialKeyPath<Model> & Sendable
    public let changeIdentifier: Int64
    public let transactionIdentifier: Int64
    public let changedPersistentIdentifier: PersistentIdentifier
    public let updatedAttributes: [any PartialKeyPath<Model> & Sendable]
}

/// A delete in a Folio store's history.
public struct DefaultHistoryDelete<Model: PersistentModel>: HistoryDelete {
    public let changeIdentifier: Int64
    public let transactionIdentifier: Int64
    public let changedPersistentIdentifier: PersistentIdentifier
    public let tombstone: HistoryTombstone<Model>
}

/// The values a deleted model kept for the history: those of its attributes declared
/// `.preserveValueOnDeletion`. Read one with its key path: `tombstone[\.name] as? String`.
public struct HistoryTombstone<Model: PersistentModel>: Sequence, @unchecked Sendable {
    // Sendable by construction: the values are decoded from JSON into value types
    // (`ValueCoding`'s), never shared mutable objects.
    let values: [(keyPath: AnyKeyPath, value: Any)]

    /// The value kept for an attribute, or `nil` when it was not preserved.
    public subscript(keyPath: PartialKeyPath<Model>) -> (any Sendable)? {
        guard let value = values.first(where: { $0.keyPath == keyPath })?.value else { return nil }
        // `Any` and `any Sendable` have one layout (a marker protocol adds no witness table),
        // and a dynamic cast to a marker protocol does not exist. `as Any` keeps the value
        // boxed: passed bare, the existential would be opened and its payload's size compared.
        return unsafeBitCast(value as Any, to: (any Sendable).self)
    }

    /// The kept values, in the order of the model's properties.
    public func makeIterator() -> Iterator { Iterator(base: values.makeIterator()) }

    /// Goes through the kept values.
    public struct Iterator: IteratorProtocol {
        var base: IndexingIterator<[(keyPath: AnyKeyPath, value: Any)]>
        public mutating func next() -> Any? { base.next()?.value }
    }
}
