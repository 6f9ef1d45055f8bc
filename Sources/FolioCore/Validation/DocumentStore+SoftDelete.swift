import FolioJSON
import Foundation

/// Soft deletes, restores and purges of documents, following the delete rules the
/// manifest records, as `ModelContext` does for models: the command line's `delete`,
/// `restore` and `purge`.
///
/// Each returns the changes for one `commit`, so a delete and everything it cascades
/// to land together or not at all.
extension DocumentStore {
    /// Marks documents deleted (`"$deleted"`: the moment), with every live document a
    /// `cascade` rule reaches; throws when a `deny` rule still has related documents.
    ///
    /// - Throws: `.constraint` when a `deny` rule still has related live documents; nothing is
    ///   marked then.
    public func softDeletion(of documents: [StoredDocument], at moment: Date = Date()) throws(FolioError)
        -> [DocumentChange]
    {
        var changes: [DocumentChange] = []
        var seen = Set<DocumentPath>()
        var pending = documents.filter { $0.content[ReservedKey.deleted] == nil }
        var related = RelatedDocuments(store: self)
        while let next = pending.popLast() {
            guard seen.insert(next.path).inserted else { continue }
            for link in related.links(of: next) {
                let live = link.documents.filter { $0.content[ReservedKey.deleted] == nil }
                switch link.deleteRule {
                case "deny" where !live.isEmpty:
                    throw .deleteDenied(
                        model: "\(next.entity) \(next.id)", relationship: link.name, relatedCount: live.count)
                case "cascade":
                    pending += live
                default:
                    break
                }
            }
            var content = next.content
            ReservedKey.stampDeleted(moment.json, in: &content)
            changes.append(.put(Document(entity: next.entity, id: next.id, content: content), basedOn: next.version))
        }
        return changes
    }

    /// Brings back soft-deleted documents, with what their deletion cascaded to (the
    /// documents a `cascade` rule reaches that carry the same `"$deleted"` stamp).
    public func restoration(of documents: [StoredDocument]) -> [DocumentChange] {
        var changes: [DocumentChange] = []
        var seen = Set<DocumentPath>()
        var pending = documents.compactMap { document in document.content[ReservedKey.deleted].map { (document, $0) } }
        var related = RelatedDocuments(store: self)
        while let (next, stamp) = pending.popLast() {
            guard seen.insert(next.path).inserted else { continue }
            for link in related.links(of: next) where link.deleteRule == "cascade" {
                pending += link.documents.filter { $0.content[ReservedKey.deleted] == stamp }.map { ($0, stamp) }
            }
            var content = next.content
            content.removeValue(forKey: ReservedKey.deleted)
            changes.append(.put(Document(entity: next.entity, id: next.id, content: content), basedOn: next.version))
        }
        return changes
    }

    /// Removes for good the documents soft-deleted before a moment (their files and blobs),
    /// and, in the same transaction, the references other documents keep to them.
    ///
    /// A soft-deleted document stays in the relationships that point at it, so a restore
    /// brings it back whole. Once it is purged nothing could restore it, and a reference to
    /// it would point at a file the store no longer holds: as a hard delete's `nullify` rule,
    /// a to-one reference becomes `null` and a to-many one loses the identity.
    public func purging(deletedBefore moment: Date) -> [DocumentChange] {
        var changes: [DocumentChange] = []
        var purged: [String: Set<UUID>] = [:]
        for entity in documentCounts.keys.sorted() {
            for document in documents(entity: entity) {
                guard let stamp = document.content[ReservedKey.deleted], let deletedAt = try? Date(json: stamp),
                    deletedAt < moment
                else { continue }
                changes.append(.delete(document.version))
                purged[entity, default: []].insert(document.id)
            }
        }
        guard !purged.isEmpty else { return changes }
        for (entity, description) in QuerySchema(manifest.storedSchema).entities.sorted(by: { $0.key < $1.key }) {
            // The relationships whose identities this entity's documents keep, into an entity that loses documents.
            let holders = description.properties.compactMap { name, property -> (name: String, gone: Set<UUID>)? in
                guard case .relationship(let destination, _, nil) = property, let gone = purged[destination] else {
                    return nil
                }
                return (name, gone)
            }
            guard !holders.isEmpty else { continue }
            for document in documents(entity: entity) where purged[entity]?.contains(document.id) != true {
                var content = document.content
                for (name, gone) in holders {
                    guard let value = content[name] else { continue }
                    func isGone(_ reference: JSONValue) -> Bool {
                        reference.stringValue.flatMap(UUIDText.parse).map(gone.contains) ?? false
                    }
                    if case .array(let references) = value {
                        let kept = references.filter { !isGone($0) }
                        if kept.count != references.count { content[name] = .array(kept) }
                    } else if isGone(value) {
                        content[name] = .null
                    }
                }
                if content != document.content {
                    changes.append(
                        .put(Document(entity: entity, id: document.id, content: content), basedOn: document.version))
                }
            }
        }
        return changes
    }
}

/// The documents each relationship of a document reaches, by the manifest's schema.
struct RelatedDocuments {
    struct Link {
        var name: String
        var deleteRule: String
        var documents: [StoredDocument]
    }

    let store: DocumentStore
    let schema: QuerySchema
    /// The manifest's schema, for what `QuerySchema` leaves out (delete rules).
    let described: StoredSchema
    /// Documents per entity, read once: finding the children a to-many does not store
    /// means looking at every document of the destination.
    private var loaded: [String: [StoredDocument]] = [:]

    init(store: DocumentStore) {
        self.store = store
        self.described = store.manifest.storedSchema
        self.schema = QuerySchema(described)
    }

    mutating func links(of document: StoredDocument) -> [Link] {
        guard
            let entity = schema.entity(of: document.content, inFolder: document.entity)
                ?? schema.entities[document.entity]
        else { return [] }
        let recorded = described.entity(named: entity.name)
        return entity.properties.compactMap { name, property in
            guard case .relationship(let destination, _, let storedInverse) = property else { return nil }
            let rule = recorded?.property(named: name)?.deleteRule ?? "nullify"
            let target = JSONValue.string(document.id.uuidString)
            let related: [StoredDocument]
            if let storedInverse {
                if loaded[destination] == nil { loaded[destination] = store.documents(entity: destination) }
                related = loaded[destination, default: []].filter { $0.content[storedInverse] == target }
            } else {
                let value = document.content[name] ?? .null
                let ids = (value.arrayValue ?? [value]).compactMap { $0.stringValue.flatMap(UUID.init(uuidString:)) }
                related = ids.compactMap { store.document(entity: destination, id: $0) }
            }
            return Link(name: name, deleteRule: rule, documents: related)
        }
    }
}
