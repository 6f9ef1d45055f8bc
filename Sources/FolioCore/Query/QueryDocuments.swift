import FolioJSON
import Foundation

/// The documents a query reads: the store's catalog as of the last refresh or commit,
/// with a context's unsaved changes laid over it, and the indexes over the catalog.
///
/// It owns the catalog only while a query runs (the store moves it in and back under
/// its lock), so decoding cached content on first use is kept for the next query.
struct QueryDocuments {
    var catalog: Catalog
    var indexes: QueryIndexes
    let schema: QuerySchema
    /// Unsaved content by identity; `nil` for a pending delete.
    var overlay: [PersistentIdentifier: JSONObject?] = [:]
    /// Whether soft-deleted documents count, as related documents and as results.
    var includeDeleted = false
    /// Documents whose content was read to answer the query.
    var examined = 0

    /// Documents with nothing in them, as a placeholder while the real ones are lent out.
    init(empty schema: QuerySchema) {
        self.init(catalog: Catalog(), indexes: QueryIndexes(), schema: schema)
    }

    init(catalog: Catalog, indexes: QueryIndexes, schema: QuerySchema) {
        self.catalog = catalog
        self.indexes = indexes
        self.schema = schema
    }

    /// The content of a live document (or a deleted one when asked), overlay first.
    mutating func content(of identity: PersistentIdentifier) -> JSONObject? {
        let content: JSONObject?
        if let pending = overlay[identity] {
            content = pending
        } else if let path = catalog.path(of: identity) {
            content = catalog.content(at: path)
        } else {
            content = nil
        }
        guard let content, includeDeleted || content[ReservedKey.deleted] == nil else { return nil }
        return content
    }

    /// The documents of `entity` whose to-one `property` holds `id`: a to-many the
    /// documents do not keep, answered from the relationship index.
    mutating func referrers(entity: String, property: String, to id: UUID) -> [UUID] {
        guard case .relationship(let destination, false, _) = schema.entities[entity]?.property(named: property) else {
            return []
        }
        let table = indexes.table(of: entity, in: &catalog, schema: schema)
        var found: [UUID] = []
        let positions = QueryIndexes.lookup(
            table, properties: [property], key: [.document(entity: destination, id: id)], includeDeleted: includeDeleted
        )
        for position in positions {
            let referrer = table.rows[position].path.id
            if overlay.isEmpty || overlay[PersistentIdentifier(entityName: entity, id: referrer)] == nil {
                found.append(referrer)
            }
        }
        for (identity, content) in overlay where identity.entityName == entity {
            guard let content, content[property] == .string(UUIDText.text(of: id)),
                includeDeleted || content[ReservedKey.deleted] == nil
            else { continue }
            found.append(identity.id)
        }
        return found
    }
}
