import FolioCore

/// What an import asks of the schema about the entity it imports and those inheriting from
/// it, asked once per entity rather than once per record: on 200,000 records the schema's
/// lookups by name cost as much as checking the values.
final class ImportedEntities {
    /// What a record of one entity needs.
    struct Shape {
        /// The key of a record's identity: `"id"` for a model whose own `id` is a `UUID`,
        /// else `"$id"`.
        let identityKey: String
        /// Whether the model declares a property named `id` at all.
        let declaresID: Bool
        /// Its properties' names.
        let known: Set<String>
        /// The properties whose values documents do not hold as members (`.ephemeral`,
        /// `.externalStorage`).
        let unstored: [String]
    }

    /// The imported entity and those inheriting from it, the entity first.
    let family: [String]
    private let store: DocumentStore
    private var shapes: [String: Shape] = [:]

    /// The entities of an import of `entity` into `store`.
    init(of entity: String, in store: DocumentStore) {
        self.store = store
        family = store.entityFamily(of: entity).map(\.name)
    }

    /// One entity's shape, read from the schema the first time it is asked.
    func shape(of entity: String) -> Shape {
        if let known = shapes[entity] { return known }
        let properties = store.describedProperties(of: entity)
        let ownIdentity = properties.first { $0.name == "id" }
        let shape = Shape(
            identityKey: ownIdentity?.typeName == "UUID" && ownIdentity?.isOptional == false
                && ownIdentity?.destination == nil ? "id" : "$id",
            declaresID: ownIdentity != nil, known: Set(properties.compactMap(\.name)),
            unstored: properties.filter { $0.has(.ephemeral) || $0.has(.externalStorage) }.compactMap(\.name))
        shapes[entity] = shape
        return shape
    }
}
