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
        /// The stored properties in declaration order, which is their order in documents.
        public var properties: [Property]
        /// Each `#Unique` constraint (and `@Attribute(.unique)`): the properties whose values
        /// together identify a model.
        public var uniquenessConstraints: [[String]]
        /// Each `#Index` (and `@Attribute(.indexed)`): the properties indexed together.
        public var indices: [[String]]
        /// The class, when the entity was read from one.
        var modelType: RuntimeOnly<(any PersistentModel.Type)?> = RuntimeOnly(nil)

        public init(name: String, properties: [Property], uniquenessConstraints: [[String]] = [], indices: [[String]] = []) {
            self.name = name
            self.properties = properties
            self.uniquenessConstraints = []
            self.indices = []
            // A unique to-one is a constraint on the related model's identity, which its documents store.
            self.uniquenessConstraints = uniquenessConstraints + attributes.filter(\.isUnique).map { [$0.name] }
                + relationships.filter { $0.isUnique && !$0.isToMany }.map { [$0.name] }
            self.indices = indices + attributes.filter(\.isIndexed).map { [$0.name] }
        }

        public var attributes: [Attribute] {
            properties.compactMap { if case .attribute(let attribute) = $0 { attribute } else { nil } }
        }

        public var relationships: [Relationship] {
            properties.compactMap { if case .relationship(let relationship) = $0 { relationship } else { nil } }
        }

        public func attribute(named name: String) -> Attribute? { attributes.first { $0.name == name } }
        public func relationship(named name: String) -> Relationship? { relationships.first { $0.name == name } }
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

    /// The schema of these model types and of every model type their relationships reach,
    /// with each relationship's inverse found as SwiftData finds it: named by `inverse:` on
    /// either side, else the only relationship pointing back.
    public init(_ types: [any PersistentModel.Type], version: Version = Version(1, 0, 0)) {
        self.version = version
        var entities: [Entity] = []
        var pending = types[...]
        while let type = pending.popFirst() {
            var entity = type.schemaEntity
            guard !entities.contains(where: { $0.name == entity.name }) else { continue }
            entity.modelType = RuntimeOnly(type)
            entities.append(entity)
            pending.append(contentsOf: entity.relationships.compactMap { $0.access.value?.destination })
        }
        self.entities = Self.linkingInverses(entities)
    }

    /// The schema of these model types.
    public init(_ types: any PersistentModel.Type..., version: Version = Version(1, 0, 0)) {
        self.init(types, version: version)
    }

    /// The entity with this name.
    public func entity(named name: String) -> Entity? { entities.first { $0.name == name } }

    /// The entities by name, as SwiftData's `entitiesByName`.
    public var entitiesByName: [String: Entity] { Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }) }

    private static func linkingInverses(_ entities: [Entity]) -> [Entity] {
        func pointing(from entity: String, to destination: String) -> [Relationship] {
            entities.first { $0.name == entity }?.relationships.filter { $0.destination == destination } ?? []
        }
        var linked = entities
        for entityIndex in linked.indices {
            for (propertyIndex, property) in linked[entityIndex].properties.enumerated() {
                guard case .relationship(var relationship) = property, relationship.inverseName == nil else { continue }
                let back = pointing(from: relationship.destination, to: linked[entityIndex].name)
                if let named = back.first(where: { $0.inverseName == relationship.name }) {
                    relationship.inverseName = named.name
                } else if back.count == 1, back[0].inverseName == nil,
                    pointing(from: linked[entityIndex].name, to: relationship.destination).count == 1,
                    back[0].name != relationship.name || relationship.destination != linked[entityIndex].name
                {
                    relationship.inverseName = back[0].name
                }
                linked[entityIndex].properties[propertyIndex] = .relationship(relationship)
            }
        }
        return linked
    }
}
