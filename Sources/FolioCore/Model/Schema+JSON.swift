import FolioJSON

extension Schema {
    /// The schema as data, as the manifest keeps it: each entity's properties in
    /// declaration order, with their types, options and relationships, so that tools
    /// which never see the Swift code (`folio`, a reviewer reading `folio.json`) know the
    /// shape of the documents.
    public var json: JSONValue {
        ["entities": .object(JSONObject(entities.map { ($0.name, $0.json) }))]
    }
}

extension Schema.Entity {
    var json: JSONValue {
        var object: JSONObject = [:]
        if let superentityName { object["superentity"] = .string(superentityName) }
        object["properties"] = .array(properties.map(\.json))
        if !uniquenessConstraints.isEmpty {
            object["unique"] = .array(uniquenessConstraints.map { .array($0.map(JSONValue.string)) })
        }
        if !indices.isEmpty { object["indices"] = .array(indices.map { .array($0.map(JSONValue.string)) }) }
        return .object(object)
    }
}

extension Schema.Property {
    var json: JSONValue {
        var object: JSONObject = ["name": .string(name)]
        switch self {
        case .attribute(let attribute):
            object["type"] = .string(attribute.valueType)
            if attribute.isOptional { object["optional"] = true }
            let flags = attribute.options.compactMap { option -> JSONValue? in
                switch option.kind {
                case .unique: "unique"
                case .externalStorage: "externalStorage"
                case .ephemeral: "ephemeral"
                case .preserveValueOnDeletion: "preserveValueOnDeletion"
                case .indexed: "indexed"
                case .spotlight, .allowsCloudEncryption, .codable, .originalName, .transformable: nil
                }
            }
            if !flags.isEmpty { object["options"] = .array(flags) }
            if let originalName = attribute.originalName { object["originalName"] = .string(originalName) }
            if let cases = attribute.cases { object["cases"] = .array(cases) }
            if let transformer = attribute.transformer { object["transformer"] = .string(transformer.name) }
            switch attribute.initialValue {
            case .constant:
                if let make = attribute.makeDefaultValue.value, let coding = attribute.coding.value,
                    let json = try? coding.encode(make())
                {
                    object["default"] = json
                }
            case .now: object["generated"] = "now"
            case .newUUID: object["generated"] = "uuid"
            case .none: break
            }
        case .relationship(let relationship):
            object["destination"] = .string(relationship.destination)
            object["toMany"] = .bool(relationship.isToMany)
            object["deleteRule"] = .string("\(relationship.deleteRule)")
            if let inverse = relationship.inverseName { object["inverse"] = .string(inverse) }
            if let minimum = relationship.minimumModelCount, minimum > 0 {
                object["minimumModelCount"] = .integer(Int64(minimum))
            }
            if let maximum = relationship.maximumModelCount, maximum > 0 {
                object["maximumModelCount"] = .integer(Int64(maximum))
            }
            if let originalName = relationship.originalName { object["originalName"] = .string(originalName) }
        }
        return .object(object)
    }
}
