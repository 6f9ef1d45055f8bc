import FolioJSON
import Foundation

/// Which records a `StoreDiff` keeps: those of an entity (and of the entities inheriting
/// from it, which share its folder), and of those the ones a query matches in either state.
struct RecordSelection {
    /// The entity asked for.
    let entity: String
    /// The folder the entity's documents are in.
    let folder: String
    /// The `"$entity"`s kept in that folder; nil for all of them.
    let kinds: [String]?
    /// The query, of the entity.
    let filter: QueryExpression?
    /// The store's schema, which reads a stored member as its property says (a date's text as a date).
    let schema: QuerySchema
    /// For a query that reads related records, the records it matches in the older and the
    /// newer state, found by running it on the store as each state holds it: a record's own
    /// members cannot answer it. Nil for a query of the record's own members.
    private var matched: (before: Set<UUID>, after: Set<UUID>)?

    init(entity: String, filter: QueryExpression?, schema: QuerySchema) {
        self.entity = entity
        (folder, kinds) = schema.folder(of: entity)
        (self.filter, self.schema) = (filter, schema)
    }

    /// Whether a document of this folder may be kept.
    func holds(folder: String) -> Bool { folder == self.folder }

    /// Whether the record is kept: of the entity, and matched by the filter before or after.
    func holds(_ record: RecordDifference) -> Bool {
        if let kinds, !kinds.contains(record.entity) { return false }
        guard let filter else { return true }
        if let matched {
            return (record.before != nil && matched.before.contains(record.id))
                || (record.after != nil && matched.after.contains(record.id))
        }
        var evaluation = QueryEvaluation(documents: QueryDocuments(empty: schema))
        let identity = PersistentIdentifier(entityName: folder, id: record.id)
        return [record.before, record.after].contains { content in
            content.map { evaluation.test(filter, on: identity, content: $0) } ?? false
        }
    }

    /// Where the filter reads related records (`session.boat.name == "Aurora"`), runs it on
    /// `store` as commit `from` held it and as commit `to` holds it (the working tree, which
    /// is `store` itself, when nil), soft-deleted records included, so that `holds` answers
    /// with the related records of each state.
    mutating func matchRelatedRecords(
        of store: DocumentStore, in repository: StoreRepository, from: String, to: String?
    ) throws(FolioError) {
        guard let filter, store.readsOtherDocuments(DocumentQuery(entity: entity, filter: filter)) else { return }
        let query = DocumentQuery(entity: entity, filter: filter, includeDeleted: true)
        let before = try Self.matches(of: query, in: store, at: from, repository: repository)
        let after: Set<UUID>
        if let to {
            after = try Self.matches(of: query, in: store, at: to, repository: repository)
        } else {
            after = Set(try store.query(query).matches.map(\.id))
        }
        matched = (before, after)
    }

    /// The records `query` matches in the store as `commit` held it: none where the store or
    /// its entity did not exist then.
    private static func matches(
        of query: DocumentQuery, in store: DocumentStore, at commit: String, repository: StoreRepository
    ) throws(FolioError) -> Set<UUID> {
        guard let copy = try RevisionCopy.make(of: store.root, commit: commit, in: repository) else { return [] }
        defer { copy.scratch?.remove() }
        let past = try DocumentStore.open(copy, reads: store.reads)
        guard past.memory.schema.entities[query.entity] != nil else { return [] }
        return Set(try past.query(query).matches.map(\.id))
    }
}
