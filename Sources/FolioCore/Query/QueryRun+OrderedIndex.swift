import FolioJSON
import Foundation

extension QueryRun {
    /// A limited query sorted by one number or date property, with no pending changes to
    /// the entity, that would otherwise read every document or a range of days: walked in
    /// the order of the property's ordered index, stopping when the page is full, so "the
    /// 20 latest" reads about 20 documents. A query an identity, an index or a relationship
    /// key narrows is collected that way and sorted instead: its candidates are few, where
    /// the walk may pass over most of the entity before it finds them.
    mutating func walkOrderedIndex(overlay: [PersistentIdentifier]) -> DocumentQueryResult? {
        let entity = query.entity
        switch access {
        case .scan, .days: break
        case .identity, .index, .relationship: return nil
        }
        guard let limit = query.limit, query.sort.count == 1, let key = query.sort.first,
            case .member(.variable(0), let name) = key.expression,
            case .attribute(_, let typeName, _)? = evaluation.documents.schema.entities[entity]?.property(named: name),
            Self.isOrderedAsValues(typeName), !overlay.contains(where: { $0.entityName == entity })
        else { return nil }
        let offset = max(query.offset, 0)
        let (sum, overflow) = offset.addingReportingOverflow(max(limit, 0))
        let wanted = overflow ? Int.max : sum
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
        // Stepped through, not listed: a list of every position cost more than the walk.
        let positions = stride(
            from: key.ascending ? 0 : index.count - 1, through: key.ascending ? index.count - 1 : 0,
            by: key.ascending ? 1 : -1)
        for position in positions {
            let (value, rowPosition) = (index[position].value, index[position].position)
            if found.count >= wanted, let last, value.sortOrder(last) != .orderedSame { break }
            // The row's members read in place: a copy of the row retained each of them.
            guard query.includeDeleted || !table.rows[rowPosition].isDeleted else { continue }
            explanation.examined += 1
            // The index's value is the sort key: `ordered` need not read it again (a date's
            // text parsed per document was most of "the 20 latest").
            guard
                let candidate = candidate(
                    row: rowPosition, of: table, id: table.rows[rowPosition].version.path.id, passing: query.filter,
                    comparisons, keys: [value])
            else { continue }
            found.append(candidate)
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
}
