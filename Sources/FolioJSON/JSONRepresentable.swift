import Foundation

/// A Swift value with a stored JSON form, as Folio keeps it in documents.
///
/// The model layer encodes properties through this protocol; each conformance
/// here fixes one row of the storage format (see the README's format section).
/// Decoding is strict about type and content but accepts every form the encoder
/// writes, so `T(json: x.json) == x` for every value.
public protocol JSONRepresentable {
    /// The stored form of this value.
    var json: JSONValue { get }
    /// The value in a stored form; throws `JSONError` naming what was expected.
    init(json: JSONValue) throws(JSONError)
}

extension Bool: JSONRepresentable {
    /// `true` or `false`.
    public var json: JSONValue { .bool(self) }
    /// The boolean in `json`; throws `JSONError` when it is not `true` or `false`.
    public init(json: JSONValue) throws(JSONError) {
        guard case .bool(let value) = json else {
            throw JSONError(.typeMismatch(expected: "true or false", found: json.typeName))
        }
        self = value
    }
}

extension String: JSONRepresentable {
    /// The string itself, as a JSON string.
    public var json: JSONValue { .string(self) }
    /// The string in `json`; throws `JSONError` when it is not a JSON string.
    public init(json: JSONValue) throws(JSONError) {
        guard case .string(let value) = json else {
            throw JSONError(.typeMismatch(expected: "a string", found: json.typeName))
        }
        self = value
    }
}

/// Integers of every width: exact, as JSON integers. `UInt64` values past
/// `Int64.max` are stored as number text, which is exact too.
extension FixedWidthInteger where Self: JSONRepresentable {
    /// The integer as a JSON integer, or as exact number text when it is past `Int64.max`.
    public var json: JSONValue {
        if let exact = Int64(exactly: self) { return .integer(exact) }
        return .number(String(self))
    }

    /// The integer in `json`: a JSON integer, number text, or a double with no fraction.
    ///
    /// Throws `JSONError` when `json` is not a number, or when its value has a fraction or does not
    /// fit this integer type.
    public init(json: JSONValue) throws(JSONError) {
        let converted: Self? =
            switch json {
            case .integer(let integer): Self(exactly: integer)
            case .number(let text): Self(text)
            case .double(let double): Self(exactly: double)
            default: throw JSONError(.typeMismatch(expected: "an integer", found: json.typeName))
            }
        guard let converted else {
            throw JSONError(.invalidValue("\(json) does not fit \(Self.self) (\(Self.min)...\(Self.max))"))
        }
        self = converted
    }
}

extension Int: JSONRepresentable {}
extension Int8: JSONRepresentable {}
extension Int16: JSONRepresentable {}
extension Int32: JSONRepresentable {}
extension Int64: JSONRepresentable {}
extension UInt: JSONRepresentable {}
extension UInt8: JSONRepresentable {}
extension UInt16: JSONRepresentable {}
extension UInt32: JSONRepresentable {}
extension UInt64: JSONRepresentable {}

extension Double: JSONRepresentable {
    /// The double as a JSON number, or `"NaN"`, `"Infinity"` or `"-Infinity"` when it is not finite.
    public var json: JSONValue { DoubleCoding.jsonValue(for: self) }
    /// The double in `json`: any JSON number, or one of the strings `"NaN"`, `"Infinity"`, `"-Infinity"`.
    ///
    /// Throws `JSONError` for any other value. Number text beyond a double's range or precision
    /// reads as the nearest double.
    public init(json: JSONValue) throws(JSONError) { self = try DoubleCoding.double(from: json) }
}

extension Float: JSONRepresentable {
    /// A float is written with its own shortest digits (`0.1`, not `0.10000000149011612`);
    /// reading those digits as a double and rounding to `Float` gives back the same bits.
    public var json: JSONValue {
        isFinite ? .double(Double(description)!) : DoubleCoding.jsonValue(for: Double(self))
    }
    /// The float in `json`, read as a double (as `Double(json:)` reads it) and rounded to `Float`.
    public init(json: JSONValue) throws(JSONError) { self = Float(try DoubleCoding.double(from: json)) }
}

extension Decimal: JSONRepresentable {
    /// A decimal is written as its exact decimal text, never through a double.
    public var json: JSONValue {
        guard isFinite else { return .string("NaN") }
        return description.utf8.withContiguousStorageIfAvailable { JSONNumber.value(ofValidText: $0) }
            ?? .number(description)
    }

    /// The decimal in `json`: a JSON number read from its text without a double, or `"NaN"`.
    ///
    /// Throws `JSONError` when `json` is neither, or its text is not a decimal number.
    public init(json: JSONValue) throws(JSONError) {
        let text: String? =
            switch json {
            case .integer(let integer): String(integer)
            case .double(let double): JSONNumber.canonicalText(double)
            case .number(let text): text
            case .string("NaN"): nil
            default: throw JSONError(.typeMismatch(expected: "a decimal number", found: json.typeName))
            }
        guard let text else {
            self = .nan
            return
        }
        guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
            throw JSONError(.invalidValue("\(text) is not a decimal number"))
        }
        self = decimal
    }
}

extension Date: JSONRepresentable {
    /// The date as ISO 8601 text in UTC (`2026-11-22T09:30:00Z`, with as many fraction digits as
    /// read back exactly), or as seconds since 2001-01-01 when no such text is exact.
    public var json: JSONValue { ISO8601Timestamp.jsonValue(for: self) }
    /// The date in `json`: ISO 8601 text (with `Z` or an offset like `+01:00`), or a number of
    /// seconds since 2001-01-01; throws `JSONError` for anything else.
    public init(json: JSONValue) throws(JSONError) { self = try ISO8601Timestamp.date(from: json) }
}

extension UUID: JSONRepresentable {
    /// Its `uuidString` (upper case); lower case is accepted on reading.
    public var json: JSONValue { .string(UUIDText.text(of: self)) }
    /// The UUID in `json`, a string in upper or lower case; throws `JSONError` when it is not one.
    public init(json: JSONValue) throws(JSONError) {
        guard case .string(let text) = json else {
            throw JSONError(.typeMismatch(expected: "a UUID string", found: json.typeName))
        }
        guard let uuid = UUIDText.parse(text) else {
            throw JSONError(.invalidValue("\"\(text)\" is not a UUID such as E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        }
        self = uuid
    }
}

extension URL: JSONRepresentable {
    /// The URL's `absoluteString`.
    public var json: JSONValue { .string(absoluteString) }
    /// The URL in `json`, a string `URL(string:)` accepts; throws `JSONError` otherwise.
    public init(json: JSONValue) throws(JSONError) {
        guard case .string(let text) = json else {
            throw JSONError(.typeMismatch(expected: "a URL string", found: json.typeName))
        }
        guard let url = URL(string: text) else { throw JSONError(.invalidValue("\"\(text)\" is not a URL")) }
        self = url
    }
}

extension Data: JSONRepresentable {
    /// Base64 text (standard alphabet, padded, no line breaks).
    public var json: JSONValue { .string(base64EncodedString()) }
    /// The bytes in `json`, base64 text; throws `JSONError` when it is not a string or not valid base64.
    public init(json: JSONValue) throws(JSONError) {
        guard case .string(let text) = json else {
            throw JSONError(.typeMismatch(expected: "base64 text", found: json.typeName))
        }
        guard let data = Data(base64Encoded: text) else {
            throw JSONError(.invalidValue("the text is not valid base64"))
        }
        self = data
    }
}

extension Optional: JSONRepresentable where Wrapped: JSONRepresentable {
    /// The wrapped value's stored form, or `null` for `nil`.
    public var json: JSONValue { map(\.json) ?? .null }
    /// `nil` for `null`, otherwise the wrapped value read from `json` (which throws as it does).
    public init(json: JSONValue) throws(JSONError) {
        self = json == .null ? nil : try Wrapped(json: json)
    }
}

extension Array: JSONRepresentable where Element: JSONRepresentable {
    /// A JSON array of the elements' stored forms, in order.
    public var json: JSONValue { .array(map(\.json)) }
    /// The array in `json`, each element read as `Element`; throws `JSONError` when `json` is not an
    /// array or an element does not read.
    public init(json: JSONValue) throws(JSONError) {
        guard case .array(let elements) = json else {
            throw JSONError(.typeMismatch(expected: "an array", found: json.typeName))
        }
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        for element in elements { result.append(try Element(json: element)) }
        self = result
    }
}

extension Dictionary: JSONRepresentable where Key == String, Value: JSONRepresentable {
    /// An object with keys sorted, so the same dictionary always writes the same text.
    public var json: JSONValue {
        .object(
            JSONObject(
                uniqueMembers: sorted { $0.key < $1.key }.map { JSONObject.Member(key: $0.key, value: $0.value.json) }))
    }
    /// The dictionary in `json`, an object whose member values each read as `Value`; throws
    /// `JSONError` when `json` is not an object or a value does not read.
    public init(json: JSONValue) throws(JSONError) {
        guard case .object(let object) = json else {
            throw JSONError(.typeMismatch(expected: "an object", found: json.typeName))
        }
        var result: [String: Value] = [:]
        for member in object { result[member.key] = try Value(json: member.value) }
        self = result
    }
}
