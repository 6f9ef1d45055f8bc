import FolioJSON

extension StoredSchema {
    /// One property as the manifest's schema records it: an attribute has a `typeName`, a
    /// relationship a `destination`.
    ///
    /// One flat record of every key the format has, not an enum of the two kinds: readers
    /// have always read each key on its own (a `"toMany": true` keeps a property out of a
    /// table's default columns, whatever else it holds), and a hand-edited property may
    /// hold keys of both kinds, which `check` reports.
    package struct Property: Sendable, Equatable {
        /// The property's name, its document key; `nil` when missing or not text.
        package let name: String?
        /// The attribute's Swift type without `Optional`, as written (`"Date"`, `"Array<String>"`).
        package let typeName: String?
        /// Whether the attribute is optional (`"optional": true`).
        package let isOptional: Bool
        /// The declared options as written, in order; `check` reports any that is not an `Option`.
        package let options: [String]
        /// The property's name in the previous schema version.
        package let originalName: String?
        /// The stored forms of a `CaseIterable` raw-value enum's cases.
        package let cases: [JSONValue]?
        /// The class or registered name of `.transformable(by:)`.
        package let transformer: String?
        /// The declaration's constant initial value in its stored form (`"default"`: any JSON, `null` too).
        package let defaultValue: JSONValue?
        /// The initial value Folio makes when it is needed (`"generated"`).
        package let generated: Generated?
        /// The related entity (`"destination"`), which makes the property a relationship.
        package let destination: String?
        /// Whether the relationship holds many models (`"toMany": true`).
        package let isToMany: Bool
        /// What deleting the model does to the related ones, as written: `"nullify"`,
        /// `"cascade"`, `"deny"` or `"noAction"` (`check` reports any other).
        package let deleteRule: String?
        /// The destination's relationship that points back (`"inverse"`).
        package let inverse: String?
        /// The fewest related models (`"minimumModelCount"`), when a whole number of at least 0.
        package let minimumModelCount: Int?
        /// The most related models (`"maximumModelCount"`), when a whole number of at least 0.
        package let maximumModelCount: Int?

        /// An attribute option the manifest records.
        package enum Option: String, CaseIterable, Sendable {
            /// `.unique`, `.externalStorage`, `.ephemeral`, `.preserveValueOnDeletion`, `.indexed`.
            case unique, externalStorage, ephemeral, preserveValueOnDeletion, indexed
        }

        /// An initial value made when a document needs it.
        package enum Generated: String, Sendable {
            /// The moment (`Date()`, `Date.now`); a new `UUID()`.
            case now, uuid
        }

        /// The property one element of an entity's `"properties"` describes.
        init(_ json: JSONValue) {
            /// A count of models, when the key holds one.
            func count(_ key: String) -> Int? {
                if case .integer(let count)? = json[key], count >= 0 { Int(clamping: count) } else { nil }
            }
            name = json["name"]?.stringValue
            typeName = json["type"]?.stringValue
            isOptional = json["optional"] == .bool(true)
            options = (json["options"]?.arrayValue ?? []).compactMap(\.stringValue)
            originalName = json["originalName"]?.stringValue
            cases = json["cases"]?.arrayValue
            transformer = json["transformer"]?.stringValue
            defaultValue = json["default"]
            generated = json["generated"]?.stringValue.flatMap(Generated.init)
            destination = json["destination"]?.stringValue
            isToMany = json["toMany"] == .bool(true)
            deleteRule = json["deleteRule"]?.stringValue
            inverse = json["inverse"]?.stringValue
            minimumModelCount = count("minimumModelCount")
            maximumModelCount = count("maximumModelCount")
        }

        /// Whether the property is a relationship: it names a destination.
        package var isRelationship: Bool { destination != nil }

        /// Whether the attribute declares this option.
        package func has(_ option: Option) -> Bool { options.contains(option.rawValue) }
    }
}
