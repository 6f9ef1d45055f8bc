import FolioJSON
import Foundation

/// An entity's stored properties resolved once per container, in declaration order, for
/// writing documents and making models from them: how each is coded and where it lives.
///
/// Saving and fetching go through this rather than the schema's declarations, so the
/// questions "is it stored?", "is it a blob?", "does the document keep this relationship?"
/// are answered once per container, not once per property per model.
///
/// A class: materializing a model looks its layout up, and a struct's copy retained the
/// entity's and every slot's arrays and strings, once per model fetched.
final class EntityLayout {
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

    /// A `.member` slot as `ModelDocument.fill` reads it: what a document needs to
    /// become a value, without the whole attribute. Copying a `Slot` out of `slots`
    /// retained every string, array and closure of its attribute and coding, for each
    /// property of each model fetched; this copies one closure.
    struct MemberReader {
        let name: String
        let valueType: String
        let decode: (JSONValue) throws(JSONError) -> Any
        /// Where the slot is in `slots`, for the rare document that lacks the member.
        let slot: Int
    }

    let entity: Schema.Entity
    let slots: [Slot]
    /// The `.member` slots, in order, for reading documents.
    let memberReaders: [MemberReader]
    /// Where in `memberReaders` each slot that is a member has its reader, by slot
    /// position: how a model that left its members to be decoded on first read decodes one.
    let memberReaderOfSlot: [Int?]
    /// The positions in `slots` of the other slots (blobs, ephemeral values, relationships).
    let otherSlots: [Int]
    /// Whether the model's own `id: UUID` names its document (else `"$id"` is stored).
    let hasOwnIdentity: Bool
    /// The slot of that own `id`.
    let identitySlot: Int?
    /// A value for every slot, none read yet: what a model that leaves its members to be
    /// decoded on first read starts from, shared until one is (so making it allocates none).
    let unreadSlots: [Any?]
    /// The properties whose values are members of the document.
    let storedNames: Set<String>
    /// Each slot's position by property name: where a model made from a document keeps
    /// the property's value (see `ModelBackingData`).
    let positions: [String: Int]
    /// The members a model is made from: its attributes', its stored relationships' (as
    /// `referenceMembers`, in order) and `"$deleted"`, all that is decoded of a document
    /// a fetch hands on compact.
    let documentMembers: [String]
    /// The members that hold the stored relationships' references, in `otherSlots` order:
    /// what a model whose attributes are left for first read needs of its document now.
    let referenceMembers: [String]

    /// The layout of an entity whose attributes all have a coding (the container checked).
    init(_ entity: Schema.Entity, in schema: Schema) {
        self.entity = entity
        hasOwnIdentity = entity.attribute(named: "id").map { $0.valueType == "UUID" && !$0.isOptional } ?? false
        let slots = entity.properties.compactMap { property -> Slot? in
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
        self.slots = slots
        var memberReaders: [MemberReader] = []
        var otherSlots: [Int] = []
        for (position, slot) in slots.enumerated() {
            if case .member(let attribute, let coding) = slot {
                memberReaders.append(
                    MemberReader(
                        name: attribute.name, valueType: attribute.valueType, decode: coding.decode, slot: position))
            } else {
                otherSlots.append(position)
            }
        }
        self.memberReaders = memberReaders
        identitySlot = hasOwnIdentity ? slots.firstIndex { $0.name == "id" } : nil
        unreadSlots = [Any?](repeating: nil, count: slots.count)
        var memberReaderOfSlot = [Int?](repeating: nil, count: slots.count)
        for (index, reader) in memberReaders.enumerated() { memberReaderOfSlot[reader.slot] = index }
        self.memberReaderOfSlot = memberReaderOfSlot
        self.otherSlots = otherSlots
        referenceMembers = otherSlots.compactMap { position -> String? in
            if case .reference(let relationship, _) = slots[position] { relationship.name } else { nil }
        }
        documentMembers = memberReaders.map(\.name) + referenceMembers + [ReservedKey.deleted]
        positions = Dictionary(slots.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        storedNames = Set(
            slots.compactMap { slot in
                switch slot {
                case .member, .reference: slot.name
                case .blob, .ephemeral, .backReference: nil
                }
            })
    }
}

extension EntityLayout.Slot {
    /// The property's name.
    var name: String {
        switch self {
        case .member(let attribute, _), .blob(let attribute, _), .ephemeral(let attribute, _): attribute.name
        case .reference(let relationship, _), .backReference(let relationship, _, _): relationship.name
        }
    }
}
