/// One JSON value, as Folio reads and writes it.
///
/// Numbers keep what they were: an integer that fits 64 bits is `.integer`, a
/// number with a fraction or exponent whose value a `Double` holds exactly as
/// written is `.double`, and anything else (a 30-digit integer, `1e400`,
/// `0.10000000000000000001`) is `.number` with its text kept verbatim, so a
/// hand-written number is never silently changed by a read and a write.
public enum JSONValue: Sendable {
    /// JSON's `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer within `Int64`'s range, exact.
    case integer(Int64)
    /// A finite double. Written in the shortest text that reads back to the same bits.
    case double(Double)
    /// A number neither `Int64` nor `Double` can hold exactly, kept as the text it was written as.
    case number(String)
    /// A string, unescaped.
    case string(String)
    /// An array: its elements in order.
    case array([JSONValue])
    /// An object: its members in the order written.
    case object(JSONObject)
}

extension JSONValue: Equatable {
    /// Structural equality: objects compare member by member in order, and doubles
    /// compare by bit pattern, so values that are equal always write the same bytes.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.double(let a), .double(let b)): a.bitPattern == b.bitPattern
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        default: false
        }
    }
}

extension JSONValue: Hashable {
    /// Hashes the case and its payload, consistently with `==` (doubles by bit pattern, objects
    /// member by member in order).
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value):
            hasher.combine(1)
            hasher.combine(value)
        case .integer(let value):
            hasher.combine(2)
            hasher.combine(value)
        case .double(let value):
            hasher.combine(3)
            hasher.combine(value.bitPattern)
        case .number(let text):
            hasher.combine(4)
            hasher.combine(text)
        case .string(let value):
            hasher.combine(5)
            hasher.combine(value)
        case .array(let values):
            hasher.combine(6)
            hasher.combine(values)
        case .object(let object):
            hasher.combine(7)
            hasher.combine(object)
        }
    }
}

extension JSONValue {
    /// The JSON type's name as people know it, for error messages: "string", "object", ...
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .integer, .double, .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The members when this is an object, else `nil`.
    public var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The elements when this is an array, else `nil`.
    public var arrayValue: [JSONValue]? {
        if case .array(let values) = self { return values }
        return nil
    }

    /// The text when this is a string, else `nil`.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// A member of an object by key (`nil` for a missing key or a non-object).
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `nil` as JSON's `null`.
    public init(nilLiteral: ()) { self = .null }
    /// A boolean literal as `.bool`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer literal as `.integer`.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// A float literal as `.double`.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A string literal as `.string`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array literal as `.array`, elements in the order written.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// Members in the order written; a repeated key keeps its last value in the first one's place.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }
}

extension JSONValue: CustomStringConvertible {
    /// The value as compact one-line JSON, for messages: `"Tea"`, `[1, 2]`, `{"a": null}`.
    public var description: String {
        switch self {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .integer(let integer): String(integer)
        case .double(let double): double.isFinite ? JSONNumber.canonicalText(double) : "\(double)"
        case .number(let text): text
        case .string(let text): Self.quoted(text)
        case .array(let elements): "[" + elements.map(\.description).joined(separator: ", ") + "]"
        case .object(let object):
            "{" + object.map { Self.quoted($0.key) + ": " + $0.value.description }.joined(separator: ", ") + "}"
        }
    }

    private static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x20:
                result += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
