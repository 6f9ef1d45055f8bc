import FolioJSON
import Foundation

/// A model as a document and back, as the README's format section describes.
///
/// A document starts with its metadata (`"$entity"`, `"$version"`, `"$id"` for a model
/// without an `id: UUID` of its own, `"$deleted"` when soft-deleted), then the stored
/// properties in declaration order. Writing over a document that was read sets each
/// property in place, so keys the schema does not know stay where they were.
enum ModelDocument {
    /// The document for a model's current values.
    static func document(
        for model: any PersistentModel, layout: EntityLayout, version: Schema.Version, deletedAt: Date?
    ) throws(FolioError) -> Document {
        let data = model.persistentBackingData
        let identifier = model.persistentModelID
        var content = data.document?.content ?? JSONObject()
        var position = 0
        func lead(_ key: String, _ value: JSONValue?) {
            content.removeValue(forKey: key)
            guard let value else { return }
            content.insert(value, forKey: key, at: position)
            position += 1
        }
        lead(ReservedKey.entity, .string(layout.entity.name))
        lead(ReservedKey.version, .string(version.description))
        // Spelled out: a bare `nil` here would become JSON's null (JSONValue is nil-literal expressible).
        lead(ReservedKey.identity, layout.hasOwnIdentity ? Optional<JSONValue>.none : identifier.id.json)
        lead(ReservedKey.deleted, deletedAt?.json)

        var blobs: [String: [UInt8]?] = [:]
        var partitionDate: Date?
        for slot in layout.slots {
            switch slot {
            case .member(let attribute, let coding):
                let value = data.currentValue(forKey: attribute.name)
                if partitionDate == nil, !attribute.isOptional, let date = value as? Date { partitionDate = date }
                do {
                    content[attribute.name] = try coding.encode(value as Any)
                } catch {
                    throw .invalidValue("\(identifier): \(attribute.name) cannot be stored: \(error.message)")
                }
            case .blob(let attribute, _):
                // The blob is its own file: written when new or changed, else left alone.
                if data.document == nil || data.changedProperties.contains(attribute.name) {
                    blobs[attribute.name] = .some(
                        (data.currentValue(forKey: attribute.name) as? Data).map { Array($0) })
                }
            case .ephemeral, .backReference:
                continue
            case .reference(let relationship, let access):
                // A relationship not set since loading stays as the document has it, even if
                // reading it found fewer models (a related file unreadable or removed).
                guard data.document == nil || data.changedProperties.contains(relationship.name) else { continue }
                let related = data.currentValue(forKey: relationship.name).map(access.models) ?? []
                let identities = related.map(\.persistentModelID.id)
                content[relationship.name] =
                    relationship.isToMany
                    ? .array(identities.sorted { $0.uuidString < $1.uuidString }.map(\.json))
                    : identities.first?.json ?? .null
            }
        }
        return Document(
            entity: layout.entity.storageName, id: identifier.id, partitionDate: partitionDate, content: content,
            blobs: blobs)
    }

    /// Fills a model's backing data from its document again (a rollback): what
    /// `contents(of:layout:context:)` reads, in place of what the model held. `blobs` gives
    /// `.externalStorage` values in place of the files beside the document (a restore's).
    static func fill(
        _ data: ModelBackingData, from stored: StoredDocument, layout: EntityLayout, context: ModelContext,
        blobs: [String: [UInt8]?] = [:]
    ) throws(FolioError) {
        let contents = try contents(of: stored, layout: layout, context: context, blobs: blobs)
        data.load(layout: layout, values: contents.values, faults: contents.faults)
        data.persistentIdentifier = PersistentIdentifier(entityName: layout.entity.storageName, id: stored.id)
        data.document = stored
        data.deletedAt = contents.deletedAt
        data.clearChanges()
    }

    /// The properties whose values a refill from `new` changes in a model made from `old`:
    /// the members and references that differ as JSON, and every property not kept in the
    /// document (a blob, an ephemeral value, the models pointing back), which a refill reads
    /// or resets anew. All of them when there was no document.
    static func changedProperties(from old: StoredDocument?, to new: StoredDocument, layout: EntityLayout) -> Set<
        String
    > {
        guard let old else { return Set(layout.slots.map(\.name)) }
        let stored = Array(layout.storedNames)
        let (before, after) = (old.members(stored), new.members(stored))
        var names = Set(stored.indices.filter { before[$0] != after[$0] }.map { stored[$0] })
        for slot in layout.slots where !layout.storedNames.contains(slot.name) { names.insert(slot.name) }
        return names
    }

    /// What a model made from a document holds: its values by slot (attributes decoded),
    /// relationships left to load on first read, and when it was soft-deleted.
    ///
    /// Without `decodingMembers`, the document's members are left to be decoded when first
    /// read (`member(atSlot:of:layout:)`): for a document a model was made from before, whose
    /// decoding is known not to fail. A fetch of many models then decodes only what is read.
    static func contents(
        of stored: StoredDocument, layout: EntityLayout, context: ModelContext, decodingMembers: Bool = true,
        blobs: [String: [UInt8]?] = [:]
    ) throws(FolioError) -> (values: [Any?], faults: [String: () -> Any], deletedAt: Date?) {
        // Only the members the model maps are read (from a compact document, only they are
        // decoded): each member reader's, then the references', then `"$deleted"`.
        let found = stored.members(decodingMembers ? layout.documentMembers : layout.referenceMembers)
        var nextReference = decodingMembers ? layout.memberReaders.count : 0
        // A model may outlive the context it was fetched in (`try ModelContext(c).fetch(...)`):
        // its relationships then load through a context of their own over the same stores. The
        // faults keep the stores, not the container, which may keep this model's context.
        let opened = context.opened
        var values = layout.unreadSlots
        var faults: [String: () -> Any] = [:]
        for (index, reader) in layout.memberReaders.enumerated() where decodingMembers {
            if let value = found[index] {
                do {
                    values[reader.slot] = try reader.decode(value)
                } catch {
                    throw .invalidDocument(
                        path: stored.path.relativePath,
                        reason: "\"\(reader.name)\" (\(reader.valueType)): \(error.message)")
                }
            } else if case .member(let attribute, let coding) = layout.slots[reader.slot] {
                values[reader.slot] = try absentValue(of: attribute, coding: coding, stored)
            }
        }
        for position in layout.otherSlots {
            switch layout.slots[position] {
            case .member:
                continue  // above
            case .blob(let attribute, let coding):
                let bytes: [UInt8]?
                if let given = blobs[attribute.name] {
                    bytes = given
                } else {
                    bytes = try opened.store(of: stored.entity).blob(of: stored.path, property: attribute.name)
                }
                values[position] = try decode(
                    bytes.map { Data($0).json } ?? .null, with: coding, attribute: attribute, stored)
            case .ephemeral(let attribute, let coding):
                values[position] = try absentValue(of: attribute, coding: coding, stored)
            case .backReference(let relationship, let access, let inverseName):
                let owner = stored.id
                faults[relationship.name] = { [weak context] in
                    access.value(
                        (context ?? ModelContext(opened.handle())).models(
                            of: relationship.destination, referringTo: owner, through: inverseName))
                }
            case .reference(let relationship, let access):
                let reference = found[nextReference]
                nextReference += 1
                let identities: [UUID] =
                    switch reference {
                    case .string(let text)?: UUIDText.parse(text).map { [$0] } ?? []
                    case .array(let elements)?: elements.compactMap { $0.stringValue.flatMap(UUIDText.parse) }
                    default: []
                    }
                let destination = opened.schema.storageName(of: relationship.destination)
                let required = !relationship.isToMany && !relationship.isOptional
                if required, identities.isEmpty {
                    throw .invalidDocument(
                        path: stored.path.relativePath,
                        reason:
                            "\"\(relationship.name)\" names no \(relationship.destination) (it is null, missing or not an id), but \(stored.entity) requires one; set it to the id of one"
                    )
                }
                if required,
                    !opened.store(of: relationship.destination).holdsDocument(
                        entity: relationship.destination, id: identities[0])
                {
                    throw .invalidDocument(
                        path: stored.path.relativePath,
                        reason:
                            "\"\(relationship.name)\" names \(relationship.destination) \(identities[0].uuidString), which is not in the store, but \(stored.entity) requires one"
                    )
                }
                let path = required ? stored.path.relativePath : ""
                faults[relationship.name] = { [weak context] in
                    let resolver = context ?? ModelContext(opened.handle())
                    let models = identities.compactMap {
                        resolver.existingModel(for: PersistentIdentifier(entityName: destination, id: $0))
                    }
                    // A required to-one naming no model has no value to give: the getter traps
                    // with this, the last of the context's issues.
                    if required, models.isEmpty {
                        resolver.issues.append(
                            .invalidDocument(
                                path: path,
                                reason:
                                    "\"\(relationship.name)\" names \(relationship.destination) \(identities[0].uuidString), which is not in the store, but \(stored.entity) requires one"
                            ))
                    }
                    return access.value(models)
                }
            }
        }
        // A document known to be readable is not soft-deleted (see `QueryIndexes.Row`).
        var deletedAt: Date?
        if decodingMembers, let stamp = found.last ?? nil {
            do { deletedAt = try Date(json: stamp) } catch {
                throw .invalidDocument(
                    path: stored.path.relativePath, reason: "\"\(ReservedKey.deleted)\" is not a time: \(error.message)"
                )
            }
        }
        return (values, faults, deletedAt)
    }

    /// A member's value, decoded from the document a model was made from when the model
    /// left it to be decoded on first read; `nil` for a slot that is not a member. Decoding
    /// did not fail when a model was first made from the same document with the same
    /// layout, so an error here means a value's own decoding changed its mind (a `Codable`
    /// type reading global state): the caller records it rather than trapping.
    static func member(atSlot slot: Int, of stored: StoredDocument, layout: EntityLayout) -> Result<Any, FolioError>? {
        guard let reader = layout.memberReaderOfSlot[slot] else { return nil }
        let member = layout.memberReaders[reader]
        if let value = stored.member(member.name) {
            do {
                return .success(try member.decode(value))
            } catch {
                return .failure(
                    .invalidDocument(
                        path: stored.path.relativePath,
                        reason: "\"\(member.name)\" (\(member.valueType)): \(error.message)"))
            }
        }
        guard case .member(let attribute, let coding) = layout.slots[slot] else { return nil }
        return Result { () throws(FolioError) in try absentValue(of: attribute, coding: coding, stored) }
    }

    /// The value of an attribute the document lacks (written before the property was
    /// added, or never stored): the declaration's initial value, or `nil` for an optional.
    private static func absentValue(of attribute: Schema.Attribute, coding: ValueCoding, _ stored: StoredDocument)
        throws(FolioError) -> Any
    {
        if let makeDefault = attribute.makeDefaultValue.value { return makeDefault() }
        if attribute.isOptional { return try decode(.null, with: coding, attribute: attribute, stored) }
        throw .invalidDocument(
            path: stored.path.relativePath,
            reason:
                "the document has no \"\(attribute.name)\", which \(stored.entity) requires (\(attribute.valueType)); add it, or give the property a default value"
        )
    }

    private static func decode(
        _ json: JSONValue, with coding: ValueCoding, attribute: Schema.Attribute, _ stored: StoredDocument
    ) throws(FolioError) -> Any {
        do {
            return try coding.decode(json)
        } catch {
            throw .invalidDocument(
                path: stored.path.relativePath,
                reason: "\"\(attribute.name)\" (\(attribute.valueType)): \(error.message)")
        }
    }
}
