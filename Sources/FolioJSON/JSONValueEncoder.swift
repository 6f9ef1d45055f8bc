import Foundation

/// Encodes `Encodable` values to `JSONValue` trees, the form Folio stores nested values in.
///
/// Leaves that Folio has a stored form for (`Date`, `UUID`, `Data`, `Decimal`, integers,
/// doubles, ...) are written in that form wherever they appear, so a `Date` inside a
/// `Codable` struct reads in a document exactly as a `Date` property does. Object members
/// keep the order the type encodes them in, which for synthesized conformances is the
/// order of declaration; dictionaries and sets, which encode in an order that changes from
/// run to run, are sorted (by key, by element), so the same value always gives the same bytes.
public struct JSONValueEncoder: Sendable {
    /// An encoder; it has no options, so every instance encodes the same way.
    public init() {}

    /// The value's JSON form; throws `JSONError` when the value refuses to encode.
    public func encode<Value: Encodable>(_ value: Value) throws(JSONError) -> JSONValue {
        let root = EncodingNode()
        do {
            try root.store(value, codingPath: [])
        } catch let error as JSONError {
            throw error
        } catch {
            throw JSONError(.notRepresentable("\(Value.self) did not encode: \(error)"))
        }
        return root.value
    }
}

/// One value under construction: filled by a container, resolved to `JSONValue` at the end.
///
/// A class because containers handed out by `Encoder` outlive the call that made them and
/// must write into the same place.
private final class EncodingNode {
    enum Content {
        case unset
        case value(JSONValue)
        case object([(key: String, node: EncodingNode)])
        case array([EncodingNode])
    }

    var content = Content.unset

    var value: JSONValue {
        switch content {
        case .unset: .object(JSONObject())
        case .value(let value): value
        case .object(let members): .object(JSONObject(members.map { ($0.key, $0.node.value) }))
        case .array(let elements): .array(elements.map(\.value))
        }
    }

    /// Stores a value: Folio's own stored form for the types that have one, else the value's `encode(to:)`.
    func store<Value: Encodable>(_ value: Value, codingPath: [any CodingKey]) throws {
        if let representable = value as? any JSONRepresentable {
            content = .value(representable.json)
        } else {
            try value.encode(to: ValueEncoder(node: self, codingPath: codingPath))
            if let unordered = value as? any UnorderedEncodable {
                sort(pairedElements: type(of: unordered).encodesPairs)
            }
        }
    }

    /// Puts an unordered collection's encoding in a fixed order: an object's members by key
    /// (as numbers when every key is one), an array's elements by their JSON text, or, for a
    /// dictionary whose keys are neither strings nor integers (`[key, value, key, value]`), its pairs by key.
    private func sort(pairedElements: Bool) {
        switch content {
        case .object(let members):
            let numeric = members.allSatisfy { Int($0.key) != nil }
            content = .object(members.sorted { numeric ? Int($0.key)! < Int($1.key)! : $0.key < $1.key })
        case .array(let elements) where pairedElements && elements.count % 2 == 0:
            let pairs = stride(from: 0, to: elements.count, by: 2).map {
                (key: elements[$0].value.description, pair: elements[$0...$0 + 1])
            }
            content = .array(pairs.sorted { $0.key < $1.key }.flatMap(\.pair))
        case .array(let elements):
            content = .array(elements.map { ($0.value.description, $0) }.sorted { $0.0 < $1.0 }.map(\.1))
        default:
            break
        }
    }

    /// The member node for a key (replacing an earlier one with the same key, as JSON keys are unique).
    func member(_ key: String) -> EncodingNode {
        var members: [(key: String, node: EncodingNode)] = []
        if case .object(let existing) = content { members = existing }
        let node = EncodingNode()
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].node = node
        } else {
            members.append((key, node))
        }
        content = .object(members)
        return node
    }

    func appendElement() -> EncodingNode {
        var elements: [EncodingNode] = []
        if case .array(let existing) = content { elements = existing }
        let node = EncodingNode()
        elements.append(node)
        content = .array(elements)
        return node
    }

    var elementCount: Int {
        if case .array(let elements) = content { return elements.count }
        return 0
    }
}

private struct ValueEncoder: Encoder {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.content {} else { node.content = .object([]) }
        return KeyedEncodingContainer(KeyedContainer(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return UnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(node: node, codingPath: codingPath)
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { node.member(key.stringValue).content = .value(.null) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try node.member(key.stringValue).store(value, codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        ValueEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        ValueEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { ValueEncoder(node: node.member("super"), codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        ValueEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var count: Int { node.elementCount }

    mutating func encodeNil() throws { node.appendElement().content = .value(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let key = IndexKey(count)
        try node.appendElement().store(value, codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        let key = IndexKey(count)
        return ValueEncoder(node: node.appendElement(), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let key = IndexKey(count)
        return ValueEncoder(node: node.appendElement(), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let key = IndexKey(count)
        return ValueEncoder(node: node.appendElement(), codingPath: codingPath + [key])
    }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.content = .value(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws { try node.store(value, codingPath: codingPath) }
}

/// The coding key of an array element, for coding paths in error messages.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}

/// The standard library's collections whose `encode(to:)` follows their hash order.
protocol UnorderedEncodable {
    /// Whether an unkeyed encoding alternates keys and values (a dictionary), rather than holding elements (a set).
    static var encodesPairs: Bool { get }
}

extension Dictionary: UnorderedEncodable {
    static var encodesPairs: Bool { true }
}

extension Set: UnorderedEncodable {
    static var encodesPairs: Bool { false }
}
