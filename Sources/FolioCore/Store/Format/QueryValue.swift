import FolioJSON
import Foundation

/// A value a query computes with: a stored JSON value read with its property's type in
/// mind (a `Date` property's text is a date), a constant, or a related document.
///
/// Numbers compare by value whatever their JSON form (`1 == 1.0`); a date compares with
/// text that reads as a date; values of unrelated kinds are unequal and unordered.
public enum QueryValue: Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case date(Date)
    case array([QueryValue])
    /// A document, by entity and identity: what a relationship holds.
    case document(entity: String, id: UUID)
    /// Anything else as stored: nested objects of `Codable` values.
    case json(JSONValue)
}

extension QueryValue {
    /// The value of a stored member. `type` is the attribute's Swift type as the schema
    /// names it; it makes a `Date`'s text a date, also inside arrays.
    init(_ json: JSONValue, type: ValueKind) {
        switch json {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .integer(let value): self = .integer(value)
        case .double(let value): self = .double(value)
        case .number(let text): self = Double(text).map(QueryValue.double) ?? .json(json)
        case .string(let text):
            if type == .date, let date = try? ISO8601Timestamp.date(from: json) {
                self = .date(date)
            } else if type == .uuid, let uuid = UUIDText.parse(text) {
                // A hand-written lowercase UUID is the same UUID.
                self = .string(UUIDText.text(of: uuid))
            } else {
                self = .string(text)
            }
        case .array(let elements): self = .array(elements.map { QueryValue($0, type: type) })
        case .object: self = .json(json)
        }
    }

    /// What a stored member needs to be read right: dates and UUIDs are text in JSON.
    enum ValueKind: Sendable, Hashable {
        case date, uuid, other

        /// The kind of a schema type name (`"Date"`, `"Array<Date>"`, `"Optional<UUID>"`).
        init(typeName: String) {
            if typeName == "Date" || typeName.hasSuffix("<Date>") {
                self = .date
            } else if typeName == "UUID" || typeName.hasSuffix("<UUID>") {
                self = .uuid
            } else {
                self = .other
            }
        }
    }

    /// A stored member read as its property says: a date's text as a date, a relationship's
    /// UUIDs as documents. (A to-many the documents do not keep is not read here.)
    init(stored json: JSONValue, as property: QuerySchema.Property?) {
        switch property {
        case .attribute(let kind, _, _): self.init(json, type: kind)
        case .relationship(let destination, _, _):
            func document(_ json: JSONValue) -> QueryValue {
                guard case .string(let text) = json, let id = UUIDText.parse(text) else {
                    return QueryValue(json, type: .other)
                }
                return .document(entity: destination, id: id)
            }
            if case .array(let elements) = json {
                self = .array(elements.map(document))
            } else {
                self = json == .null ? .null : document(json)
            }
        case nil: self.init(json, type: .other)
        }
    }

    var isNull: Bool { if case .null = self { true } else { false } }

    var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }

    /// The number as a `Double`, for arithmetic and mixed comparisons.
    var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// The date, reading text as an ISO 8601 timestamp when it is one.
    var dateValue: Date? {
        switch self {
        case .date(let date): date
        case .string(let text): try? ISO8601Timestamp.date(from: .string(text))
        default: nil
        }
    }
}

extension QueryValue: Equatable {
    /// Equality as a query sees it: numbers by value, dates with text that reads as a date.
    public static func == (lhs: QueryValue, rhs: QueryValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.integer, .double), (.double, .integer), (.double, .double): lhs.doubleValue == rhs.doubleValue
        case (.string(let a), .string(let b)): a == b
        case (.date(let a), .date(let b)): a == b
        case (.date, .string), (.string, .date): lhs.dateValue != nil && lhs.dateValue == rhs.dateValue
        case (.array(let a), .array(let b)): a == b
        case (.document(let e1, let a), .document(let e2, let b)): a == b && e1 == e2
        case (.json(let a), .json(let b)): a == b
        default: false
        }
    }
}

extension QueryValue: Hashable {
    /// Consistent with `==` for the values indexes hold: an integral double hashes as its
    /// integer. (Text equal to a date hashes as text, so index keys of a `Date` property
    /// are always dates.)
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .integer(let value): hasher.combine(Double(value))
        case .double(let value): hasher.combine(value)
        case .string(let value): hasher.combine(value)
        case .date(let value): hasher.combine(value)
        case .array(let values): hasher.combine(values)
        case .document(_, let id): hasher.combine(id)
        case .json(let value): hasher.combine(value)
        }
    }
}

extension QueryValue {
    /// The order of two values of the same kind: numbers, text (Swift's `<`), dates,
    /// booleans (`false` first). `nil` for values that have no order between them.
    func compared(to other: QueryValue) -> ComparisonResult? {
        switch (self, other) {
        case (.integer(let a), .integer(let b)):
            return a < b ? .orderedAscending : a == b ? .orderedSame : .orderedDescending
        case (.integer, .double), (.double, .integer), (.double, .double):
            guard let a = doubleValue, let b = other.doubleValue, !a.isNaN, !b.isNaN else { return nil }
            return a < b ? .orderedAscending : a == b ? .orderedSame : .orderedDescending
        case (.string(let a), .string(let b)):
            return a < b ? .orderedAscending : a == b ? .orderedSame : .orderedDescending
        case (.date, .date), (.date, .string), (.string, .date):
            guard let a = dateValue, let b = other.dateValue else { return nil }
            return a < b ? .orderedAscending : a == b ? .orderedSame : .orderedDescending
        case (.bool(let a), .bool(let b)): return a == b ? .orderedSame : !a ? .orderedAscending : .orderedDescending
        default: return nil
        }
    }

    /// A total order for sorting: `nil` first (as SwiftData orders optionals), then
    /// values by `compared(to:)`, then unrelated kinds in a fixed order.
    func sortOrder(_ other: QueryValue) -> ComparisonResult {
        if let order = compared(to: other) { return order }
        let (a, b) = (kindRank, other.kindRank)
        return a < b ? .orderedAscending : a == b ? .orderedSame : .orderedDescending
    }

    private var kindRank: Int {
        switch self {
        case .null: 0
        case .bool: 1
        case .integer, .double: 2
        case .date: 3
        case .string: 4
        case .array: 5
        case .document: 6
        case .json: 7
        }
    }
}
