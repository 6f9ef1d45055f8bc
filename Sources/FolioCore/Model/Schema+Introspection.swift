// Schema: what SwiftData's schema answers about itself, for code that reads a schema.

extension Schema {
    /// Gives each entity the entities whose classes inherit from its class, deepest first so
    /// that each subentity handed out has its own.
    static func linkingSubentities(_ entities: [Entity]) -> [Entity] {
        var linked = entities
        let byName = Dictionary(
            entities.indices.map { (entities[$0].name, $0) }, uniquingKeysWith: { first, _ in first })
        func depth(_ entity: Entity) -> Int {
            var depth = 0
            var name = entity.superentityName
            while let current = name, let index = byName[current], depth < entities.count {
                depth += 1
                name = entities[index].superentityName
            }
            return depth
        }
        for index in linked.indices.sorted(by: { depth(linked[$0]) > depth(linked[$1]) }) {
            let name = linked[index].name
            linked[index].directSubentities = RuntimeOnly(linked.filter { $0.superentityName == name })
        }
        return linked
    }
}

extension Schema.Entity {
    /// The entity of the class this entity's class inherits from, or `nil` for a class that
    /// inherits from no model (or an entity described by hand, which has no class).
    public var superentity: Schema.Entity? { superentityType.value?.schemaEntity }

    /// The entities of the schema whose classes inherit directly from this entity's class,
    /// as the `Schema` that holds the entity found them; empty for an entity made alone.
    public var subentities: Set<Schema.Entity> { Set(directSubentities.value) }

    /// The attributes by name.
    public var attributesByName: [String: Schema.Attribute] {
        Dictionary(attributes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The relationships by name.
    public var relationshipsByName: [String: Schema.Relationship] {
        Dictionary(relationships.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

extension Schema.Attribute {
    /// The declaration's initial value (`var priority = 3` gives 3), made anew for each
    /// read; `nil` when the declaration has none or the attribute was described by hand.
    public var defaultValue: Any? { makeDefaultValue.value?() }

    /// Whether the attribute's value goes through a `ValueTransformer`
    /// (`@Attribute(.transformable(by:))`).
    public var isTransformable: Bool { transformer != nil }
}

extension Schema.Relationship {
    /// The model's key path to the relationship, or `nil` for one described by hand.
    public var keypath: AnyKeyPath? { keyPath.value }

    /// Whether the relationship holds at most one model.
    public var isToOneRelationship: Bool { !isToMany }
}
