import FolioJSON
import Foundation

/// One stage of a migration as data: the operations that take documents from one schema
/// version to the next. A file of `Migrations/<Store>/` holds one; a lightweight
/// `MigrationStage` is inferred to one.
public struct MigrationStep: Sendable, Hashable {
    /// The schema version the documents must be at for the step to apply.
    public var fromVersion: Schema.Version
    /// The schema version the documents are at after the step.
    public var toVersion: Schema.Version
    /// What the step does to the schema and the documents, in the order applied.
    public var operations: [MigrationOperation]
    /// The stage file the step was read from, for messages; `nil` for one made in code.
    public var file: String?

    /// A step from one schema version to the next; `file` names the stage file it came from, for messages.
    public init(
        from fromVersion: Schema.Version, to toVersion: Schema.Version, operations: [MigrationOperation],
        file: String? = nil
    ) {
        self.fromVersion = fromVersion
        self.toVersion = toVersion
        self.operations = operations
        self.file = file
    }

    /// Why this step cannot be applied to `schema` (the schema as data before it), or `nil`:
    /// an operation that would take over what the schema already has (a property renamed
    /// onto another, whose values it would wipe; an entity renamed or added onto another,
    /// whose schema it would replace), or a schema after it that the schema check refuses.
    /// The message names the stage and the operation.
    package func problem(applyingTo schema: JSONValue) -> String? {
        let place = (file ?? "the stage from \(fromVersion) to \(toVersion)")
        var current = schema
        for (index, operation) in operations.enumerated() {
            let at = "\(place): operations[\(index)]"
            let entities = current["entities"]?.objectValue ?? [:]
            func has(_ property: String, in entity: String) -> Bool {
                entities[entity]?["properties"]?.arrayValue?.contains { $0["name"] == .string(property) } ?? false
            }
            switch operation {
            case .renameProperty(let entity, let from, let to) where from != to && has(to, in: entity):
                return
                    "\(at): renames \(entity).\(from) onto \(entity).\(to), which the schema already has: its values would be lost; remove or rename \(to) first"
            case .renameEntity(let from, let to) where from != to && entities[to] != nil:
                return
                    "\(at): renames the entity \(from) onto \(to), which the schema already has: its schema and documents would be taken over; rename or remove \(to) first"
            case .addEntity(let name, _) where entities[name] != nil:
                return "\(at): adds the entity \(name), which the schema already has"
            default:
                break
            }
            current = MigrationStep(from: fromVersion, to: toVersion, operations: [operation]).schema(after: current)
        }
        // Only what the step brings: a schema an app wrote may hold what the check calls an error.
        func errors(_ schema: JSONValue) -> [String] {
            SchemaCheck.problems(in: schema, at: JSONPath()).filter { $0.severity == .error }.map(\.message)
        }
        let before = Set(errors(schema))
        if let problem = errors(current).first(where: { !before.contains($0) }) {
            return "\(place): the schema after it would not be one Folio stores: \(problem)"
        }
        return nil
    }

    /// The schema as data after this step: properties and entities added, removed,
    /// renamed and retyped as the operations say.
    package func schema(after schema: JSONValue) -> JSONValue {
        var entities = schema["entities"]?.objectValue ?? [:]
        func updateProperties(of entity: String, _ change: (inout [JSONValue]) -> Void) {
            guard var described = entities[entity]?.objectValue else { return }
            var properties = described["properties"]?.arrayValue ?? []
            change(&properties)
            described["properties"] = .array(properties)
            entities[entity] = .object(described)
        }
        func renamed(_ property: JSONValue, to name: String) -> JSONValue {
            guard var object = property.objectValue else { return property }
            object["name"] = .string(name)
            return .object(object)
        }
        for operation in operations {
            switch operation {
            case .addProperty(let entity, let property, _):
                updateProperties(of: entity) { properties in
                    properties.removeAll { $0["name"] == property["name"] }
                    properties.append(property)
                }
            case .removeProperty(let entity, let name):
                updateProperties(of: entity) { $0.removeAll { $0["name"] == .string(name) } }
            case .renameProperty(let entity, let from, let to):
                updateProperties(of: entity) { properties in
                    properties = properties.map { $0["name"] == .string(from) ? renamed($0, to: to) : $0 }
                }
            case .renameEntity(let from, let to):
                guard let described = entities.removeValue(forKey: from) else { continue }
                entities[to] = described
                for name in entities.keys {
                    updateProperties(of: name) { properties in
                        properties = properties.map { property in
                            guard property["destination"] == .string(from), var object = property.objectValue else {
                                return property
                            }
                            object["destination"] = .string(to)
                            return .object(object)
                        }
                    }
                }
            case .addEntity(let name, let description): entities[name] = description
            case .removeEntity(let name): _ = entities.removeValue(forKey: name)
            case .convertType(let entity, let name, let type):
                updateProperties(of: entity) { properties in
                    properties = properties.map { property in
                        guard property["name"] == .string(name), var object = property.objectValue else {
                            return property
                        }
                        object["type"] = .string(type.swiftType)
                        return .object(object)
                    }
                }
            case .setValue, .deleteDocuments: continue
            }
        }
        var result = schema.objectValue ?? [:]
        result["entities"] = .object(entities)
        return .object(result)
    }
}

extension MigrationOperation.ConvertedType {
    /// The Swift type the schema names for a converted property.
    var swiftType: String {
        switch self {
        case .string: "String"
        case .number: "Double"
        case .date: "Date"
        case .bool: "Bool"
        }
    }
}
