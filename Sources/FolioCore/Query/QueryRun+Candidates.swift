import FolioJSON
import Foundation

extension QueryRun {
    /// The documents that satisfy the filter, reached as the plan says, in no particular
    /// order. With `countOnly`, an index that answers the whole filter is counted
    /// without reading any document.
    mutating func collect(overlay: [PersistentIdentifier], countOnly: Bool = false) -> ([Found], QueryExplanation) {
        let entity = query.entity
        let schema = evaluation.documents.schema
        var explanation = QueryExplanation(
            entity: entity, access: access, documents: evaluation.documents.catalog.counts[entity] ?? 0, examined: 0,
            matched: 0)
        let pending = overlay.filter { $0.entityName == entity }
        var found: [Found] = []
        let overlaid = Set(pending.map(\.id))
        // One document by identity needs no table: the catalog has it, and building the
        // entity's table after every save would cost a pass over all its documents.
        if case .identity(let id) = access {
            let identity = PersistentIdentifier(entityName: entity, id: id)
            if !overlaid.contains(id), let path = evaluation.documents.catalog.path(of: identity),
                let (content, version) = evaluation.documents.catalog.document(at: path),
                query.includeDeleted || content[ReservedKey.deleted] == nil
            {
                explanation.examined += 1
                if query.filter.map({ evaluation.test($0, on: identity, content: content) }) ?? true {
                    found.append(Found(id: id, decoded: content, version: version))
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
            let id = table.rows[position].version.path.id
            guard overlaid.isEmpty || !overlaid.contains(id) else { return }
            explanation.examined += 1
            if let candidate = candidate(row: position, of: table, id: id, passing: filter, comparisons) {
                found.append(candidate)
            }
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
            if let (property, positions) = equalPositions(comparisons) {
                explanation.orderedBy = property
                for position in positions { consider(position, filter: query.filter) }
            } else {
                for position in table.rows.indices { consider(position, filter: query.filter) }
            }
        }
        for identity in pending {
            guard let content = evaluation.documents.content(of: identity) else { continue }
            explanation.examined += 1
            if let filter = query.filter, !evaluation.test(filter, on: identity, content: content) { continue }
            let stored = evaluation.documents.catalog.path(of: identity).flatMap {
                evaluation.documents.catalog.entry(at: $0)?.version
            }
            found.append(Found(id: identity.id, decoded: content, version: stored))
            foundPending = true
        }
        explanation.matched = found.count
        return (found, explanation)
    }

    /// The property and the positions, in store order, of the rows whose number property
    /// equals the constant an equality of `comparisons` names, read from that property's
    /// ordered index (see `QueryIndexes.orderedForEquality`); `nil` when there is no such
    /// equality or no index yet. Only numbers: their order as values is total, so every row
    /// the equality holds for sits in one run of equal values (a candidate is still tested
    /// on the whole filter). Only constants under 2^53, where integers and doubles compare
    /// alike: past it an integer equal to a double may sort apart from it.
    private mutating func equalPositions(_ comparisons: AttributeComparisons?) -> (property: String, [Int])? {
        guard
            let equality = comparisons?.comparisons.first(where: { comparison in
                guard comparison.op == .equal, case .attribute(_, let typeName, _)? = comparison.property else {
                    return false
                }
                let exact = 9_007_199_254_740_992.0  // 2^53
                switch (ScalarType(rawValue: typeName)?.kind, comparison.constant) {
                case (.integer?, .integer(let value)), (.floatingPoint?, .integer(let value)):
                    return Double(value.magnitude) < exact
                case (.integer?, .double(let value)), (.floatingPoint?, .double(let value)):
                    return value.magnitude < exact
                default: return false
                }
            }),
            let (_, ordered) = evaluation.documents.indexes.orderedForEquality(
                entity: query.entity, on: equality.name, in: &evaluation.documents.catalog,
                schema: evaluation.documents.schema)
        else { return nil }
        let constant = equality.constant
        var run = ordered.partitioningIndex { $0.value.sortOrder(constant) != .orderedAscending }
        var positions: [Int] = []
        while run < ordered.count, ordered[run].value.sortOrder(constant) == .orderedSame {
            positions.append(ordered[run].position)
            run += 1
        }
        return (equality.name, positions)
    }

    /// The query's filter as comparisons of attributes with constants, when it is one:
    /// the common shape, which rows are then tested on without the evaluator.
    var filterComparisons: AttributeComparisons? {
        query.filter.flatMap { filter in
            evaluation.documents.schema.entities[query.entity].flatMap { AttributeComparisons(filter, entity: $0) }
        }
    }

    /// Row `position` of `table` as a found document when it satisfies `filter`, tested on
    /// its content (decoded now if no query did, see `content(of:in:)`); without a filter the
    /// row's content is handed on as it is, compact when nothing decoded it.
    mutating func candidate(
        row position: Int, of table: QueryIndexes.EntityIndexes, id: UUID, passing filter: QueryExpression?,
        _ comparisons: AttributeComparisons?, keys: [QueryValue] = []
    ) -> Found? {
        let decoded: JSONObject?
        if let filter {
            let content = content(of: position, in: table)
            guard passes(filter, comparisons, id: id, content: content) else { return nil }
            decoded = content
        } else {
            decoded = table.rows[position].decoded
        }
        return Found(
            id: id, decoded: decoded, source: decoded == nil ? table.rows[position].source : nil,
            version: table.rows[position].version, keys: keys, row: position,
            isKnownReadable: table.rows[position].isKnownReadable)
    }

    /// Whether a stored row satisfies `filter`: on its members directly when the filter
    /// is attribute comparisons (see `AttributeComparisons`), else through the evaluator.
    mutating func passes(
        _ filter: QueryExpression, _ comparisons: AttributeComparisons?, id: UUID, content: JSONObject
    ) -> Bool {
        if let comparisons { return comparisons.test(content) }
        return evaluation.test(filter, on: PersistentIdentifier(entityName: query.entity, id: id), content: content)
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

    /// Hands `body` every document of the entity (soft-deleted ones when the query asks)
    /// with only the members `names` in its content, when the query has no filter and the
    /// entity nothing pending; returns `false`, calling nothing, otherwise. For a summary
    /// over all documents: reading the few members it needs of each cached document,
    /// rather than decoding and keeping every one, took half the memory of an aggregate
    /// over 200,000 strokes.
    mutating func forEachUnfiltered(
        reading names: [String], overlay: [PersistentIdentifier],
        _ body: (UUID, JSONObject, inout QueryEvaluation) -> Void
    ) -> Bool {
        guard query.filter == nil, !overlay.contains(where: { $0.entityName == query.entity }) else { return false }
        let table = evaluation.documents.indexes.table(
            of: query.entity, in: &evaluation.documents.catalog, schema: evaluation.documents.schema)
        for position in table.rows.indices where query.includeDeleted || !table.rows[position].isDeleted {
            // From the parsed content once a query decoded it (`members` reads that first).
            var content = JSONObject()
            for (name, member) in zip(names, table.rows[position].source.members(names) ?? []) {
                content[name] = member
            }
            body(table.rows[position].version.path.id, content, &evaluation)
        }
        return true
    }
}
