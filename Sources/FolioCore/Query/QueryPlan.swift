import FolioJSON
import Foundation

/// How a query reaches its candidate documents, chosen from the filter's top-level
/// `&&` terms in this order: identity lookup, unique and `#Index` indexes, relationship
/// keys, the day partition for date ranges, then a scan of the entity.
///
/// Each candidate is tested against the whole filter, so a plan only narrows what is read;
/// but for an index of attributes whose properties the filter's equalities are exactly,
/// whose entries are the answer (`QueryRun.collect`).
public enum QueryAccess: Sendable, Hashable, CustomStringConvertible {
    /// One document by its identity (the model's `id`).
    case identity(UUID)
    /// An index's entries for one key: the properties and the values looked up.
    case index([String], key: [QueryValue], unique: Bool)
    /// The documents whose to-one relationship refers to one document.
    case relationship(String, UUID)
    /// The day folders from `first` through `last` (of the partition property), skipping the rest.
    case days(property: String, first: Day, last: Day)
    /// Every document of the entity.
    case scan

    /// The access as `--explain` prints it: `identity lookup`, `index (...) == (...)`,
    /// `relationship key`, `day partition` or `scan`.
    public var description: String {
        switch self {
        case .identity(let id): "identity lookup \(id)"
        case .index(let properties, let key, let unique):
            "\(unique ? "unique index" : "index") (\(properties.joined(separator: ", "))) == (\(key.map(\.queryText).joined(separator: ", ")))"
        case .relationship(let property, let id): "relationship key \(property) == \(id)"
        case .days(let property, let first, let last): "day partition \(property) in \(first)...\(last)"
        case .scan: "scan"
        }
    }

    /// Whether the access reads the entity's table (all but one document by identity).
    var readsTable: Bool {
        if case .identity = self { false } else { true }
    }

    /// The best access for a filter on an entity.
    static func plan(
        _ filter: QueryExpression?, for entity: QuerySchema.Entity, in schema: QuerySchema, calendar: Calendar
    ) -> QueryAccess {
        guard let filter else { return .scan }
        var equalities: [String: QueryValue] = [:]
        var relationships: [String: UUID] = [:]
        var lower: Date?
        var upper: Date?
        let partition = entity.partitionProperty
        for term in filter.conjuncts {
            // `persistentModelID == x`: the document itself.
            if case .compare(let lhs, .equal, let rhs) = term {
                for (side, constant) in [(lhs, rhs), (rhs, lhs)] {
                    if case .variable(0) = side, case .value(.document(entity.name, let id)) = constant {
                        return .identity(id)
                    }
                }
            }
            // `timer?.id == x`, where the related model's own id names its document.
            if let (name, id) = term.relatedIdentityComparison,
                case .relationship(let destination, false, _)? = entity.property(named: name),
                schema.entities[destination]?.hasOwnIdentity == true
            {
                relationships[name] = id
                continue
            }
            guard let (name, op, value) = term.propertyComparison else { continue }
            switch entity.property(named: name) {
            case .attribute(let kind, _, _)?:
                // The constant as the index keys hold it, or no index when it cannot be so.
                var key: QueryValue? = value
                switch (kind, value) {
                case (.date, _): key = value.dateValue.map(QueryValue.date)
                case (.uuid, .string(let text)):
                    key = UUIDText.parse(text).map { .string(UUIDText.text(of: $0)) } ?? value
                case (_, .date): key = nil
                default: break
                }
                if op == .equal, let key { equalities[name] = key }
                guard name == partition, let date = value.dateValue else { continue }
                switch op {
                case .equal: (lower, upper) = (max(lower ?? date, date), min(upper ?? date, date))
                case .greater, .greaterOrEqual: lower = max(lower ?? date, date)
                case .less, .lessOrEqual: upper = min(upper ?? date, date)
                case .notEqual: break
                }
            case .relationship(_, false, _)?:
                if op == .equal, case .document(_, let id) = value { relationships[name] = id }
            default: continue
            }
        }
        if entity.hasOwnIdentity, case .string(let text)? = equalities["id"], let id = UUIDText.parse(text) {
            return .identity(id)
        }
        let indexes = QueryIndexes.declaredIndexes(of: entity).filter {
            !($0.count == 1 && entity.toOneRelationships.contains($0[0]))
        }
        let usable = indexes.filter { $0.allSatisfy { equalities[$0] != nil } }
        // A unique index first, then the one that pins the most properties.
        if let best = usable.max(by: { rank($0, in: entity) < rank($1, in: entity) }) {
            return .index(best, key: best.map { equalities[$0]! }, unique: entity.uniquenessConstraints.contains(best))
        }
        if let (name, id) = relationships.min(by: { $0.key < $1.key }) { return .relationship(name, id) }
        if let partition, lower != nil || upper != nil {
            let first = lower.map { Day($0, in: calendar) } ?? Day.earliest
            let last = upper.map { Day($0, in: calendar) } ?? Day.latest
            return .days(property: partition, first: first, last: last)
        }
        return .scan
    }

    private static func rank(_ index: [String], in entity: QuerySchema.Entity) -> Int {
        (entity.uniquenessConstraints.contains(index) ? 1000 : 0) + index.count
    }
}

/// What running a query did: how it reached its documents and how many it read, for
/// `ModelContext.explain(_:)` and the command line's `--explain`.
public struct QueryExplanation: Sendable, CustomStringConvertible {
    /// The name of the entity the query ran on.
    public var entity: String
    /// How the query reached its candidate documents.
    public var access: QueryAccess
    /// Documents the entity holds in the store.
    public var documents: Int
    /// Documents whose content was tested against the filter.
    public var examined: Int
    /// Documents that satisfied it (before offset and limit).
    public var matched: Int
    /// For a day-partition access: the day folders read and those the entity has.
    public var daysRead: (read: Int, of: Int)?
    /// How the results were ordered, when they were.
    public var sort: String?
    /// Why the filter ran on models instead of documents, when it did.
    public var fallback: String?
    /// Whether the candidates came from the folder's cache file and a walk, the folder left
    /// unloaded (see `DocumentStore.answerFromCache`).
    public var fromCacheFile = false
    /// Whether no index narrowed the filter and every document's members were streamed from
    /// the folder's cache file and tested, only the matches kept (see `DocumentStore.scanFromCache`).
    public var streamed = false
    /// The property whose ordered index gave a scan's candidates (the rows holding the
    /// value an equality names), when one did (see `QueryIndexes.orderedForEquality`).
    public var orderedBy: String?

    /// The explanation as `--explain` prints it: the entity and access, the counts of documents
    /// examined and matched, then the sort, the fallback and the cache file, when they apply.
    public var description: String {
        var lines = ["\(entity): \(access)"]
        if let daysRead { lines[0] += " (\(daysRead.read) of \(daysRead.of) day folders)" }
        if let orderedBy { lines[0] += " (the rows holding the value, from the ordered index of \(orderedBy))" }
        lines.append("examined \(examined) of \(documents) documents, matched \(matched)")
        if let sort { lines.append("sorted by \(sort)") }
        if let fallback { lines.append("evaluated on models: \(fallback)") }
        if streamed {
            lines.append("streamed from the folder's cache file and a walk: no index it holds narrows the filter")
        } else if fromCacheFile {
            lines.append("read from the folder's cache file and a walk, without loading the folder")
        }
        return lines.joined(separator: "\n")
    }
}

extension Day {
    /// The first and last days a store can file documents under.
    static let earliest = Day(year: 0, month: 1, day: 1)!
    static let latest = Day(year: 9999, month: 12, day: 31)!
}

extension QueryExpression {
    /// The terms of a top-level `&&` chain.
    var conjuncts: [QueryExpression] {
        if case .and(let lhs, let rhs) = self { return lhs.conjuncts + rhs.conjuncts }
        return [self]
    }

    /// `property op constant` (either way round) on the document under test.
    var propertyComparison: (String, ComparisonOperator, QueryValue)? {
        guard case .compare(let lhs, let op, let rhs) = self else { return nil }
        if case .member(.variable(0), let name) = lhs, case .value(let value) = rhs { return (name, op, value) }
        if case .member(.variable(0), let name) = rhs, case .value(let value) = lhs {
            return (name, op.mirrored, value)
        }
        return nil
    }
}

extension QueryExpression {
    /// `relationship.id == "UUID"` (either way round) on the document under test.
    var relatedIdentityComparison: (String, UUID)? {
        guard case .compare(let lhs, .equal, let rhs) = self else { return nil }
        for (path, constant) in [(lhs, rhs), (rhs, lhs)] {
            if case .member(.member(.variable(0), let name), "id") = path, case .value(.string(let text)) = constant,
                let id = UUIDText.parse(text)
            {
                return (name, id)
            }
        }
        return nil
    }
}

extension QueryExpression.ComparisonOperator {
    /// The operator with its sides swapped: `a < b` is `b > a`.
    var mirrored: Self {
        switch self {
        case .equal, .notEqual: self
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        }
    }
}

extension QueryValue {
    /// The value as the text language writes it.
    public var queryText: String {
        switch self {
        case .null: "nil"
        case .bool(let value): "\(value)"
        case .integer(let value): "\(value)"
        case .double(let value): "\(value)"
        case .string(let text):
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .date(let date): "@" + (ISO8601Timestamp.jsonValue(for: date).stringValue ?? "\(date)")
        case .array(let values): "[" + values.map(\.queryText).joined(separator: ", ") + "]"
        case .document(let entity, let id): "\(entity)(\(id))"
        case .json(let json): json.description
        }
    }
}
