import Foundation
import Observation

/// A class whose instances Folio stores, one JSON document each: what `@Model` makes of a class.
///
/// Do not conform by hand; the macro writes the conformance, the tracked properties and
/// the schema from the declaration, as SwiftData's `@Model` does. Models are equal when
/// they are the same instance, as SwiftData's are.
public protocol PersistentModel: AnyObject, Observable, Hashable, Identifiable {
    /// The model's entity: its name and stored properties, read from the declaration.
    static var schemaEntity: Schema.Entity { get }
    /// The model's stored properties, as SwiftData lists them; derived from `schemaEntity`.
    static var schemaMetadata: [Schema.PropertyMetadata] { get }
    /// The model's stored values and persistence state.
    var persistentBackingData: ModelBackingData { get }
    /// Makes a model around stored values, without running the class's own initializer.
    init(backingData: ModelBackingData)
    /// Tells the observers of the properties named `names` of one side of a change Folio
    /// makes to them (a refill from the store); `@Model` writes it.
    func _$notifyObservers(_ change: ObservedChange, of names: Set<String>)
}

extension PersistentModel {
    /// Tells no one: a model `@Model` did not write has no registrar Folio can reach.
    public func _$notifyObservers(_ change: ObservedChange, of names: Set<String>) {}

    /// The model's identity in its store; a model not inserted yet has a temporary one
    /// that becomes permanent when it is inserted.
    public var persistentModelID: PersistentIdentifier {
        let data = persistentBackingData
        if let identifier = data.persistentIdentifier { return identifier }
        recordConstants()  // a `let id` names the model
        // The folder's entity: a subclass's models are found wherever its superclass's are.
        let identifier = PersistentIdentifier(
            entityName: ModelEntities.entity(of: type(of: self)).storageName,
            id: data.ownIdentity ?? AssignedIdentity.next())
        data.persistentIdentifier = identifier
        return identifier
    }

    /// Copies the values of the model's `let` properties into its backing data, where
    /// saves read them; a model made from a document has them there already.
    func recordConstants() {
        let data = persistentBackingData
        guard data.document == nil else { return }
        for constant in ModelEntities.info(of: type(of: self)).constants
        where data.currentValue(forKey: constant.name) == nil {
            if let keyPath = constant.keyPath.value, let value = self[keyPath: keyPath] {
                data.setInitialValue(value, forKey: constant.name)
            }
        }
    }

    /// The context the model is registered in, if any.
    public var modelContext: ModelContext? { persistentBackingData.context }

    /// Whether the model has unsaved changes to its stored properties.
    public var hasChanges: Bool { !persistentBackingData.changedProperties.isEmpty }

    /// Whether the model is deleted in its context and the save that removes it has not
    /// run yet; false again after that save, as in SwiftData. A model soft-deleted in its
    /// store (fetched with `includeDeleted`) has a `deletedAt` instead.
    public var isDeleted: Bool {
        let data = persistentBackingData
        return data.context.map { $0.isPendingDeletion(data) } ?? false
    }

    /// When the model was soft-deleted, or `nil`: set by the save of a `delete` under soft
    /// deletion, and for a model fetched with `includeDeleted`. Folio's: SwiftData has no soft deletes.
    public var deletedAt: Date? { persistentBackingData.deletedAt }

    /// Whether both are the same instance: models compare by identity, as SwiftData's do.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs === rhs }
    /// Hashes the instance's object identity, consistently with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension PersistentModel where ID == PersistentIdentifier {
    /// The model's identity, for models that declare no `id` of their own.
    public var id: PersistentIdentifier { persistentModelID }
}
