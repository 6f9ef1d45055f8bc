import Foundation

/// A summary of many documents' values: how many, their sum, least, greatest or mean.
/// Folio's: SwiftData has `fetchCount` only.
public struct QueryAggregate: Sendable, Hashable {
    public enum Function: String, Sendable, Hashable, CaseIterable {
        case count, sum, min, max, average
    }

    public var function: Function
    /// The value summarized; `nil` for `count`, which counts documents.
    public var value: QueryExpression?

    public init(_ function: Function, of value: QueryExpression? = nil) {
        self.function = function
        self.value = value
    }

    /// One group's summary: the group's values (empty without grouping), how many
    /// documents it has, and the aggregate (`nil` when no document had a value).
    public struct Row: Sendable, Hashable {
        public var group: [QueryValue]
        public var count: Int
        public var value: QueryValue
    }

    /// Summarizes the values, skipping `nil`s as SQL does: `sum` of integers stays an
    /// integer, `average` is a double, `min` and `max` use the sort order of values.
    func summarize(_ values: [QueryValue], documents: Int) -> QueryValue {
        let present = values.filter { !$0.isNull }
        switch function {
        case .count: return .integer(Int64(value == nil ? documents : present.count))
        case .min: return present.min { $0.sortOrder($1) == .orderedAscending } ?? .null
        case .max: return present.max { $0.sortOrder($1) == .orderedAscending } ?? .null
        case .sum, .average:
            let numbers = present.filter { $0.doubleValue != nil }
            guard !numbers.isEmpty else { return function == .sum ? .integer(0) : .null }
            let sum = numbers.dropFirst().reduce(numbers[0]) { QueryEvaluation.arithmetic($0, .add, $1) }
            guard function == .average, let total = sum.doubleValue else { return sum }
            return .double(total / Double(numbers.count))
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
    public func aggregate(_ query: DocumentQuery, _ aggregate: QueryAggregate, groupedBy groupBy: [QueryExpression] = []) throws(FolioError) -> [QueryAggregate.Row] {
        try self.aggregate(query, aggregate, groupedBy: groupBy, overlay: [])
    }

    func aggregate(
        _ query: DocumentQuery, _ aggregate: QueryAggregate, groupedBy groupBy: [QueryExpression], overlay: [(Catalog.Identity, JSONObject?)]
    ) throws(FolioError) -> [QueryAggregate.Row] {
        try run(query, overlay: overlay) { run in
            let (found, _) = run.collect(overlay: overlay.map(\.0))
            var groups: [[QueryValue]: (count: Int, values: [QueryValue])] = [:]
            var order: [[QueryValue]] = []
            for document in found {
                let identity = Catalog.Identity(entity: query.entity, id: document.id)
                let key = groupBy.map { run.evaluation.value(of: $0, on: identity, content: document.content) }
                let value = aggregate.value.map { run.evaluation.value(of: $0, on: identity, content: document.content) }
                if groups[key] == nil { order.append(key) }
                groups[key, default: (0, [])].count += 1
                if let value { groups[key]!.values.append(value) }
            }
            if groupBy.isEmpty, order.isEmpty { order = [[]] }
            return order.sorted { a, b in
                for (x, y) in zip(a, b) where x.sortOrder(y) != .orderedSame { return x.sortOrder(y) == .orderedAscending }
                return false
            }.map { key in
                let group = groups[key] ?? (0, [])
                return QueryAggregate.Row(group: key, count: group.count, value: aggregate.summarize(group.values, documents: group.count))
            }
        }
    }
}
