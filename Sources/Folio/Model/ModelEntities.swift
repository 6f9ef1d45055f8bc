import Synchronization

/// Each model type's entity with its inverses linked, read once per process.
///
/// A setter that keeps a relationship's inverse current needs the inverse's name even
/// when the model is in no container yet, and `schemaEntity` alone does not know an
/// inverse declared only on the other side; the schema of the type and every type it
/// reaches does.
enum ModelEntities {
    private static let entities = Mutex<[ObjectIdentifier: Schema.Entity]>([:])

    static func entity(of type: any PersistentModel.Type) -> Schema.Entity {
        if let entity = entities.withLock({ $0[ObjectIdentifier(type)] }) { return entity }
        let schema = Schema([type])
        return entities.withLock { entities in
            for entity in schema.entities {
                if let modelType = entity.modelType.value { entities[ObjectIdentifier(modelType)] = entity }
            }
            return entities[ObjectIdentifier(type)]!
        }
    }
}
