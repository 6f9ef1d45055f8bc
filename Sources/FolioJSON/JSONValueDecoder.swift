import Foundation

/// Decodes `Decodable` values from `JSONValue` trees, the inverse of `JSONValueEncoder`.
///
/// Leaves with a Folio stored form (`Date`, `UUID`, numbers, ...) are read through
/// `JSONRepresentable`, so they accept exactly what Folio writes. A mismatch throws
/// `JSONError` with the path to the offending value (`items[2].name`).
public struct JSONValueDecoder: Sendable {
    /// A decoder; it has no options, so every instance decodes the same way.
    public init() {}

    /// The value that `json` encodes.
    public func decode<Value: Decodable>(_ type: Value.Type, from json: JSONValue) throws(JSONError) -> Value {
        do {
            return try ValueDecoder.read(type, from: json, codingPath: [])
        } catch let error as JSONError {
            throw error
        } catch let error as DecodingError {
            throw JSONError(.invalidValue(Self.message(for: error, type: type)))
        } catch {
            throw JSONError(.invalidValue("\(type) could not be read: \(error)"))
        }
    }

    private static func message(for error: DecodingError, type: Any.Type) -> String {
        let (path, problem): ([any CodingKey], String) =
            switch error {
            case .typeMismatch(_, let context), .dataCorrupted(let context):
                (context.codingPath, context.debugDescription)
            case .keyNotFound(let key, let context):
                (context.codingPath, "the member \"\(key.stringValue)\" is missing")
            case .valueNotFound(_, let context):
                (context.codingPath, "a value is null that must not be: \(context.debugDescription)")
            @unknown default: ([], "\(error)")
            }
        let place = path.isEmpty ? "" : " at " + pathText(path)
        return "\(type) could not be read\(place): \(problem)"
    }

    /// `items[2].name` for the keys items, 2, name.
    static func pathText(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue, key is IndexKey {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text
    }
}

private struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Reads a value: through Folio's stored form for the types that have one, else the type's `init(from:)`.
    static func read<Value: Decodable>(_ type: Value.Type, from value: JSONValue, codingPath: [any CodingKey]) throws
        -> Value
    {
        if let representable = type as? any JSONRepresentable.Type {
            do {
                // The cast cannot fail: `representable` is `Value.self`.
                return try representable.init(json: value) as! Value
            } catch {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: error.message))
            }
        }
        return try Value(from: ValueDecoder(value: value, codingPath: codingPath))
    }

    func mismatch(_ expected: String) -> DecodingError {
        .typeMismatch(
            Any.self, .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(value.typeName)"))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else { throw mismatch("an object") }
        return KeyedDecodingContainer(KeyedContainer(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch("an array") }
        return UnkeyedContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(value: value, codingPath: codingPath)
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    let codingPath: [any CodingKey]

    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }
    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    private func member(_ key: Key) throws -> JSONValue {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "no member \"\(key.stringValue)\""))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key) == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try ValueDecoder.read(type, from: member(key), codingPath: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try ValueDecoder(value: member(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value: member(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { ValueDecoder(value: object["super"] ?? .null, codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: try member(key), codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    private mutating func next() throws -> (JSONValue, [any CodingKey]) {
        let path = codingPath + [IndexKey(currentIndex)]
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any.self, .init(codingPath: path, debugDescription: "the array has only \(elements.count) elements"))
        }
        defer { currentIndex += 1 }
        return (elements[currentIndex], path)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next()
        return try ValueDecoder.read(type, from: value, codingPath: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<
        NestedKey
    > {
        let (value, path) = try next()
        return try ValueDecoder(value: value, codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next()
        return try ValueDecoder(value: value, codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next()
        return ValueDecoder(value: value, codingPath: path)
    }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value == .null }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try ValueDecoder.read(type, from: value, codingPath: codingPath)
    }
}
