import Foundation
import FolioJSON

/// Soft deletes, restores and purges of documents, following the delete rules the
/// manifest records, as `ModelContext` does for models: the command line's `delete`,
/// `restore` and `purge`.
///
/// Each returns the changes for one `commit`, so a delete and everything it cascades
/// to land together or not at all.
extension DocumentStore {
    /// Marks documents deleted (`"$deleted"`: the moment), with every live document a
    /// `cascade` rule reaches; throws when a `deny` rule still has related documents.
    public func softDeletion(of documents: [StoredDocument], at moment: Date = Date()) throws(FolioError) -> [DocumentChange] {
        var changes: [DocumentChange] = []
        var seen = Set<DocumentPath>()
        var pending = documents.filter { $0.content["$deleted"] == nil }
        var related = RelatedDocuments(store: self)
        while let next = pending.popLast() {
            guard seen.insert(next.path).inserted else { continue }
            for link in related.links(of: next) {
                let live = link.documents.filter { $0.content["$deleted"] == nil }
                switch link.deleteRule {
                case "deny" where !live.isEmpty:
                    throw .deleteDenied(model: "\(next.entity) \(next.id)", relationship: link.name, relatedCount: live.count)
                case "cascade":
                    pending += live
                default:
                    break
                }
            }
            var content = next.content
            content.insert(moment.json, forKey: "$deleted", at: content.keys.prefix { ["$entity", "$version", "$id"].contains($0) }.count)
            changes.append(.put(Document(entity: next.entity, id: next.id, content: content), basedOn: next.version))
        }
        return changes
    }

    /// Brings back soft-deleted documents, with what their deletion cascaded to (the
    /// documents a `cascade` rule reaches that carry the same `"$deleted"` stamp).
    public func restoration(of documents: [StoredDocument]) -> [DocumentChange] {
        var changes: [DocumentChange] = []
        var seen = Set<DocumentPath>()
        var pending = documents.compactMap { document in document.content["$deleted"].map { (document, $0) } }
        var related = RelatedDocuments(store: self)
        while let (next, stamp) = pending.popLast() {
            guard seen.insert(next.path).inserted else { continue }
            for link in related.links(of: next) where link.deleteRule == "cascade" {
                pending += link.documents.filter { $0.content["$deleted"] == stamp }.map { ($0, stamp) }
            }
            var content = next.content
            content.removeValue(forKey: "$deleted")
            changes.append(.put(Document(entity: next.entity, id: next.id, content: content), basedOn: next.version))
        }
        return changes
    }

    /// Removes for good the documents soft-deleted before a moment (their files and blobs).
    public func purging(deletedBefore moment: Date) -> [DocumentChange] {
        documentCounts.keys.sorted().flatMap { entity in
            documents(entity: entity).compactMap { document -> DocumentChange? in
                guard let stamp = document.content["$deleted"], let deletedAt = try? Date(json: stamp), deletedAt < moment else { return nil }
                return .delete(document.version)
            }
        }
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
    let described: JSONValue
    /// Documents per entity, read once: finding the children a to-many does not store
    /// means looking at every document of the destination.
    private var loaded: [String: [StoredDocument]] = [:]

    init(store: DocumentStore) {
        self.store = store
        self.described = store.manifest.schema
        self.schema = QuerySchema(described)
    }

    mutating func links(of document: StoredDocument) -> [Link] {
        guard let entity = schema.entities[document.entity] else { return [] }
        let properties = described["entities"]?[document.entity]?["properties"]?.arrayValue ?? []
        return entity.properties.compactMap { name, property in
            guard case .relationship(let destination, _, let storedInverse) = property else { return nil }
            let rule = properties.first { $0["name"]?.stringValue == name }?["deleteRule"]?.stringValue ?? "nullify"
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
