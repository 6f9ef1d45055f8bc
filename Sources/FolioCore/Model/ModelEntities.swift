import Synchronization

/// Each model type's entity with its inverses linked, read once per process.
///
/// A setter that keeps a relationship's inverse current needs the inverse's name even
/// when the model is in no container yet, and `schemaEntity` alone does not know an
/// inverse declared only on the other side; the schema of the type and every type it
/// reaches does.
enum ModelEntities {
    /// What a setter needs to know about a model type.
    struct Info: Sendable {
        let entity: Schema.Entity
        /// The to-many relationships whose inverse is a to-one: documents do not keep them,
        /// so changing one changes the other side's documents, not this one's.
        let backReferences: Set<String>
        /// The `let` attributes, whose values only the class's own storage holds until copied.
        let constants: [Schema.Attribute]
        /// Where a model made by the class's initializer keeps each property's value (see
        /// `ModelBackingData`): its place among the entity's properties.
        let positions: [String: Int]
    }

    private static let infos = Mutex<[ObjectIdentifier: Info]>([:])

    static func info(of type: any PersistentModel.Type) -> Info {
        if let info = infos.withLock({ $0[ObjectIdentifier(type)] }) { return info }
        let schema = Schema([type])
        return infos.withLock { infos in
            for entity in schema.entities {
                guard let modelType = entity.modelType.value else { continue }
                let backReferences = entity.relationships.filter { !$0.isStored(in: schema) }.map(\.name)
                let constants = entity.attributes.filter(\.isConstant)
                let positions = Dictionary(
                    entity.properties.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
                infos[ObjectIdentifier(modelType)] = Info(
                    entity: entity, backReferences: Set(backReferences), constants: constants, positions: positions)
            }
            return infos[ObjectIdentifier(type)]!
        }
    }

    static func entity(of type: any PersistentModel.Type) -> Schema.Entity { info(of: type).entity }
}
