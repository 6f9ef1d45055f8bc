import Foundation
import Synchronization

/// Finds the coding key under which a `Decodable` value type writes the stored property
/// a key path names, so that a predicate on `$0.location.name` reads `"name"` (or whatever
/// key the type's `CodingKeys` give it) inside the stored JSON.
///
/// Swift cannot name a key path's property at run time, and a key path's printed form
/// would miss custom `CodingKeys`, so the type is asked: a value is decoded from a decoder
/// that gives every member a marker unique to its key (a string, a number, a date or a
/// UUID), and the key path is read from it; the marker found names the key. A member that
/// cannot carry a marker (a `Bool`, an enum, an empty value) is not found, and the
/// predicate then runs on models: never a guess.
enum CodingKeyProbe {
    private static let found = Mutex<[Pair: String?]>([:])
    private static let named = Mutex<[ObjectIdentifier: [String: Member]]>([:])

    /// `@unchecked Sendable`: a key path is immutable, although Swift cannot see that of `AnyKeyPath`.
    private struct Pair: Hashable, @unchecked Sendable {
        let type: ObjectIdentifier
        let keyPath: AnyKeyPath
    }

    /// A stored property's coding key and type. `@unchecked Sendable`: a metatype is immutable.
    struct Member: @unchecked Sendable {
        let key: String
        let type: Any.Type
    }

    /// The coding key of the property `keyPath` names in `type`, or `nil` when it cannot be told.
    static func key(of keyPath: AnyKeyPath, in type: any Decodable.Type) -> String? {
        let pair = Pair(type: ObjectIdentifier(type), keyPath: keyPath)
        if let known = found.withLock({ $0[pair] }) { return known }
        let key = probe(keyPath, in: type)
        found.withLock { $0[pair] = key }
        return key
    }

    private static func probe(_ keyPath: AnyKeyPath, in type: any Decodable.Type) -> String? {
        guard let (value, markers) = marked(type), let member = value[keyPath: keyPath] else { return nil }
        return markers.path(of: member)?.first
    }

    /// The coding key of the stored property with this name in `type`, and the property's
    /// type; for a key path known only by its printed form (a sort's `\Trip.location.name`).
    static func key(ofPropertyNamed name: String, in type: any Decodable.Type) -> Member? {
        let identity = ObjectIdentifier(type)
        if let members = named.withLock({ $0[identity] }) { return members[name] }
        var members: [String: Member] = [:]
        if let (value, markers) = marked(type) {
            for child in Mirror(reflecting: value).children {
                guard let label = child.label, let key = markers.path(of: child.value)?.first else { continue }
                members[label] = Member(key: key, type: Swift.type(of: child.value))
            }
        }
        named.withLock { $0[identity] = members }
        return members[name]
    }

    /// A value of the type whose every member holds a marker, with the markers handed out.
    private static func marked(_ type: any Decodable.Type) -> (Any, Markers)? {
        let markers = Markers()
        guard let value = try? type.init(from: MarkingDecoder(markers: markers, codingPath: [])) else { return nil }
        return (value, markers)
    }

    /// The markers handed out, each with the path of keys it was decoded under.
    final class Markers {
        private var next = 1_000_001
        private var paths: [String: [String]] = [:]

        func marker(for path: [any CodingKey]) -> Int {
            next += 1
            paths[String(next)] = path.map(\.stringValue)
            return next
        }

        /// The path of the first marker found in a value: itself, its first element, or its first member.
        func path(of value: Any) -> [String]? {
            if let optional = value as? any OptionalValue {
                guard !optional.isNone, let wrapped = Mirror(reflecting: value).children.first?.value else {
                    return nil
                }
                return path(of: wrapped)
            }
            switch value {
            case let text as String:
                return text.hasPrefix(Self.prefix) ? paths[String(text.dropFirst(Self.prefix.count))] : nil
            case let number as Int: return paths[String(number)]
            case let number as Double: return Int(exactly: number).flatMap { paths[String($0)] }
            case let date as Date: return paths[String(Int(date.timeIntervalSinceReferenceDate))]
            case let uuid as UUID: return paths[String(uuid.uuidString.suffix(12)).drop { $0 == "0" }.description]
            default: return Mirror(reflecting: value).children.lazy.compactMap { self.path(of: $0.value) }.first
            }
        }

        static let prefix = "\u{1}folio-probe-"
    }
}

/// A decoder that gives each member a marker (see `CodingKeyProbe`).
private struct MarkingDecoder: Decoder {
    let markers: CodingKeyProbe.Markers
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Keyed(markers: markers, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { Unkeyed(markers: markers, codingPath: codingPath) }
    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        Single(markers: markers, codingPath: codingPath)
    }

    /// How deep values nest before the probe stops: a type that contains itself (a tree's
    /// optional children) ends in absent members there instead of recursing for ever.
    static let maximumDepth = 8

    /// A marked value of a type, or a type's own decoding from a nested marking decoder.
    /// Every type whose decoding asks a single-value container for itself is answered here,
    /// or it would ask again for ever.
    static func value<T: Decodable>(_ type: T.Type, markers: CodingKeyProbe.Markers, path: [any CodingKey]) throws -> T
    {
        func marker() -> Int { markers.marker(for: path) }
        func integer<I: BinaryInteger>(_ type: I.Type) -> I { I(truncatingIfNeeded: marker()) }
        func floating<F: BinaryFloatingPoint>(_ type: F.Type) -> F { F(marker()) }
        func firstCase<C: CaseIterable>(_ type: C.Type) -> Any? { C.allCases.first }
        switch type {
        case is String.Type: return CodingKeyProbe.Markers.prefix + String(marker()) as! T
        case is Bool.Type: return false as! T
        case is Date.Type: return Date(timeIntervalSinceReferenceDate: Double(marker())) as! T
        case is UUID.Type:
            let digits = String(marker())
            return UUID(
                uuidString: "00000000-0000-0000-0000-" + String(repeating: "0", count: 12 - digits.count) + digits)!
                as! T
        case is URL.Type: return URL(string: "https://folio.invalid/\(marker())")! as! T
        default:
            if let integerType = type as? any BinaryInteger.Type { return integer(integerType) as! T }
            if let floatingType = type as? any BinaryFloatingPoint.Type { return floating(floatingType) as! T }
            if let cases = type as? any CaseIterable.Type, let first = firstCase(cases) as? T { return first }
            guard path.count <= maximumDepth else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(codingPath: path, debugDescription: "nested too deep to probe"))
            }
            return try T(from: MarkingDecoder(markers: markers, codingPath: path))
        }
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let markers: CodingKeyProbe.Markers
        let codingPath: [any CodingKey]
        var allKeys: [Key] { [] }

        func contains(_ key: Key) -> Bool { true }
        func decodeNil(forKey key: Key) throws -> Bool { codingPath.count >= MarkingDecoder.maximumDepth }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try MarkingDecoder.value(type, markers: markers, path: codingPath + [key])
        }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            KeyedDecodingContainer(Keyed<NestedKey>(markers: markers, codingPath: codingPath + [key]))
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            Unkeyed(markers: markers, codingPath: codingPath + [key])
        }
        func superDecoder() throws -> any Decoder { MarkingDecoder(markers: markers, codingPath: codingPath) }
        func superDecoder(forKey key: Key) throws -> any Decoder {
            MarkingDecoder(markers: markers, codingPath: codingPath + [key])
        }
    }

    /// One element, so that an array member carries its key's marker too.
    struct Unkeyed: UnkeyedDecodingContainer {
        let markers: CodingKeyProbe.Markers
        let codingPath: [any CodingKey]
        var count: Int? { 1 }
        var currentIndex = 0
        var isAtEnd: Bool { currentIndex >= 1 }

        init(markers: CodingKeyProbe.Markers, codingPath: [any CodingKey]) {
            self.markers = markers
            self.codingPath = codingPath
        }

        mutating func decodeNil() throws -> Bool { false }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            currentIndex += 1
            return try MarkingDecoder.value(type, markers: markers, path: codingPath)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            currentIndex += 1
            return KeyedDecodingContainer(Keyed<NestedKey>(markers: markers, codingPath: codingPath))
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            currentIndex += 1
            return Unkeyed(markers: markers, codingPath: codingPath)
        }
        mutating func superDecoder() throws -> any Decoder { MarkingDecoder(markers: markers, codingPath: codingPath) }
    }

    struct Single: SingleValueDecodingContainer {
        let markers: CodingKeyProbe.Markers
        let codingPath: [any CodingKey]

        func decodeNil() -> Bool { false }
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try MarkingDecoder.value(type, markers: markers, path: codingPath)
        }
    }
}
