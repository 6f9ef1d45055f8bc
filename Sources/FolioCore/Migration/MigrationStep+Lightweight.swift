import FolioJSON

extension MigrationStep {
    /// The operations a lightweight stage implies between a schema as the store recorded
    /// it (`folio.json`'s schema as data) and the new one: added properties (optional or
    /// with a default), removed ones, `originalName` renames, optional to required with a
    /// default, added and removed entities. Anything else throws, naming the property
    /// that needs a custom stage.
    static func lightweight(from old: JSONValue, to new: Schema, fromVersion: Schema.Version) throws(FolioError)
        -> MigrationStep
    {
        let oldSchema = StoredSchema(old)
        var operations: [MigrationOperation] = []
        for entity in new.entities {
            guard let described = oldSchema.entity(named: entity.name) else {
                operations.append(.addEntity(name: entity.name, description: entity.json))
                continue
            }
            // By name; of two properties with one name (a hand edit), the last is compared.
            var oldProperties: [String: StoredSchema.Property] = [:]
            for property in described.properties {
                if let name = property.name { oldProperties[name] = property }
            }
            for property in entity.properties {
                let (name, originalName) =
                    switch property {
                    case .attribute(let attribute): (attribute.name, attribute.originalName)
                    case .relationship(let relationship): (relationship.name, relationship.originalName)
                    }
                let stored: Bool =
                    switch property {
                    case .attribute(let attribute): attribute.isStored && !attribute.isExternalStorage
                    case .relationship(let relationship): relationship.isStored(in: new)
                    }
                let oldName =
                    oldProperties[name] != nil ? name : originalName.flatMap { oldProperties[$0] != nil ? $0 : nil }
                guard let oldName, let oldProperty = oldProperties.removeValue(forKey: oldName) else {
                    guard stored else { continue }
                    operations.append(
                        .addProperty(
                            entity: entity.name, property: property.json,
                            value: .constant(try initialValue(of: property, in: entity))))
                    continue
                }
                if oldName != name { operations.append(.renameProperty(entity: entity.name, from: oldName, to: name)) }
                guard case .attribute(let attribute) = property else { continue }
                if let oldType = oldProperty.typeName, oldType != attribute.valueType {
                    throw .migration(
                        "\(entity.name).\(name) changes type from \(oldType) to \(attribute.valueType); a lightweight stage cannot convert values, so use a custom stage or a plan file with convertType"
                    )
                }
                if oldProperty.isOptional, !attribute.isOptional, stored {
                    let value = try initialValue(of: property, in: entity)
                    guard value != .null else {
                        throw .migration(
                            "\(entity.name).\(name) becomes required without a default; give it one, or use a custom stage"
                        )
                    }
                    operations.append(
                        .setValue(
                            entity: entity.name, name: name, value: .constant(value),
                            where: .compare(.property(name), .equal, .value(.null))))
                }
            }
            for name in oldProperties.keys.sorted() {
                operations.append(.removeProperty(entity: entity.name, name: name))
            }
        }
        for name in oldSchema.entityNames.sorted() where new.entity(named: name) == nil {
            operations.append(.removeEntity(name: name))
        }
        return MigrationStep(from: fromVersion, to: new.version, operations: operations)
    }

    /// What a new property holds in documents written before it: its declared initial
    /// value, `nil` for an optional, no elements for a to-many.
    private static func initialValue(of property: Schema.Property, in entity: Schema.Entity) throws(FolioError)
        -> JSONValue
    {
        switch property {
        case .relationship(let relationship): return relationship.isToMany ? [] : .null
        case .attribute(let attribute):
            if let makeDefault = attribute.makeDefaultValue.value, let coding = attribute.coding.value {
                do { return try coding.encode(makeDefault()) } catch {
                    // A default there is, which Folio cannot store: saying it has none would send
                    // the developer looking for what they wrote.
                    throw .migration(
                        "\(entity.name).\(attribute.name) is new, and its initial value cannot be stored: \(error.message); give it a default Folio can store, make it optional, or use a custom stage"
                    )
                }
            }
            if attribute.isOptional { return .null }
            throw .migration(
                "\(entity.name).\(attribute.name) is new and required, without an initial value; give it a default (var \(attribute.name): \(attribute.valueType) = ...), make it optional, or use a custom stage"
            )
        }
    }
}
