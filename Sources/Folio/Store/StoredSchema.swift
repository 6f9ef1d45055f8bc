import FolioJSON

/// The schema a store's manifest records (`folio.json`'s `"schema"`), read once into types:
/// the entities in the file's order, each with its properties in declaration order, as
/// `docs/format.md` describes them. Read-only: code that changes a schema writes JSON.
///
/// Reading is lenient, as every reader of the manifest has always been: a member that is
/// missing or of the wrong JSON type is simply absent (`nil`, `false`, empty), and nothing
/// throws. `SchemaCheck` is the strict reader, of the raw JSON, that says what is wrong
/// and where.
package struct StoredSchema: Sendable, Equatable {
    /// The entities, in the order the schema lists them.
    package let entities: [Entity]

    /// The schema as data; anything but an object of entities by name has no entities.
    package init(_ json: JSONValue) {
        entities = (json["entities"]?.objectValue ?? [:]).map { Entity(name: $0.key, json: $0.value) }
    }

    /// The entity of this name, if the schema has it.
    package func entity(named name: String) -> Entity? { entities.first { $0.name == name } }

    /// The entities' names, in order.
    package var entityNames: [String] { entities.map(\.name) }
}
