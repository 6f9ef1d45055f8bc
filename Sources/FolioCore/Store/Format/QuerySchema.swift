import FolioJSON
import Foundation

/// The shape of a store's documents as queries need it, read from the schema as data
/// (the manifest's `"schema"`, as `StoredSchema` reads it), so the command line, which
/// never sees the Swift models, plans and evaluates queries exactly as the library does.
struct QuerySchema: Sendable {
    /// One stored property as a query reads it.
    enum Property: Sendable, Hashable {
        case attribute(QueryValue.ValueKind, typeName: String, isOptional: Bool)
        /// A relationship; `storedInverse` names the to-one property on the destination
        /// that holds this one's documents, for a to-many the documents do not keep.
        case relationship(destination: String, isToMany: Bool, storedInverse: String?)
    }

    struct Entity: Sendable {
        var name: String
        /// Properties in declaration order.
        var properties: [(name: String, property: Property)]
        /// The entity this one's class inherits from, as `folio.json`'s `"superentity"` says.
        var superentity: String? = nil
        /// The entity whose folder holds this one's documents: the root of its hierarchy.
        var storageName: String
        /// The properties only entities inheriting from this one declare, first declaration
        /// first: its folder's documents may hold them, so queries may ask for them.
        var subentityProperties: [(name: String, property: Property)] = []
        var uniquenessConstraints: [[String]]
        var indices: [[String]]
        /// The stored forms of the cases an enum attribute may hold, by property name, as
        /// `folio.json` records them for `CaseIterable` enums.
        var cases: [String: [JSONValue]] = [:]
        /// How many models a to-many relationship may hold, by name, as
        /// `@Relationship(minimumModelCount:maximumModelCount:)` declares it; 0 is no limit.
        var modelCounts: [String: (minimum: Int, maximum: Int)] = [:]
        /// The attributes documents do not hold (`.ephemeral`, `.externalStorage`).
        var unstored: Set<String> = []
        /// The attributes whose values a delete's history record keeps (`.preserveValueOnDeletion`).
        var preservedOnDeletion: Set<String> = []
        /// What a new document gets for an attribute left out, as `folio.json` records the
        /// declarations' initial values: a constant's JSON, or one made when it is needed
        /// (`"now"`, a new `"uuid"`).
        var initialValues: [String: InitialValue] = [:]
        /// The properties' names, and each attribute's stored type: made once, when the
        /// schema is built, for the checks every document's write runs.
        var propertyNames: Set<String> = []
        var storedTypes: [String: StoredType] = [:]

        enum InitialValue: Sendable {
            case constant(JSONValue)
            case now
            case newUUID

            /// The value for a document made now.
            var json: JSONValue {
                switch self {
                case .constant(let value): value
                case .now: Date().json
                case .newUUID: .string(UUID().uuidString)
                }
            }
        }

        /// A property of the entity, or of an entity inheriting from it.
        func property(named name: String) -> Property? {
            properties.first { $0.name == name }?.property ?? subentityProperties.first { $0.name == name }?.property
        }

        /// The first required `Date` attribute the documents hold: the one whose day names a
        /// document's folder, as the model layer picks it.
        var partitionProperty: String? {
            properties.first {
                guard !unstored.contains($0.name), case .attribute(.date, let typeName, false) = $0.property else {
                    return false
                }
                return typeName == "Date"
            }?.name
        }

        /// Whether the documents are named by the model's own `id: UUID`.
        var hasOwnIdentity: Bool {
            if case .attribute(_, "UUID", false) = property(named: "id") { true } else { false }
        }

        /// The to-one relationships, whose UUIDs an index keeps so "the children of X" is a lookup.
        var toOneRelationships: [String] {
            properties.compactMap {
                if case .relationship(_, false, _) = $0.property { $0.name } else { nil }
            }
        }
    }

    var entities: [String: Entity]

    /// The schema the manifest keeps.
    init(_ schema: StoredSchema) {
        var entities: [String: Entity] = [:]
        for described in schema.entities {
            let properties = described.properties.compactMap { property -> (String, Property)? in
                guard let name = property.name else { return nil }
                if let destination = property.destination {
                    return (
                        name, .relationship(destination: destination, isToMany: property.isToMany, storedInverse: nil)
                    )
                }
                let typeName = property.typeName ?? ""
                return (
                    name,
                    .attribute(
                        QueryValue.ValueKind(typeName: typeName), typeName: typeName, isOptional: property.isOptional)
                )
            }
            // A list naming no property constrains and indexes nothing (and `check` reports a
            // duplicate by the first property of its constraint), so it is left out.
            func lists(_ lists: [[String]]) -> [[String]] { lists.filter { !$0.isEmpty } }
            var cases: [String: [JSONValue]] = [:]
            var modelCounts: [String: (minimum: Int, maximum: Int)] = [:]
            var unstored: Set<String> = []
            var preservedOnDeletion: Set<String> = []
            var initialValues: [String: Entity.InitialValue] = [:]
            for property in described.properties {
                guard let name = property.name else { continue }
                if property.has(.ephemeral) || property.has(.externalStorage) { unstored.insert(name) }
                if property.has(.preserveValueOnDeletion) { preservedOnDeletion.insert(name) }
                switch (property.defaultValue, property.generated) {
                case (let value?, _): initialValues[name] = .constant(value)
                case (nil, .now): initialValues[name] = .now
                case (nil, .uuid): initialValues[name] = .newUUID
                case (nil, nil): break
                }
                if let listed = property.cases { cases[name] = listed }
                // A count the manifest leaves out is 0: no limit.
                let (minimum, maximum) = (property.minimumModelCount ?? 0, property.maximumModelCount ?? 0)
                if property.isToMany, minimum > 0 || maximum > 0 { modelCounts[name] = (minimum, maximum) }
            }
            entities[described.name] = Entity(
                name: described.name, properties: properties, superentity: described.superentity,
                storageName: described.name,
                uniquenessConstraints: lists(described.uniquenessConstraints), indices: lists(described.indices),
                cases: cases, modelCounts: modelCounts, unstored: unstored, preservedOnDeletion: preservedOnDeletion,
                initialValues: initialValues)
        }
        Self.linkHierarchies(&entities)
        // A to-many is kept by its documents unless its inverse is a to-one.
        for (name, entity) in entities {
            for (index, named) in entity.properties.enumerated() {
                guard case .relationship(let destination, true, _) = named.property,
                    let inverse = schema.entity(named: name)?.property(named: named.name)?.inverse,
                    case .relationship(_, false, _) = entities[destination]?.property(named: inverse)
                else { continue }
                entities[name]?.properties[index].property = .relationship(
                    destination: destination, isToMany: true, storedInverse: inverse)
            }
        }
        for (name, entity) in entities {
            entities[name]?.propertyNames = Set(entity.properties.map(\.name))
            for case (let property, .attribute(_, let typeName, _)) in entity.properties {
                entities[name]?.storedTypes[property] = StoredType(typeName, cases: entity.cases[property])
            }
        }
        self.entities = entities
    }

    /// Gives each entity its hierarchy's root as `storageName`, its root the properties its
    /// subentities add, and each relationship the folder of its destination. A superentity
    /// the schema lacks, or a loop of them, leaves the entity its own root (`check` says so).
    private static func linkHierarchies(_ entities: inout [String: Entity]) {
        func root(of name: String) -> String {
            var seen: Set<String> = [name]
            var current = name
            while let parent = entities[current]?.superentity, entities[parent] != nil, seen.insert(parent).inserted {
                current = parent
            }
            return entities[current]?.superentity.map { seen.contains($0) } == true ? name : current
        }
        let roots = entities.keys.map { ($0, root(of: $0)) }
        for (name, root) in roots { entities[name]?.storageName = root }
        for name in entities.keys.sorted() {
            guard let entity = entities[name], entity.storageName != name else { continue }
            var ancestor = entity.superentity
            while let current = ancestor, current != name, var above = entities[current] {
                for named in entity.properties
                where above.properties.allSatisfy({ $0.name != named.name })
                    && above.subentityProperties.allSatisfy({ $0.name != named.name })
                {
                    above.subentityProperties.append(named)
                }
                entities[current] = above
                ancestor = above.superentity
            }
        }
        let storage = entities.mapValues(\.storageName)
        for name in entities.keys {
            func rooted(_ list: [(name: String, property: Property)]) -> [(name: String, property: Property)] {
                list.map { named in
                    guard case .relationship(let destination, let isToMany, let inverse) = named.property,
                        let root = storage[destination], root != destination
                    else { return named }
                    return (named.name, .relationship(destination: root, isToMany: isToMany, storedInverse: inverse))
                }
            }
            guard var entity = entities[name] else { continue }
            entity.properties = rooted(entity.properties)
            entity.subentityProperties = rooted(entity.subentityProperties)
            entities[name] = entity
        }
    }

    /// The folder that holds an entity's documents and, for an entity whose class inherits
    /// from another model, the `"$entity"`s of its documents there: its own and those of
    /// the entities inheriting from it. `nil` kinds for every document of the folder.
    func folder(of name: String) -> (folder: String, kinds: [String]?) {
        guard let entity = entities[name], entity.storageName != name else { return (name, nil) }
        return (
            entity.storageName, EntityHierarchy.names(from: name, among: entities.keys) { entities[$0]?.superentity }
        )
    }

    /// The entity a document of a folder is, by its `"$entity"`: the folder's own, or one
    /// inheriting from it; `nil` for any other.
    func entity(of content: JSONObject, inFolder folder: String) -> Entity? {
        guard case .string(let name)? = content[ReservedKey.entity], let entity = entities[name],
            entity.storageName == folder
        else { return nil }
        return entity
    }
}
