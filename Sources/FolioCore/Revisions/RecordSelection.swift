import FolioJSON
import Foundation

/// Which records a `StoreDiff` keeps: those of an entity (and of the entities inheriting
/// from it, which share its folder), and of those the ones a query matches in either state.
struct RecordSelection {
    /// The folder the entity's documents are in.
    let folder: String
    /// The `"$entity"`s kept in that folder; nil for all of them.
    let kinds: [String]?
    /// The query, of the entity.
    let filter: QueryExpression?
    /// The store's schema, which reads a stored member as its property says (a date's text as a date).
    let schema: QuerySchema

    init(entity: String, filter: QueryExpression?, schema: QuerySchema) {
        (folder, kinds) = schema.folder(of: entity)
        (self.filter, self.schema) = (filter, schema)
    }

    /// Whether a document of this folder may be kept.
    func holds(folder: String) -> Bool { folder == self.folder }

    /// Whether the record is kept: of the entity, and matched by the filter before or after.
    func holds(_ record: RecordDifference) -> Bool {
        if let kinds, !kinds.contains(record.entity) { return false }
        guard let filter else { return true }
        var evaluation = QueryEvaluation(documents: QueryDocuments(empty: schema))
        let identity = PersistentIdentifier(entityName: folder, id: record.id)
        return [record.before, record.after].contains { content in
            content.map { evaluation.test(filter, on: identity, content: $0) } ?? false
        }
    }
}
