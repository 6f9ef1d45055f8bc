import FolioJSON
import Foundation

extension DocumentStore {
    /// Runs a query on the documents as of the last refresh or commit, using the
    /// indexes and the day folders, and reading only what the plan needs.
    ///
    /// ```swift
    /// let paused = try store.query(DocumentQuery(entity: "FocusSession", filter: .compare(.property("state"), .equal, .value(.string("paused")))))
    /// print(paused.explanation)
    /// ```
    ///
    /// - Throws: `.notFound` for an entity the schema lacks, `.invalidQuery` for an expression too
    ///   deep to run; `.fileSystem`, `.unsafePath` or `.invalidStore` when a folder the query needs
    ///   cannot be read, `.locked` when another process holds the lock too long.
    public func query(_ query: DocumentQuery) throws(FolioError) -> DocumentQueryResult {
        try run(query, overlay: [])
    }

    /// Runs a query with unsaved content laid over the stored documents: each entry
    /// replaces the stored document of its identity (`nil` hides it), and new identities
    /// are candidates after the stored ones, in the order given.
    func run(_ query: DocumentQuery, overlay: [(PersistentIdentifier, JSONObject?)], countOnly: Bool = false)
        throws(FolioError) -> DocumentQueryResult
    {
        let basis = memory.queryBasis
        if overlay.isEmpty, let answer = answerFromCache(query, countOnly: countOnly, basis: basis) { return answer }
        return try run(query, overlay: overlay, basis: basis) {
            $0.perform(overlay: overlay.map(\.0), countOnly: countOnly)
        }
    }

    /// Records that models were made from these rows of a query's result, every member
    /// decoded, so that models made from them again can decode their values when first read.
    func rememberReadable(rows: [Int], of entity: String, generation: UInt64) {
        memory.rememberReadable(rows: rows, of: entity, generation: generation)
    }

    /// Hands an evaluation over the store's documents to `body`, under the store's mutex.
    func withEvaluation<Result>(_ body: (inout QueryEvaluation) -> Result) -> Result {
        memory.lendingCatalog { catalog, indexes, schema in
            var evaluation = QueryEvaluation(
                documents: QueryDocuments(catalog: catalog, indexes: indexes, schema: schema))
            // The catalog is moved out and back so decoding on first use stays one copy.
            catalog = Catalog()
            indexes = QueryIndexes()
            defer {
                catalog = evaluation.documents.catalog
                indexes = evaluation.documents.indexes
            }
            return body(&evaluation)
        }
    }

    /// Plans a query and hands its run to `body` under the store's mutex. The folders the
    /// query (and `reading`, further expressions `body` evaluates) may read are loaded first;
    /// `basis` is what the plan reads, when the caller has read it already.
    func run<Result>(
        _ query: DocumentQuery, overlay: [(PersistentIdentifier, JSONObject?)], reading: [QueryExpression] = [],
        basis: QueryBasis? = nil, _ body: (inout QueryRun) -> Result
    ) throws(FolioError) -> Result {
        let basis = basis ?? memory.queryBasis
        let (schema, calendar) = (basis.schema, basis.calendar)
        let asked = try schema.entity(query.entity, in: root)
        let query = schema.inFolder(query)
        guard let entity = schema.entities[query.entity] else {
            preconditionFailure("\(asked.name)'s folder \(asked.storageName) is not an entity")
        }
        // A tree built in code may be deeper than the parser lets text be; evaluating it would recurse past the stack.
        try query.filter?.checkDepth()
        for key in query.sort { try key.expression.checkDepth() }
        let expressions = (query.filter.map { [$0] } ?? []) + query.sort.map(\.expression) + reading
        let folders = schema.folders(readBy: expressions, of: query.entity)
        if !folders.allSatisfy(basis.isLoaded) { try load(folders) }
        let access = QueryAccess.plan(query.filter, for: entity, in: schema, calendar: calendar)
        return withEvaluation { evaluation in
            evaluation.documents.includeDeleted = query.includeDeleted
            for (identity, content) in overlay { evaluation.documents.overlay[identity] = content }
            // Swapped in and out, not copied: a second reference to the catalog would make
            // the first decoding of cached content copy the whole catalog.
            var run = QueryRun(
                query: query, access: access, evaluation: QueryEvaluation(documents: QueryDocuments(empty: schema)))
            swap(&run.evaluation, &evaluation)
            defer { swap(&run.evaluation, &evaluation) }
            return body(&run)
        }
    }
}
