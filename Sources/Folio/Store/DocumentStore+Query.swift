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
    public func query(_ query: DocumentQuery) throws(FolioError) -> DocumentQueryResult {
        try run(query, overlay: [])
    }

    /// Runs a query with unsaved content laid over the stored documents: each entry
    /// replaces the stored document of its identity (`nil` hides it), and new identities
    /// are candidates after the stored ones, in the order given.
    func run(_ query: DocumentQuery, overlay: [(Catalog.Identity, JSONObject?)], countOnly: Bool = false)
        throws(FolioError) -> DocumentQueryResult
    {
        try run(query, overlay: overlay) { $0.perform(overlay: overlay.map(\.0), countOnly: countOnly) }
    }

    /// Records that models were made from these rows of a query's result, every member
    /// decoded, so that models made from them again can decode their values when first read.
    func rememberReadable(rows: [Int], of entity: String, generation: UInt64) {
        state.withLock { $0.indexes.rememberReadable(rows: rows, of: entity, generation: generation) }
    }

    /// Hands an evaluation over the store's documents to `body`, under the store's lock.
    func withEvaluation<Result>(_ body: (inout QueryEvaluation) -> Result) -> Result {
        state.withLock { state in
            var evaluation = QueryEvaluation(
                documents: QueryDocuments(catalog: state.catalog, indexes: state.indexes, schema: state.querySchema))
            // The catalog is moved out and back so decoding on first use stays one copy.
            state.catalog = Catalog()
            state.indexes = QueryIndexes()
            defer {
                state.catalog = evaluation.documents.catalog
                state.indexes = evaluation.documents.indexes
            }
            return body(&evaluation)
        }
    }

    /// Plans a query and hands its run to `body` under the store's lock. The folders the
    /// query (and `reading`, further expressions `body` evaluates) may read are loaded first.
    func run<Result>(
        _ query: DocumentQuery, overlay: [(Catalog.Identity, JSONObject?)], reading: [QueryExpression] = [],
        _ body: (inout QueryRun) -> Result
    ) throws(FolioError) -> Result {
        let (schema, calendar) = state.withLock { ($0.querySchema, $0.calendar) }
        let asked = try schema.entity(query.entity, in: root)
        let query = schema.inFolder(query)
        guard let entity = schema.entities[query.entity] else {
            preconditionFailure("\(asked.name)'s folder \(asked.storageName) is not an entity")
        }
        // A tree built in code may be deeper than the parser lets text be; evaluating it would recurse past the stack.
        try query.filter?.checkDepth()
        for key in query.sort { try key.expression.checkDepth() }
        let expressions = (query.filter.map { [$0] } ?? []) + query.sort.map(\.expression) + reading
        try load(schema.folders(readBy: expressions, of: query.entity))
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

/// One query's run over the documents: candidates from the plan, the filter, the order
/// and the page.
struct QueryRun {
    let query: DocumentQuery
    let access: QueryAccess
    var evaluation: QueryEvaluation
    /// Whether `collect` found pending documents, the only ones that can be out of store order.
    private(set) var foundPending = false
    /// The generation of the entity's table the found rows are positions in.
    private(set) var tableGeneration: UInt64? = nil

    /// A document that satisfied the filter: where it is stored (if it is) and its content.
    struct Found {
        var id: UUID
        var content: JSONObject
        /// The stored document's version (for a pending one, of the document it replaces).
        var version: DocumentVersion?
        var keys: [QueryValue] = []
        /// Where it is in the entity's table (see `QueryIndexes.Row`), when it was read from it.
        var row: Int? = nil
        var isKnownReadable = false

        var path: DocumentPath? { version?.path }
    }

    mutating func perform(overlay: [Catalog.Identity], countOnly: Bool) -> DocumentQueryResult {
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

    /// A found document as a result: stored ones with their version, pending ones with
    /// the stored version they would replace (if any).
    private mutating func match(_ found: Found) -> DocumentQueryResult.Match {
        guard let version = found.version else { return .init(id: found.id, stored: nil) }
        let path = version.path
        // Without pending changes (every fetch in a fresh context) there is no overlay to
        // look the identity up in: this runs once per match.
        if evaluation.documents.overlay.isEmpty
            || evaluation.documents.overlay[Catalog.Identity(entity: query.entity, id: found.id)] == nil
        {
            return .init(
                id: found.id, stored: StoredDocument(version: version, content: found.content), row: found.row,
                isKnownReadable: found.isKnownReadable)
        }
        let stored = evaluation.documents.catalog.content(at: path).map {
            StoredDocument(version: version, content: $0)
        }
        return .init(id: found.id, stored: stored)
    }

    /// The documents that satisfy the filter, reached as the plan says, in no particular
    /// order. With `countOnly`, an index that answers the whole filter is counted
    /// without reading any document.
    mutating func collect(overlay: [Catalog.Identity], countOnly: Bool = false) -> ([Found], QueryExplanation) {
        let entity = query.entity
        let schema = evaluation.documents.schema
        var explanation = QueryExplanation(
            entity: entity, access: access, documents: evaluation.documents.catalog.counts[entity] ?? 0, examined: 0,
            matched: 0)
        let pending = overlay.filter { $0.entity == entity }
        var found: [Found] = []
        let overlaid = Set(pending.map(\.id))
        // One document by identity needs no table: the catalog has it, and building the
        // entity's table after every save would cost a pass over all its documents.
        if case .identity(let id) = access {
            let identity = Catalog.Identity(entity: entity, id: id)
            if !overlaid.contains(id), let path = evaluation.documents.catalog.path(of: identity),
                let (content, version) = evaluation.documents.catalog.document(at: path),
                query.includeDeleted || content[ModelDocument.deletedKey] == nil
            {
                explanation.examined += 1
                if query.filter.map({ evaluation.test($0, on: identity, content: content) }) ?? true {
                    found.append(Found(id: id, content: content, version: version))
                }
            }
        }
        let table =
            access.readsTable
            ? evaluation.documents.indexes.table(of: entity, in: &evaluation.documents.catalog, schema: schema)
            : QueryIndexes.EntityIndexes(generation: 0)
        if access.readsTable { tableGeneration = table.generation }
        // By position, so the table's rows are read in place rather than copied (a copy
        // retains every string and array a row holds; this runs for every row scanned).
        // `filter` is nil when the access already answers it (an index on exactly the
        // filter's equalities), so its rows need no test.
        let comparisons = filterComparisons
        func consider(_ position: Int, filter: QueryExpression?) {
            guard query.includeDeleted || !table.rows[position].isDeleted else { return }
            let id = table.rows[position].path.id
            guard overlaid.isEmpty || !overlaid.contains(id) else { return }
            explanation.examined += 1
            if let filter, !passes(filter, comparisons, id: id, content: table.rows[position].content) { return }
            found.append(
                Found(
                    id: id, content: table.rows[position].content, version: table.rows[position].version, row: position,
                    isKnownReadable: table.rows[position].isKnownReadable))
        }
        switch access {
        case .identity:
            break  // above
        case .index(let properties, let key, _):
            let positions = QueryIndexes.lookup(
                table, properties: properties, key: key, includeDeleted: query.includeDeleted)
            let answered = query.filter.map { Self.isAnswered($0, byIndexOn: properties) } == true
            if countOnly, pending.isEmpty, answered {
                explanation.matched = positions.count
                return ([], explanation)
            }
            // The index's rows are the answer, as the count above takes them to be: testing
            // each again read and compared the same values. Not for a relationship in the
            // index, whose test also drops references to documents that are gone.
            let attributesOnly = properties.allSatisfy {
                if case .attribute? = schema.entities[entity]?.property(named: $0) { true } else { false }
            }
            let filter = answered && attributesOnly ? nil : query.filter
            for position in positions { consider(position, filter: filter) }
        case .relationship(let property, let id):
            guard case .relationship(let destination, _, _) = schema.entities[entity]?.property(named: property) else {
                break
            }
            let key: [QueryValue] = [.document(entity: destination, id: id)]
            for position in QueryIndexes.lookup(
                table, properties: [property], key: key, includeDeleted: query.includeDeleted)
            {
                consider(position, filter: query.filter)
            }
        case .days(_, let first, let last):
            let days = QueryIndexes.rows(table, days: first...last)
            explanation.daysRead = (days.days, days.of)
            for position in days.positions { consider(position, filter: query.filter) }
        case .scan:
            for position in table.rows.indices { consider(position, filter: query.filter) }
        }
        for identity in pending {
            guard let content = evaluation.documents.content(of: identity) else { continue }
            explanation.examined += 1
            if let filter = query.filter, !evaluation.test(filter, on: identity, content: content) { continue }
            let stored = evaluation.documents.catalog.path(of: identity).flatMap {
                evaluation.documents.catalog.entry(at: $0)?.version
            }
            found.append(Found(id: identity.id, content: content, version: stored))
            foundPending = true
        }
        explanation.matched = found.count
        return (found, explanation)
    }

    /// The query's filter as comparisons of attributes with constants, when it is one:
    /// the common shape, which rows are then tested on without the evaluator.
    private var filterComparisons: AttributeComparisons? {
        query.filter.flatMap { filter in
            evaluation.documents.schema.entities[query.entity].flatMap { AttributeComparisons(filter, entity: $0) }
        }
    }

    /// Whether a stored row satisfies `filter`: on its members directly when the filter
    /// is attribute comparisons (see `AttributeComparisons`), else through the evaluator.
    private mutating func passes(
        _ filter: QueryExpression, _ comparisons: AttributeComparisons?, id: UUID, content: JSONObject
    ) -> Bool {
        if let comparisons { return comparisons.test(content) }
        return evaluation.test(filter, on: Catalog.Identity(entity: query.entity, id: id), content: content)
    }

    /// Whether a filter is exactly equality on each of an index's properties, so the
    /// index's entries are the answer.
    private static func isAnswered(_ filter: QueryExpression, byIndexOn properties: [String]) -> Bool {
        let terms = filter.conjuncts
        guard terms.count == properties.count else { return false }
        let named = terms.compactMap { term -> String? in
            guard let (name, op, _) = term.propertyComparison, op == .equal else { return nil }
            return name
        }
        return named.count == terms.count && Set(named) == Set(properties)
    }

    /// A limited query sorted by one number or date property, with no pending changes to
    /// the entity: walked in the order of the property's ordered index, stopping when
    /// the page is full, so "the 20 latest" reads about 20 documents.
    private mutating func walkOrderedIndex(overlay: [Catalog.Identity]) -> DocumentQueryResult? {
        let entity = query.entity
        guard let limit = query.limit, query.sort.count == 1, let key = query.sort.first,
            case .member(.variable(0), let name) = key.expression,
            case .attribute(_, let typeName, _)? = evaluation.documents.schema.entities[entity]?.property(named: name),
            Self.isOrderedAsValues(typeName), !overlay.contains(where: { $0.entity == entity })
        else { return nil }
        let offset = max(query.offset, 0)
        let wanted = offset + max(limit, 0)
        let (table, index) = evaluation.documents.indexes.ordered(
            entity: entity, by: name, in: &evaluation.documents.catalog, schema: evaluation.documents.schema)
        tableGeneration = table.generation
        var explanation = QueryExplanation(
            entity: entity, access: access, documents: evaluation.documents.catalog.counts[entity] ?? 0, examined: 0,
            matched: 0)
        // Walk until the page is full and the values equal to the last one taken are
        // taken too (their order among themselves is the store's), then order those few.
        var found: [Found] = []
        var last: QueryValue?
        let comparisons = filterComparisons
        let positions = key.ascending ? Array(index.indices) : index.indices.reversed()
        for position in positions {
            let (value, row) = (index[position].value, table.rows[index[position].position])
            if found.count >= wanted, let last, value.sortOrder(last) != .orderedSame { break }
            guard query.includeDeleted || !row.isDeleted else { continue }
            explanation.examined += 1
            if let filter = query.filter, !passes(filter, comparisons, id: row.path.id, content: row.content) {
                continue
            }
            found.append(
                Found(
                    id: row.path.id, content: row.content, version: row.version, row: index[position].position,
                    isKnownReadable: row.isKnownReadable))
            last = value
        }
        explanation.matched = found.count
        let page = ordered(found, explanation: &explanation)
        explanation.sort = (explanation.sort ?? "") + " (ordered index: walked \(explanation.examined) documents)"
        var matches: [DocumentQueryResult.Match] = []
        for document in page { matches.append(match(document)) }
        return DocumentQueryResult(
            matches: matches, total: found.count, explanation: explanation, tableGeneration: tableGeneration)
    }

    /// Whether a type's order as values is its order in Swift: integers, floating point and
    /// dates (text has comparators, so it is sorted in full instead).
    private static func isOrderedAsValues(_ typeName: String) -> Bool {
        switch ScalarType(rawValue: typeName)?.kind {
        case .integer, .floatingPoint, .date: true
        default: false
        }
    }

    /// The page of the matches in the query's order: sorted by the keys (a bounded heap
    /// when a limit keeps few), ties and unsorted queries in store order.
    private mutating func ordered(_ found: [Found], explanation: inout QueryExplanation) -> ArraySlice<Found> {
        var found = found
        let offset = max(query.offset, 0)
        let wanted = query.limit.map { offset + max($0, 0) }
        func storeOrder(_ a: Found, _ b: Found) -> Bool {
            switch (a.path, b.path) {
            case (let a?, let b?): a < b
            case (_?, nil): true
            default: false
            }
        }
        if query.sort.isEmpty {
            // Rows are collected in store order (the table's order, and the positions an
            // index or a day range gives are ascending); only pending documents can be out
            // of it, and only they are checked for: checking every pair copied (retained
            // and released) every document found.
            let inOrder = { found.indices.dropFirst().allSatisfy { !storeOrder(found[$0], found[$0 - 1]) } }
            if !foundPending || inOrder() {
                assert(inOrder(), "documents collected out of store order")
                // Already in order: the page is a slice of it.
            } else if let wanted, wanted < found.count / 8 {
                found = found.smallest(wanted, by: storeOrder)
            } else {
                found = stableSorted(found, by: storeOrder)
            }
        } else {
            explanation.sort = query.sort.map {
                "\($0.expression.queryText) \($0.ascending ? "ascending" : "descending")"
            }.joined(separator: ", ")
            for index in found.indices {
                let identity = Catalog.Identity(entity: query.entity, id: found[index].id)
                found[index].keys = query.sort.map {
                    evaluation.value(of: $0.expression, on: identity, content: found[index].content)
                }
            }
            let keys = query.sort
            let before: (Found, Found) -> Bool = { a, b in
                for (position, key) in keys.enumerated() {
                    switch key.order(a.keys[position], b.keys[position]) {
                    case .orderedAscending: return true
                    case .orderedDescending: return false
                    case .orderedSame: continue
                    }
                }
                return storeOrder(a, b)
            }
            if let wanted, wanted < found.count / 8 {
                found = found.smallest(wanted, by: before)
            } else {
                found = stableSorted(found, by: before)
            }
        }
        let start = min(offset, found.count)
        let end = wanted.map { min($0, found.count) } ?? found.count
        return found[start..<max(start, end)]
    }

    private func stableSorted(_ found: [Found], by before: (Found, Found) -> Bool) -> [Found] {
        // Stable: equal keys keep the order they were found in.
        found.enumerated().sorted { a, b in
            before(a.element, b.element) || (!before(b.element, a.element) && a.offset < b.offset)
        }.map(\.element)
    }
}

extension Array {
    /// The `count` smallest elements in order, with a bounded heap: `n log count` rather
    /// than sorting all `n`. Equal elements keep their order.
    func smallest(_ count: Int, by before: (Element, Element) -> Bool) -> [Element] {
        guard count > 0 else { return [] }
        // A max-heap of (element, position): the root is the largest kept so far.
        var heap: [(element: Element, position: Int)] = []
        heap.reserveCapacity(count)
        func larger(_ a: (element: Element, position: Int), _ b: (element: Element, position: Int)) -> Bool {
            before(b.element, a.element) || (!before(a.element, b.element) && a.position > b.position)
        }
        func siftDown(_ start: Int) {
            var parent = start
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var largest = parent
                if left < heap.count, larger(heap[left], heap[largest]) { largest = left }
                if right < heap.count, larger(heap[right], heap[largest]) { largest = right }
                if largest == parent { return }
                heap.swapAt(parent, largest)
                parent = largest
            }
        }
        for (position, element) in enumerated() {
            let item = (element: element, position: position)
            if heap.count < count {
                heap.append(item)
                var child = heap.count - 1
                while child > 0 {
                    let parent = (child - 1) / 2
                    guard larger(heap[child], heap[parent]) else { break }
                    heap.swapAt(child, parent)
                    child = parent
                }
            } else if larger(heap[0], item) {
                heap[0] = item
                siftDown(0)
            }
        }
        return heap.sorted { larger($1, $0) }.map(\.element)
    }
}
