import FolioJSON

extension Schema {
    /// A stored value property of a model: its name, type, optionality and options.
    public struct Attribute: Sendable, Hashable {
        /// How Folio treats an attribute, as written in `@Attribute(...)`.
        public struct Option: Sendable, Hashable {
            enum Kind: Hashable {
                case unique, externalStorage, ephemeral, preserveValueOnDeletion, spotlight, allowsCloudEncryption,
                    indexed, codable
                case originalName(String)
                case transformable(Transformer)
            }

            /// The transformer `.transformable(by:)` names: its class, or the name it is registered under.
            struct Transformer: Hashable {
                let name: String
                let type: RuntimeOnly<ValueTransformer.Type?>

                /// The transformer to use now: a new instance of the class, or the one registered
                /// under the name (looked up on use, as apps register transformers at launch).
                func make() -> ValueTransformer? {
                    if let type = type.value { return type.init() }
                    return ValueTransformer.valueTransformer(forName: NSValueTransformerName(name))
                }
            }

            let kind: Kind

            /// Only one model may have a given value; inserting another upserts, as SwiftData does.
            public static let unique = Option(kind: .unique)
            /// Stored beside the document as `<UUID>.<property>.bin` instead of inside it.
            public static let externalStorage = Option(kind: .externalStorage)
            /// Tracked for changes but never written to the document.
            public static let ephemeral = Option(kind: .ephemeral)
            /// Kept in the deleted document's tombstone (soft deletes keep every value anyway).
            public static let preserveValueOnDeletion = Option(kind: .preserveValueOnDeletion)
            /// Accepted for SwiftData compatibility; Folio has no Spotlight index, so it does nothing.
            public static let spotlight = Option(kind: .spotlight)
            /// Accepted for SwiftData compatibility; Folio has no cloud store, so it does nothing.
            public static let allowsCloudEncryption = Option(kind: .allowsCloudEncryption)
            /// Folio's own: indexed for queries, the same as naming the property in `#Index`.
            public static let indexed = Option(kind: .indexed)
            /// Stored through the type's `Codable` conformance, as SwiftData does since iOS 27 for
            /// types an app does not control. Folio stores every `Codable` value so already (a
            /// nested JSON value in the document), so the option changes nothing on disk; Apple
            /// says such a property cannot be used in a predicate or a sort.
            public static let codable = Option(kind: .codable)

            /// The name this property had in an earlier version of the schema, for migrations.
            public static func originalName(_ name: String) -> Option { Option(kind: .originalName(name)) }

            /// Stored as the `Data` this transformer makes of the value (base64 in the
            /// document), and read back through its reverse transformation: for a type that
            /// is not `Codable`.
            public static func transformable(by transformerType: ValueTransformer.Type) -> Option {
                Option(
                    kind: .transformable(
                        Transformer(name: String(describing: transformerType), type: RuntimeOnly(transformerType))))
            }

            /// As `transformable(by:)`, with the transformer registered under this name
            /// (`ValueTransformer.setValueTransformer(_:forName:)`).
            public static func transformable(by transformerName: String) -> Option {
                Option(kind: .transformable(Transformer(name: transformerName, type: RuntimeOnly(nil))))
            }
        }

        /// The property's name in Swift, which is also its key in the document.
        public var name: String
        /// The type without optionality, as Swift names it (`"Date"`, `"Array<String>"`).
        public var valueType: String
        /// Whether the property's type is optional: a missing value is `null` rather than an error.
        public var isOptional: Bool
        /// Whether the declaration gives an initial value.
        public var hasDefaultValue: Bool
        /// The options of `@Attribute(...)`, in the order written.
        public var options: [Option]
        /// How the value becomes JSON; `nil` for a type Folio cannot store, which the
        /// container reports when it opens.
        var coding: RuntimeOnly<ValueCoding?>
        /// The model's key path to the property, which queries and sorts name it by.
        var keyPath: RuntimeOnly<AnyKeyPath?>
        /// Makes the declaration's initial value, for a document written before the property existed.
        var makeDefaultValue: RuntimeOnly<(() -> Any)?> = RuntimeOnly(nil)
        /// The stored forms of the cases the value (or each element of it) may take, for a
        /// `CaseIterable` enum; `nil` when any value of the type is allowed.
        var cases: [JSONValue]?
        /// What the declaration's initial value is, as the `@Model` macro reads it.
        public enum InitialValue: Sendable, Hashable {
            /// No initial value, or one the macro cannot classify.
            case none
            /// A literal or an enum case: the same every time, recorded in `folio.json` as `"default"`.
            case constant
            /// `Date()` or `Date.now`: the moment the model is made, recorded as `"generated": "now"`.
            case now
            /// `UUID()`: a new identity, recorded as `"generated": "uuid"`.
            case newUUID
        }

        /// The declaration's initial value, as `folio.json` records it for tools that add documents.
        var initialValue = InitialValue.none
        /// Whether the property is a `let`: its value is copied into the backing data when the
        /// model gets its identity or is inserted, and set by `init(backingData:)` on a fetch.
        var isConstant = false

        /// An attribute described by hand: no coding or key path, so a container cannot store it for a model.
        public init(name: String, valueType: String, isOptional: Bool, hasDefaultValue: Bool, options: [Option]) {
            self.init(
                name: name, valueType: valueType, isOptional: isOptional, hasDefaultValue: hasDefaultValue,
                options: options, coding: nil, keyPath: nil)
        }

        init(
            name: String, valueType: String, isOptional: Bool, hasDefaultValue: Bool, options: [Option],
            coding: ValueCoding?,
            keyPath: AnyKeyPath?
        ) {
            self.name = name
            self.valueType = valueType
            self.isOptional = isOptional
            self.hasDefaultValue = hasDefaultValue
            self.options = options
            self.coding = RuntimeOnly(coding)
            self.keyPath = RuntimeOnly(keyPath)
        }

        /// Whether the attribute has `.unique`: only one model may have a given value.
        public var isUnique: Bool { options.contains(.unique) }
        /// Whether the attribute has `.indexed`: queries on it use a sorted index.
        public var isIndexed: Bool { options.contains(.indexed) }
        /// Whether the attribute is declared `.codable`.
        public var isCodable: Bool { options.contains(.codable) }
        /// Whether the value is written to the document at all.
        public var isStored: Bool { !options.contains(.ephemeral) }
        /// Whether the attribute has `.externalStorage`: its value is a `.bin` file beside the document.
        public var isExternalStorage: Bool { options.contains(.externalStorage) }

        /// The transformer `.transformable(by:)` gave, if any.
        var transformer: Option.Transformer? {
            for option in options { if case .transformable(let transformer) = option.kind { return transformer } }
            return nil
        }

        /// The name in the previous schema version, when `.originalName` gave one.
        public var originalName: String? {
            for option in options { if case .originalName(let name) = option.kind { return name } }
            return nil
        }
    }
}
