/// The models a container stores, described as data: each entity with its attributes,
/// relationships, uniqueness constraints and indexes.
///
/// Built from the model types themselves (`Schema([Timer.self, TodoItem.self])`), whose
/// `@Model` macro read the declarations. The store keeps it in its manifest, so tools
/// that never see the Swift code still know the shape of the data.
public struct Schema: Sendable, Hashable {
    /// A schema's version, as `VersionedSchema.versionIdentifier` gives it.
    public struct Version: Sendable, Hashable, Comparable, CustomStringConvertible {
        /// The major version: the first number.
        public var major: Int
        /// The minor version: the second number.
        public var minor: Int
        /// The patch version: the third number.
        public var patch: Int

        /// The version `major.minor.patch`, as `Schema.Version(1, 2, 0)` is "1.2.0".
        public init(_ major: Int, _ minor: Int, _ patch: Int) {
            self.major = major
            self.minor = minor
            self.patch = patch
        }

        /// Whether `lhs` is an earlier version: by major, then minor, then patch number.
        public static func < (lhs: Version, rhs: Version) -> Bool {
            (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
        }

        /// The version as `folio.json`'s `"schemaVersion"` writes it: `major.minor.patch`.
        public var description: String { "\(major).\(minor).\(patch)" }
    }

    /// One model type: its name (the class's own name) and what it stores.
    public struct Entity: Sendable, Hashable {
        /// The model's class name, which names its documents' `"$entity"` and (unless it inherits from
        /// another model) its folder.
        public var name: String
        /// The stored properties in declaration order, which is their order in documents.
        public var properties: [Property]
        /// Each `#Unique` constraint (and `@Attribute(.unique)`): the properties whose values
        /// together identify a model.
        public var uniquenessConstraints: [[String]]
        /// Each `#Index` (and `@Attribute(.indexed)`): the properties indexed together.
        public var indices: [[String]]
        /// The entity this one's class inherits from (`@Model class BusinessTrip: Trip`), if any.
        public var superentityName: String?
        /// The entity whose folder holds this one's documents: the root of its class
        /// hierarchy, which is the entity itself for a class that inherits from no model.
        /// A relationship to a class can hold its subclasses' models, so they share one folder,
        /// as SwiftData keeps a hierarchy in one table.
        public var storageName: String
        /// The class, when the entity was read from one.
        var modelType: RuntimeOnly<(any PersistentModel.Type)?> = RuntimeOnly(nil)
        /// The superclass, when the entity was read from a class that inherits from a model.
        var superentityType: RuntimeOnly<(any PersistentModel.Type)?> = RuntimeOnly(nil)
        /// The entities of the schema whose classes inherit directly from this one's, as the
        /// schema that holds the entity found them (see `subentities`).
        var directSubentities: RuntimeOnly<[Entity]> = RuntimeOnly([])

        /// An entity described by hand or by the `@Model` macro; the `.unique` and `.indexed` attribute
        /// options, and unique to-one relationships, are added to the constraints and indexes given.
        public init(
            name: String, properties: [Property], uniquenessConstraints: [[String]] = [], indices: [[String]] = []
        ) {
            self.name = name
            storageName = name
            self.properties = properties
            self.uniquenessConstraints = []
            self.indices = []
            // A unique to-one is a constraint on the related model's identity, which its documents store.
            self.uniquenessConstraints =
                uniquenessConstraints + attributes.filter(\.isUnique).map { [$0.name] }
                + relationships.filter { $0.isUnique && !$0.isToMany }.map { [$0.name] }
            self.indices = indices + attributes.filter(\.isIndexed).map { [$0.name] }
        }

        /// The entity of a class that inherits from another model: the superclass's
        /// properties, constraints and indexes, then its own. `keyPaths` reads every
        /// property from this class (`\BusinessTrip.name`), as its predicates name them.
        public init(
            name: String, inheritingFrom superclass: any PersistentModel.Type, keyPaths: [String: AnyKeyPath],
            properties: [Property],
            uniquenessConstraints: [[String]] = [], indices: [[String]] = []
        ) {
            let base = superclass.schemaEntity
            let inherited = base.properties.map { property in keyPaths[property.name].map(property.reading) ?? property
            }
            self.init(name: name, properties: inherited + properties, indices: indices)
            // The superclass's lists already hold what its own attribute options add.
            func merged(_ lists: [[String]]...) -> [[String]] {
                var seen = Set<[String]>()
                return lists.joined().filter { seen.insert($0).inserted }
            }
            self.uniquenessConstraints = merged(
                base.uniquenessConstraints, uniquenessConstraints, self.uniquenessConstraints)
            self.indices = merged(base.indices, self.indices)
            superentityName = base.name
            storageName = base.storageName
            superentityType = RuntimeOnly(superclass)
        }

        /// The properties that hold values, in declaration order.
        public var attributes: [Attribute] {
            properties.compactMap { if case .attribute(let attribute) = $0 { attribute } else { nil } }
        }

        /// The properties that refer to other models, in declaration order.
        public var relationships: [Relationship] {
            properties.compactMap { if case .relationship(let relationship) = $0 { relationship } else { nil } }
        }

        /// The stored property a key path from the model's class reads.
        func property(readBy keyPath: AnyKeyPath) -> Property? { properties.first { $0.keyPath == keyPath } }

        /// The attribute with this Swift name, or `nil` when the entity has none.
        public func attribute(named name: String) -> Attribute? { attributes.first { $0.name == name } }
        /// The relationship with this Swift name, or `nil` when the entity has none.
        public func relationship(named name: String) -> Relationship? { relationships.first { $0.name == name } }
    }

    /// A stored property as the `@Model` macro describes it.
    public enum Property: Sendable, Hashable {
        /// A property that holds a value.
        case attribute(Attribute)
        /// A property that refers to other models.
        case relationship(Relationship)

        /// The property's name in Swift, which is also its key in the document.
        public var name: String {
            switch self {
            case .attribute(let attribute): attribute.name
            case .relationship(let relationship): relationship.name
            }
        }

        /// The property read with another key path: an inherited one, from the subclass.
        func reading(_ keyPath: AnyKeyPath) -> Property {
            switch self {
            case .attribute(var attribute):
                attribute.keyPath = RuntimeOnly(keyPath)
                return .attribute(attribute)
            case .relationship(var relationship):
                relationship.keyPath = RuntimeOnly(keyPath)
                return .relationship(relationship)
            }
        }

        /// The key path the declaration reads the property with, when it was read from a class.
        var keyPath: AnyKeyPath? {
            switch self {
            case .attribute(let attribute): attribute.keyPath.value
            case .relationship(let relationship): relationship.keyPath.value
            }
        }
    }

    /// The schema's version (1.0.0 unless given): recorded in `folio.json` and in each document a
    /// save writes; a container refuses a store recorded at a newer version.
    public var version: Version
    /// One entity per model type: the types given, in order, then those their relationships and
    /// superclasses reach.
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
            if let superclass = entity.superentityType.value { pending.append(superclass) }
        }
        self.entities = Self.linkingSubentities(Self.linkingInverses(entities))
    }

    /// The schema of these model types.
    public init(_ types: any PersistentModel.Type..., version: Version = Version(1, 0, 0)) {
        self.init(types, version: version)
    }

    /// The entity with this name.
    public func entity(named name: String) -> Entity? { entities.first { $0.name == name } }

    /// The entity of a model class, if the schema holds it, as SwiftData's `entity(for:)`.
    public func entity<T: PersistentModel>(for type: T.Type) -> Entity? { entity(named: Self.entityName(for: type)) }

    /// The name of a model class's entity, as SwiftData's `entityName(for:)`: the class's name.
    public static func entityName<T: PersistentModel>(for type: T.Type) -> String {
        ModelEntities.entity(of: type).name
    }

    /// The entity and every entity of this schema whose class inherits from its class,
    /// directly or not: the models a fetch of the entity returns.
    public func entityNames(inheritingFrom name: String) -> [String] {
        EntityHierarchy.names(from: name, among: entities.map(\.name)) { entity(named: $0)?.superentityName }
    }

    /// The entity whose folder holds an entity's documents (see `Entity.storageName`).
    func storageName(of name: String) -> String { entity(named: name)?.storageName ?? name }

    /// The entities by name, as SwiftData's `entitiesByName`.
    public var entitiesByName: [String: Entity] {
        Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

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
