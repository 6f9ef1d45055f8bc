import Foundation

/// A summary of many documents' values: how many, their sum, least, greatest or mean.
/// Folio's: SwiftData has `fetchCount` only.
public struct QueryAggregate: Sendable, Hashable {
    /// What to compute over a group's documents: `count` of documents, and the `sum`, `min`,
    /// `max` or `average` of the non-`nil` values.
    public enum Function: String, Sendable, Hashable, CaseIterable {
        case count, sum, min, max, average
    }

    /// What the aggregate computes.
    public var function: Function
    /// The value summarized; `nil` for `count`, which counts documents.
    public var value: QueryExpression?

    /// An aggregate of `function` over `value`; leave `value` `nil` for `count`.
    public init(_ function: Function, of value: QueryExpression? = nil) {
        self.function = function
        self.value = value
    }

    /// One group's summary: the group's values (empty without grouping), how many
    /// documents it has, and the aggregate (`nil` when no document had a value).
    public struct Row: Sendable, Hashable {
        /// The group's values of the `groupedBy` expressions, in their order; empty without grouping.
        public var group: [QueryValue]
        /// How many documents the group has.
        public var count: Int
        /// The function's result over the group's values; `.null` when no document had a value.
        public var value: QueryValue
    }

    /// One group's summary as its documents are added, holding what the function needs
    /// and not the values: `nil`s are skipped as SQL does, `sum` of integers stays an
    /// integer (while it fits 64 bits), a sum of doubles is their decimal sum (see
    /// `DecimalSum`: 0.1 + 0.2 is 0.3), `average` is a double, `min` and `max` use the sort
    /// order of values (the first of equal ones). An aggregate over a million documents
    /// kept every value.
    struct Summary {
        let aggregate: QueryAggregate
        /// The documents added.
        private(set) var documents = 0
        /// The values that were not `nil`.
        private var present = 0
        /// How many numbers were summed; their sum while every one is an integer and it
        /// fits 64 bits, and their sum as doubles.
        private var numbers = 0
        private var integerSum: Int64? = 0
        private var doubleSum = DecimalSum()
        /// The least or greatest value so far, for `min` or `max`.
        private var extreme: QueryValue?

        init(_ aggregate: QueryAggregate) { self.aggregate = aggregate }

        /// Adds a document and the value it gave (`nil` for a `count` of documents).
        mutating func add(_ value: QueryValue?) {
            documents += 1
            guard let value, !value.isNull else { return }
            present += 1
            switch aggregate.function {
            case .count: break
            case .min:
                if extreme.map({ value.sortOrder($0) == .orderedAscending }) ?? true { extreme = value }
            case .max:
                if extreme.map({ $0.sortOrder(value) == .orderedAscending }) ?? true { extreme = value }
            case .sum, .average:
                guard let number = value.doubleValue else { return }
                numbers += 1
                doubleSum.add(number)
                if let total = integerSum {
                    if case .integer(let integer) = value,
                        case (let next, false) = total.addingReportingOverflow(integer)
                    {
                        integerSum = next
                    } else {
                        integerSum = nil
                    }
                }
            }
        }

        /// The aggregate of what was added.
        var value: QueryValue {
            switch aggregate.function {
            case .count: return .integer(Int64(aggregate.value == nil ? documents : present))
            case .min, .max: return extreme ?? .null
            case .sum, .average:
                guard numbers > 0 else { return aggregate.function == .sum ? .integer(0) : .null }
                let total = integerSum.map(Double.init) ?? doubleSum.value
                if aggregate.function == .average { return .double(total / Double(numbers)) }
                return integerSum.map(QueryValue.integer) ?? .double(total)
            }
        }
    }
}

extension QueryAggregate {
    /// Groups in the order of their values, key by key.
    static func groupOrder(_ a: [QueryValue], _ b: [QueryValue]) -> Bool {
        for (x, y) in zip(a, b) where x.sortOrder(y) != .orderedSame { return x.sortOrder(y) == .orderedAscending }
        return false
    }
}

extension QueryRun {
    /// `count` of a whole entity grouped by one indexed property, with no pending
    /// changes to it: the sizes of the index's entries, reading no document.
    mutating func countGroupsFromIndex(
        _ aggregate: QueryAggregate, groupedBy groupBy: [QueryExpression], overlay: [PersistentIdentifier]
    ) -> [QueryAggregate.Row]? {
        let entity = query.entity
        guard aggregate.function == .count, aggregate.value == nil, query.filter == nil, groupBy.count == 1,
            case .member(.variable(0), let name) = groupBy[0], !overlay.contains(where: { $0.entityName == entity })
        else { return nil }
        let table = evaluation.documents.indexes.table(
            of: entity, in: &evaluation.documents.catalog, schema: evaluation.documents.schema)
        guard let live = table.values[[name]] else { return nil }
        var counts = live.mapValues(\.count)
        if query.includeDeleted {
            for (key, positions) in table.deletedValues[[name]] ?? [:] { counts[key, default: 0] += positions.count }
        }
        return counts.sorted { QueryAggregate.groupOrder($0.key, $1.key) }.map {
            QueryAggregate.Row(group: $0.key, count: $0.value, value: .integer(Int64($0.value)))
        }
    }
}

extension DocumentStore {
    /// Summarizes the documents a query selects, grouped by the values of `groupBy`
    /// (one row per distinct group, in the sort order of the groups' values).
    ///
    /// ```swift
    /// let minutes = try store.aggregate(
    ///     DocumentQuery(entity: "FocusSession"), QueryAggregate(.sum, of: .property("duration")), groupedBy: [.property("state")])
    /// ```
    ///
    /// - Throws: what `query(_:)` throws: `.notFound` for an entity the schema lacks, `.invalidQuery`
    ///   for an expression too deep to run, `.fileSystem`, `.unsafePath`, `.invalidStore` or
    ///   `.locked` when a folder cannot be read.
    public func aggregate(
        _ query: DocumentQuery, _ aggregate: QueryAggregate, groupedBy groupBy: [QueryExpression] = []
    ) throws(FolioError) -> [QueryAggregate.Row] {
        try self.aggregate(query, aggregate, groupedBy: groupBy, overlay: [])
    }

    func aggregate(
        _ query: DocumentQuery, _ aggregate: QueryAggregate, groupedBy groupBy: [QueryExpression],
        overlay: [(PersistentIdentifier, JSONObject?)]
    ) throws(FolioError) -> [QueryAggregate.Row] {
        try aggregate.value?.checkDepth()
        for expression in groupBy { try expression.checkDepth() }
        if overlay.isEmpty, let rows = aggregateFromCache(query, aggregate, groupedBy: groupBy) { return rows }
        return try run(query, overlay: overlay, reading: groupBy + (aggregate.value.map { [$0] } ?? [])) { run in
            if let counted = run.countGroupsFromIndex(aggregate, groupedBy: groupBy, overlay: overlay.map(\.0)) {
                return counted
            }
            var groups = QueryAggregate.Groups(aggregate, groupedBy: groupBy, entity: query.entity)
            let read = Set((groupBy + (aggregate.value.map { [$0] } ?? [])).flatMap(\.memberNames))
            if !run.forEachUnfiltered(reading: read.sorted(), overlay: overlay.map(\.0), { groups.add($0, $1, &$2) }) {
                let (found, _) = run.collect(overlay: overlay.map(\.0))
                for document in found { groups.add(document.id, document.content, &run.evaluation) }
            }
            return groups.rows
        }
    }

    /// An aggregate over the documents of an entity whose folder is not loaded, streamed from
    /// its cache file and a walk, when `servesOneCommand` is on (see `forEachFromCache`):
    /// only the members the filter and the expressions name are read of each document, and
    /// each is tested and added as it goes by. `nil` when the ordinary run must answer: a
    /// filter an index narrows (the run reads only what it names), a filter or expressions
    /// that read related documents, or a folder the cache file cannot tell.
    private func aggregateFromCache(
        _ query: DocumentQuery, _ aggregate: QueryAggregate, groupedBy groupBy: [QueryExpression]
    ) -> [QueryAggregate.Row]? {
        // The flag first: every aggregate of an app comes this way.
        guard servesOneCommand else { return nil }
        let expressions = groupBy + (aggregate.value.map { [$0] } ?? [])
        let basis = memory.queryBasis
        let schema = basis.schema
        guard (try? schema.entity(query.entity, in: root)) != nil else { return nil }
        let inFolder = schema.inFolder(query)
        let read = expressions + (inFolder.filter.map { [$0] } ?? [])
        guard let entity = schema.entities[inFolder.entity],
            schema.relatedFolders(readBy: read, of: inFolder.entity).isEmpty,
            inFolder.filter.map({ (try? $0.checkDepth()) != nil }) ?? true
        else { return nil }
        if inFolder.filter != nil {
            switch QueryAccess.plan(inFolder.filter, for: entity, in: schema, calendar: basis.calendar) {
            case .scan: break
            default: return nil
            }
        }
        var evaluation = QueryEvaluation(documents: QueryDocuments(empty: schema))
        evaluation.documents.includeDeleted = query.includeDeleted
        var groups = QueryAggregate.Groups(aggregate, groupedBy: groupBy, entity: inFolder.entity)
        let names = Set(read.flatMap(\.memberNames)).sorted()
        let streamed = forEachFromCache(in: inFolder.entity, reading: names, includeDeleted: query.includeDeleted) {
            path, content in
            if let filter = inFolder.filter,
                !evaluation.test(
                    filter, on: PersistentIdentifier(entityName: inFolder.entity, id: path.id), content: content)
            {
                return
            }
            groups.add(path.id, content, &evaluation)
        }
        return streamed ? groups.rows : nil
    }
}

extension QueryAggregate {
    /// The groups of an aggregate as documents are added to them, in the order first met.
    struct Groups {
        let aggregate: QueryAggregate
        let groupBy: [QueryExpression]
        let entity: String
        private var groups: [[QueryValue]: Summary] = [:]
        private var order: [[QueryValue]] = []

        init(_ aggregate: QueryAggregate, groupedBy groupBy: [QueryExpression], entity: String) {
            (self.aggregate, self.groupBy, self.entity) = (aggregate, groupBy, entity)
        }

        /// Adds a document: its group's key and the aggregated value, as `evaluation` has them.
        mutating func add(_ id: UUID, _ content: JSONObject, _ evaluation: inout QueryEvaluation) {
            let identity = PersistentIdentifier(entityName: entity, id: id)
            let key = groupBy.map { evaluation.value(of: $0, on: identity, content: content) }
            let value = aggregate.value.map { evaluation.value(of: $0, on: identity, content: content) }
            if groups[key] == nil { order.append(key) }
            groups[key, default: Summary(aggregate)].add(value)
        }

        /// The rows, in group order; one row for no documents and no groups.
        var rows: [QueryAggregate.Row] {
            let keys = groupBy.isEmpty && order.isEmpty ? [[]] : order
            return keys.sorted(by: QueryAggregate.groupOrder).map { key in
                let summary = groups[key] ?? Summary(aggregate)
                return QueryAggregate.Row(group: key, count: summary.documents, value: summary.value)
            }
        }
    }
}

extension QueryAggregate.Row: CustomStringConvertible {
    /// The row as the text language writes its values, for a print or a log:
    /// `"completed", 3: 4 documents, 1500`, or `12 documents, 7200.5` without groups.
    public var description: String {
        let documents = "\(count) document\(count == 1 ? "" : "s"), \(value.queryText)"
        return group.isEmpty ? documents : group.map(\.queryText).joined(separator: ", ") + ": " + documents
    }
}
