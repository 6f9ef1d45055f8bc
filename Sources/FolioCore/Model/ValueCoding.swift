import FolioJSON
import Foundation

/// How one attribute's Swift value becomes JSON and back, chosen from its type when the
/// schema is read from the declaration.
///
/// In order: a type with a Folio stored form (`JSONRepresentable`: numbers, strings,
/// `Date`, `UUID`, `URL`, `Data`, `Decimal`, and arrays, dictionaries and optionals of
/// them), an enum by its raw value, then any other `Codable` value as nested JSON.
/// Values are passed as `Any` because the backing data keeps them so; the closures were
/// made for the property's type, so the casts inside cannot fail.
/// Not `Sendable` because its closures hold the property's metatype; `RuntimeOnly` shares it.
public struct ValueCoding {
    let encode: (Any) throws(JSONError) -> JSONValue
    let decode: (JSONValue) throws(JSONError) -> Any

    /// The coding of a type, or `nil` when Folio cannot store it.
    static func of(_ type: Any.Type) -> ValueCoding? {
        if let common = common(type) { return common }
        if let optional = type as? any OptionalValue.Type { return optional.coding }
        if let representable = type as? any JSONRepresentable.Type { return representing(representable) }
        if let raw = type as? any RawRepresentable.Type, let coding = byRawValue(raw) { return coding }
        if let codable = type as? any Codable.Type { return nested(codable) }
        return nil
    }

    /// The codings of the types models use most, and their optionals, made for each
    /// concrete type: the general forms below are generic closures reached through
    /// existential metatypes, which look type metadata up on every value (about a tenth
    /// of a fetch's time).
    private static func common(_ type: Any.Type) -> ValueCoding? {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(String.self): representing(String.self)
        case ObjectIdentifier(String?.self): optionalRepresenting(String.self)
        case ObjectIdentifier(Int.self): representing(Int.self)
        case ObjectIdentifier(Int?.self): optionalRepresenting(Int.self)
        case ObjectIdentifier(Double.self): representing(Double.self)
        case ObjectIdentifier(Double?.self): optionalRepresenting(Double.self)
        case ObjectIdentifier(Bool.self): representing(Bool.self)
        case ObjectIdentifier(Bool?.self): optionalRepresenting(Bool.self)
        case ObjectIdentifier(Date.self): representing(Date.self)
        case ObjectIdentifier(Date?.self): optionalRepresenting(Date.self)
        case ObjectIdentifier(UUID.self): representing(UUID.self)
        case ObjectIdentifier(UUID?.self): optionalRepresenting(UUID.self)
        default: nil
        }
    }

    /// `Optional<Value>`'s coding, as `Optional.coding` makes it for any wrapped type.
    private static func optionalRepresenting<Value: JSONRepresentable>(_ type: Value.Type) -> ValueCoding {
        ValueCoding(
            encode: { value in (value as? Value)?.json ?? .null },
            decode: { json throws(JSONError) in
                json == .null ? Value?.none as Any : Value?.some(try Value(json: json)) as Any
            })
    }

    private static func representing<Value: JSONRepresentable>(_ type: Value.Type) -> ValueCoding {
        ValueCoding(
            encode: { value in (value as! Value).json }, decode: { json throws(JSONError) in try Value(json: json) })
    }

    private static func byRawValue<Value: RawRepresentable>(_ type: Value.Type) -> ValueCoding? {
        guard let raw = of(Value.RawValue.self) else { return nil }
        return ValueCoding(
            encode: { value throws(JSONError) in try raw.encode((value as! Value).rawValue) },
            decode: { json throws(JSONError) in
                guard let value = Value(rawValue: try raw.decode(json) as! Value.RawValue) else {
                    throw JSONError(.invalidValue("\(json) is not a case of \(Value.self)"))
                }
                return value
            })
    }

    private static func nested<Value: Codable>(_ type: Value.Type) -> ValueCoding {
        ValueCoding(
            encode: { value throws(JSONError) in try JSONValueEncoder().encode(value as! Value) },
            decode: { json throws(JSONError) in try JSONValueDecoder().decode(Value.self, from: json) })
    }
}

/// Lets `ValueCoding` see through `Optional` at run time: `nil` is `null`, anything else
/// is the wrapped type's form.
protocol OptionalValue {
    static var wrappedType: Any.Type { get }
    static var coding: ValueCoding? { get }
    /// The type's `nil`, as `Any`.
    static var noValue: Any { get }
    /// Whether this optional holds nothing.
    var isNone: Bool { get }
}

extension Optional: OptionalValue {
    static var wrappedType: Any.Type { Wrapped.self }
    static var noValue: Any { Optional<Wrapped>.none as Any }
    var isNone: Bool { self == nil }

    static var coding: ValueCoding? {
        guard let wrapped = ValueCoding.of(Wrapped.self) else { return nil }
        return ValueCoding(
            encode: { value throws(JSONError) in
                guard let present = value as? Wrapped else { return .null }
                return try wrapped.encode(present)
            },
            decode: { json throws(JSONError) in
                json == .null ? Optional<Wrapped>.none as Any : Optional(try wrapped.decode(json) as! Wrapped) as Any
            })
    }
}
