import FolioJSON

/// The schema a store's manifest records (`folio.json`'s `"schema"`), read once into types:
/// the entities in the file's order, each with its properties in declaration order, as
/// `docs/format.md` describes them. Read-only: code that changes a schema writes JSON.
///
/// Reading is lenient, as every reader of the manifest has always been: a member that is
/// missing or of the wrong JSON type is simply absent (`nil`, `false`, empty), and nothing
/// throws. The validation layer has a strict reader, of the raw JSON, that says what is
/// wrong and where.
package struct StoredSchema: Sendable, Equatable {
    /// The entities, in the order the schema lists them.
    package let entities: [Entity]
    /// Each entity's position in `entities` by name: a lookup per entity was a scan of them
    /// all, which made `check` quadratic (10,000 entities: 12 s).
    private let positions: [String: Int]

    /// The schema as data; anything but an object of entities by name has no entities.
    package init(_ json: JSONValue) {
        entities = (json["entities"]?.objectValue ?? [:]).map { Entity(name: $0.key, json: $0.value) }
        positions = Dictionary(entities.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The entity of this name, if the schema has it.
    package func entity(named name: String) -> Entity? { positions[name].map { entities[$0] } }

    package static func == (lhs: StoredSchema, rhs: StoredSchema) -> Bool { lhs.entities == rhs.entities }

    /// The entities' names, in order.
    package var entityNames: [String] { entities.map(\.name) }
}
