import FolioJSON
import Foundation

/// A stored attribute's type as the manifest names it (`"Int"`, `"Array<Date>"`), checked
/// against a document's value without the Swift model at hand.
///
/// A model's own enums are checked against the cases the manifest records for them; types
/// it cannot describe further (other enums, `Codable` values) accept any value: only the
/// app knows their shape.
indirect enum StoredType: Sendable {
    /// One of the value types Folio stores natively.
    case scalar(ScalarType)
    case array(StoredType)
    case dictionary(StoredType)
    case optional(StoredType)
    /// An enum's stored cases, as `folio.json` lists them.
    case enumeration([JSONValue])
    case opaque

    /// The most collections a stored type nests: a type name deeper than that (a hand-made
    /// or hostile manifest's) is one Folio does not store, rather than a recursion that
    /// exhausts the stack (20,000 levels crashed every `check`).
    static let deepestNesting = 32

    /// The type a manifest names; `cases` are those it records for the enum inside it.
    /// Nested past `deepestNesting`, it is `.opaque`.
    init(_ name: String, cases: [JSONValue]? = nil) {
        self.init(name, cases: cases, depth: 0)
    }

    private init(_ name: String, cases: [JSONValue]?, depth: Int) {
        func inner(_ prefix: String) -> String? {
            guard depth < Self.deepestNesting, name.hasPrefix(prefix + "<"), name.hasSuffix(">") else { return nil }
            return String(name.dropFirst(prefix.count + 1).dropLast())
        }
        if let element = inner("Array") {
            self = .array(StoredType(element, cases: cases, depth: depth + 1))
        } else if let wrapped = inner("Optional") {
            self = .optional(StoredType(wrapped, cases: cases, depth: depth + 1))
        } else if let pair = inner("Dictionary"), pair.hasPrefix("String, ") {
            self = .dictionary(StoredType(String(pair.dropFirst("String, ".count)), cases: cases, depth: depth + 1))
        } else if let scalar = ScalarType(rawValue: name) {
            self = .scalar(scalar)
        } else if let cases {
            self = .enumeration(cases)
        } else {
            self = .opaque
        }
    }

    /// The names inside a manifest's type name that are not Folio's own value types or
    /// collections of them (`"Array<Stroke>"` holds `Stroke`): a Swift app's enums and
    /// `Codable` types, or typos.
    /// Whether a type name nests more collections than `deepestNesting` (counted by their `<`).
    static func nestsTooDeep(_ name: String) -> Bool {
        name.utf8.count(where: { $0 == UInt8(ascii: "<") }) > deepestNesting
    }

    /// A type name as a message shows it: cut after 80 characters (a hostile one is 40 KB).
    static func shortName(_ name: String) -> String {
        name.count > 80 ? String(name.prefix(80)) + "…" : name
    }

    /// A name nested past `deepestNesting` is returned whole, as one Folio does not store.
    static func otherTypeNames(in name: String) -> [String] {
        var inner = Substring(name)
        for _ in 0...deepestNesting {
            if let prefix = ["Array<", "Optional<", "Set<", "Dictionary<String, "].first(where: inner.hasPrefix),
                inner.hasSuffix(">")
            {
                inner = inner.dropFirst(prefix.count).dropLast()
                continue
            }
            return ScalarType(rawValue: String(inner)) == nil ? [String(inner)] : []
        }
        return [shortName(name)]
    }

    /// Why a value is not of this type, or `nil` when it is.
    func problem(with value: JSONValue) -> String? {
        switch self {
        case .opaque:
            return nil
        case .enumeration(let cases):
            guard !cases.contains(value) else { return nil }
            let listed = cases.map(\.description).joined(separator: ", ")
            return cases.isEmpty ? "the enum has no cases" : "\(value) is not one of its cases: \(listed)"
        case .optional(let wrapped):
            return value == .null ? nil : wrapped.problem(with: value)
        case .scalar(let type):
            do {
                _ = try type.valueType.init(json: value)
                return nil
            } catch {
                return error.message
            }
        case .array(let element):
            guard let elements = value.arrayValue else { return "expected an array, found \(value.typeName)" }
            for (index, element) in zip(elements.indices, elements.lazy.map(element.problem)) {
                if let element { return "element \(index): \(element)" }
            }
            return nil
        case .dictionary(let element):
            guard let members = value.objectValue else { return "expected an object, found \(value.typeName)" }
            for member in members {
                if let problem = element.problem(with: member.value) { return "\"\(member.key)\": \(problem)" }
            }
            return nil
        }
    }
}

extension StoredType {
    /// What a query may compare a value of a type with: the kinds of constant it can equal
    /// or be ordered against.
    enum ComparableKind: Equatable, CustomStringConvertible {
        case text, number, bool, date, uuid

        var description: String {
            switch self {
            case .text: "text"
            case .number: "a number"
            case .bool: "true or false"
            case .date: "a date"
            case .uuid: "a UUID"
            }
        }
    }

    /// The kind of a scalar type whose stored form the query language knows; `nil` for the
    /// rest (arrays, the app's enums and `Codable` values, `Data`, `URL`, `Decimal`), which
    /// any constant may be compared with.
    var comparableKind: ComparableKind? {
        guard case .scalar(let type) = self else { return nil }
        switch type.kind {
        case .text: return .text
        case .bool: return .bool
        case .date: return .date
        case .uuid: return .uuid
        case .decimal, .url, .data: return nil
        case .integer, .floatingPoint: return .number
        }
    }
}
