/// The models a container stores, described as data: each entity with its attributes,
/// relationships, uniqueness constraints and indexes.
///
/// Built from the model types themselves (`Schema([Timer.self, TodoItem.self])`), whose
/// `@Model` macro read the declarations. The store keeps it in its manifest, so tools
/// that never see the Swift code still know the shape of the data.
public struct Schema: Sendable, Hashable {
    /// A schema's version, as `VersionedSchema.versionIdentifier` gives it.
    public struct Version: Sendable, Hashable, Comparable, CustomStringConvertible {
        public var major: Int
        public var minor: Int
        public var patch: Int

        public init(_ major: Int, _ minor: Int, _ patch: Int) {
            self.major = major
            self.minor = minor
            self.patch = patch
        }

        public static func < (lhs: Version, rhs: Version) -> Bool {
            (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
        }

        public var description: String { "\(major).\(minor).\(patch)" }
    }

    /// One model type: its name (the class's own name) and what it stores.
    public struct Entity: Sendable, Hashable {
        public var name: String
        public var attributes: [Attribute]
        public var relationships: [Relationship]
        /// Each `#Unique` constraint (and `@Attribute(.unique)`): the properties whose values
        /// together identify a model.
        public var uniquenessConstraints: [[String]]
        /// Each `#Index` (and `@Attribute(.indexed)`): the properties indexed together.
        public var indices: [[String]]

        public init(name: String, properties: [Property], uniquenessConstraints: [[String]] = [], indices: [[String]] = []) {
            self.name = name
            attributes = properties.compactMap { if case .attribute(let attribute) = $0 { attribute } else { nil } }
            relationships = properties.compactMap { if case .relationship(let relationship) = $0 { relationship } else { nil } }
            self.uniquenessConstraints = uniquenessConstraints + attributes.filter(\.isUnique).map { [$0.name] }
            self.indices = indices + attributes.filter(\.isIndexed).map { [$0.name] }
        }
    }

    /// A stored property as the `@Model` macro describes it.
    public enum Property: Sendable, Hashable {
        case attribute(Attribute)
        case relationship(Relationship)

        public var name: String {
            switch self {
            case .attribute(let attribute): attribute.name
            case .relationship(let relationship): relationship.name
            }
        }
    }

    public var version: Version
    public var entities: [Entity]

    /// The schema of these model types.
    public init(_ types: [any PersistentModel.Type], version: Version = Version(1, 0, 0)) {
        self.version = version
        entities = types.map { $0.schemaEntity }
    }

    /// The entity with this name.
    public func entity(named name: String) -> Entity? { entities.first { $0.name == name } }
}
