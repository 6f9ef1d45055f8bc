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

extension HistoryUpdate {
    /// The type of an updated attribute's key path, as SwiftData names it.
    public typealias PropertyUpdate = PartialKeyPath<Model> & Sendable
}

/// An insert in a Folio store's history.
public struct DefaultHistoryInsert<Model: PersistentModel>: HistoryInsert {
    /// The change's number in the store's history, increasing with each change recorded.
    public let changeIdentifier: Int64
    /// The number of the transaction (one save, one tool command, or changes found on disk) that made it.
    public let transactionIdentifier: Int64
    /// The model inserted.
    public let changedPersistentIdentifier: PersistentIdentifier
}

/// An update in a Folio store's history.
public struct DefaultHistoryUpdate<Model: PersistentModel>: HistoryUpdate {
    /// The change's number in the store's history, increasing with each change recorded.
    public let changeIdentifier: Int64
    /// The number of the transaction (one save, one tool command, or changes found on disk) that made it.
    public let transactionIdentifier: Int64
    /// The model updated.
    public let changedPersistentIdentifier: PersistentIdentifier
    /// The key paths of the attributes whose stored values changed; relationships are not listed.
    public let updatedAttributes: [any PartialKeyPath<Model> & Sendable]
}

/// A delete in a Folio store's history.
public struct DefaultHistoryDelete<Model: PersistentModel>: HistoryDelete {
    /// The change's number in the store's history, increasing with each change recorded.
    public let changeIdentifier: Int64
    /// The number of the transaction (one save, one tool command, or changes found on disk) that made it.
    public let transactionIdentifier: Int64
    /// The model deleted (or soft-deleted).
    public let changedPersistentIdentifier: PersistentIdentifier
    /// The values of its `.preserveValueOnDeletion` attributes as they were when it was deleted.
    public let tombstone: HistoryTombstone<Model>
}

/// The values a deleted model kept for the history: those of its attributes declared
/// `.preserveValueOnDeletion`. Read one with its key path: `tombstone[\.name] as? String`.
public struct HistoryTombstone<Model: PersistentModel>: Sequence, Sendable {
    /// Each preserved attribute with the value the history kept for it, as JSON: immutable,
    /// and decoded again on every read, so each value a caller gets was made for that read
    /// alone and is shared with no other thread.
    let kept: [(attribute: Schema.Attribute, json: JSONValue)]

    /// The value kept for an attribute, or `nil` when it was not preserved.
    public subscript(keyPath: PartialKeyPath<Model>) -> (any Sendable)? {
        guard let kept = kept.first(where: { $0.attribute.keyPath.value == keyPath }) else { return nil }
        return Self.decoded(kept)
    }

    /// The kept values, in the order of the model's properties.
    public func makeIterator() -> Iterator { Iterator(base: kept.makeIterator()) }

    /// Goes through the kept values.
    public struct Iterator: IteratorProtocol {
        var base: IndexingIterator<[(attribute: Schema.Attribute, json: JSONValue)]>
        /// The next kept value, decoded for this read; `nil` at the end.
        public mutating func next() -> Any? {
            while let kept = base.next() {
                if let value = HistoryTombstone.decoded(kept) { return value }
            }
            return nil
        }
    }

    /// A kept value decoded for one read; `nil` when it no longer decodes as the attribute's type.
    static func decoded(_ kept: (attribute: Schema.Attribute, json: JSONValue)) -> (any Sendable)? {
        guard let coding = kept.attribute.coding.value, let value = try? coding.decode(kept.json) else { return nil }
        // Made by this read and referred to from nowhere else, so handing it to another thread
        // shares nothing. `Any` and `any Sendable` have one layout (a marker protocol adds no
        // witness table), and a conditional cast to a marker protocol does not exist; `as Any`
        // keeps the value boxed, so its payload is not opened.
        return unsafeBitCast(value as Any, to: (any Sendable).self)
    }
}
