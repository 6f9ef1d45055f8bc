import Foundation

/// An entity's stored properties resolved once per container, in declaration order, for
/// writing documents and making models from them: how each is coded and where it lives.
///
/// Saving and fetching go through this rather than the schema's declarations, so the
/// questions "is it stored?", "is it a blob?", "does the document keep this relationship?"
/// are answered once per container, not once per property per model.
struct EntityLayout {
    /// One stored property and where its value lives.
    enum Slot {
        /// A member of the document.
        case member(Schema.Attribute, ValueCoding)
        /// An `.externalStorage` blob file beside the document.
        case blob(Schema.Attribute, ValueCoding)
        /// An `.ephemeral` attribute: tracked, never stored.
        case ephemeral(Schema.Attribute, ValueCoding)
        /// A relationship the document keeps: a UUID, or a sorted array of them.
        case reference(Schema.Relationship, RelationshipAccess)
        /// A to-many whose inverse is a to-one: the documents pointing back.
        case backReference(Schema.Relationship, RelationshipAccess, inverseName: String)
    }

    let entity: Schema.Entity
    let slots: [Slot]
    /// Whether the model's own `id: UUID` names its document (else `"$id"` is stored).
    let hasOwnIdentity: Bool
    /// The properties whose values are members of the document.
    let storedNames: Set<String>

    /// The layout of an entity whose attributes all have a coding (the container checked).
    init(_ entity: Schema.Entity, in schema: Schema) {
        self.entity = entity
        hasOwnIdentity = entity.attribute(named: "id").map { $0.valueType == "UUID" && !$0.isOptional } ?? false
        slots = entity.properties.compactMap { property -> Slot? in
            switch property {
            case .attribute(let attribute):
                guard let coding = attribute.coding.value else { return nil }
                if attribute.isExternalStorage { return .blob(attribute, coding) }
                return attribute.isStored ? .member(attribute, coding) : .ephemeral(attribute, coding)
            case .relationship(let relationship):
                guard let access = relationship.access.value else { return nil }
                if !relationship.isStored(in: schema), let inverseName = relationship.inverseName {
                    return .backReference(relationship, access, inverseName: inverseName)
                }
                return .reference(relationship, access)
            }
        }
        storedNames = Set(
            slots.compactMap { slot in
                switch slot {
                case .member(let attribute, _): attribute.name
                case .reference(let relationship, _): relationship.name
                case .blob, .ephemeral, .backReference: nil
                }
            })
    }
}
