import FolioJSON
import Foundation

/// One query's run over the documents: candidates from the plan, the filter, the order
/// and the page.
///
/// The run is the one owner of the query's state: the evaluation the store lends it
/// (catalog, indexes, overlay) and what collecting found. Its stages are a file each: the
/// plan is `QueryAccess` (`QueryPlan.swift`), candidate collection and the filter are in
/// `QueryRun+Candidates.swift`, a limited sort that walks an ordered index in
/// `QueryRun+OrderedIndex.swift`, ordering and paging in `QueryRun+Ordering.swift`.
struct QueryRun {
    let query: DocumentQuery
    let access: QueryAccess
    var evaluation: QueryEvaluation
    /// Whether `collect` found pending documents, the only ones that can be out of store order.
    var foundPending = false
    /// The generation of the entity's table the found rows are positions in.
    var tableGeneration: UInt64? = nil
    /// Rows of the table whose content this run decoded, kept in the table when it ends.
    var decodedRows: [Int] = []

    /// A document that satisfied the filter: where it is stored (if it is) and its content.
    struct Found {
        var id: UUID
        /// The content, when a stage read it (a filter's test, a pending document).
        var decoded: JSONObject?
        /// The table row's content, which a run without a filter does not decode: a fetch
        /// of every document hands it on compact (see `StoredDocument.Body`).
        var source: DocumentContent? = nil
        /// The stored document's version (for a pending one, of the document it replaces).
        var version: DocumentVersion?
        var keys: [QueryValue] = []
        /// Where it is in the entity's table (see `QueryIndexes.Row`), when it was read from it.
        var row: Int? = nil
        var isKnownReadable = false

        var path: DocumentPath? { version?.path }
        /// The content, decoded now if no stage did (for a sort key or an aggregate).
        var content: JSONObject { decoded ?? source?.object ?? [:] }
        /// The content as the result carries it: compact when nothing decoded it.
        var body: StoredDocument.Body { decoded.map { .parsed($0) } ?? source?.body ?? .parsed([:]) }
    }

    mutating func perform(overlay: [PersistentIdentifier], countOnly: Bool) -> DocumentQueryResult {
        // After the stages, whose copies of the table are gone by then, so the table is not copied.
        defer { keepDecodedRows() }
        if !countOnly, let walked = walkOrderedIndex(overlay: overlay) { return walked }
        var (found, explanation) = collect(overlay: overlay, countOnly: countOnly)
        guard !countOnly else {
            return DocumentQueryResult(matches: [], total: explanation.matched, explanation: explanation)
        }
        let page = ordered(found, explanation: &explanation)
        found = []
        var matches: [DocumentQueryResult.Match] = []
        matches.reserveCapacity(page.count)
        for document in page { matches.append(match(document)) }
        return DocumentQueryResult(
            matches: matches, total: explanation.matched, explanation: explanation, tableGeneration: tableGeneration)
    }

    /// The content of a row of `table`, noting the rows decoded now (see `decodedRows`).
    /// Stored members only: reading the row's computed `content` copied the whole row.
    mutating func content(of position: Int, in table: QueryIndexes.EntityIndexes) -> JSONObject {
        if let decoded = table.rows[position].decoded { return decoded }
        decodedRows.append(position)
        return table.rows[position].source.object ?? [:]
    }

    private mutating func keepDecodedRows() {
        guard !decodedRows.isEmpty, let tableGeneration else { return }
        evaluation.documents.indexes.keepDecoded(rows: decodedRows, of: query.entity, generation: tableGeneration)
        decodedRows = []
    }

    /// A found document as a result: stored ones with their version, pending ones with
    /// the stored version they would replace (if any).
    mutating func match(_ found: Found) -> DocumentQueryResult.Match {
        guard let version = found.version else { return .init(id: found.id, stored: nil) }
        let path = version.path
        // Without pending changes (every fetch in a fresh context) there is no overlay to
        // look the identity up in: this runs once per match.
        if evaluation.documents.overlay.isEmpty
            || evaluation.documents.overlay[PersistentIdentifier(entityName: query.entity, id: found.id)] == nil
        {
            return .init(
                id: found.id, stored: StoredDocument(version: version, body: found.body), row: found.row,
                isKnownReadable: found.isKnownReadable)
        }
        let stored = evaluation.documents.catalog.content(at: path).map {
            StoredDocument(version: version, content: $0)
        }
        return .init(id: found.id, stored: stored)
    }
}
