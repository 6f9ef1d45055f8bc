import Foundation

/// A model's identity in its store: its entity and the UUID that names its document.
///
/// Stable across contexts and launches, so it can be passed between tasks (it is
/// `Sendable`, models are not) and turned back into a model with `ModelContext.model(for:)`.
public struct PersistentIdentifier: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The model's entity (its class's name); for a class that inherits from another
    /// model, the entity of its hierarchy's root, whose folder holds its document, so that
    /// the identity is the same whichever class in the hierarchy looks it up.
    public var entityName: String
    /// The document's identity: the model's own `id: UUID`, or one Folio assigned.
    public var id: UUID

    /// The identifier of the store holding the model, as SwiftData's `storeIdentifier`:
    /// always `nil` here.
    ///
    /// A Folio identity names its document by UUID, which no other store of the container
    /// shares, so it needs no store to tell it apart; apps reading this get SwiftData's
    /// answer for an identity not yet tied to a store.
    public var storeIdentifier: String? { nil }

    /// The identity of the document `id` in the folder of `entityName`.
    public init(entityName: String, id: UUID) {
        self.entityName = entityName
        self.id = id
    }

    /// Hashes the UUID alone: it tells identities apart almost always, and a fetch looks
    /// each model up by identity (and registers it), where hashing the entity's name too
    /// cost as much again. Equality still compares both.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
    }

    /// Orders identities by entity name, then by UUID text: the order of `folio` listings.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.entityName, lhs.id.uuidString) < (rhs.entityName, rhs.id.uuidString)
    }

    /// The identity of the document at `path`: its folder's entity and its UUID, whatever
    /// its day folder.
    init(_ path: DocumentPath) { self.init(entityName: path.entity, id: path.id) }

    /// The entity and the UUID, as messages name a model: `Timer 6F1C…`.
    public var description: String { "\(entityName) \(id.uuidString)" }
}
