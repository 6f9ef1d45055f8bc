import FolioJSON
import Foundation

extension MigrationStep {
    /// Reads every stage of a plan folder (`Migrations/<Store>/*.json`), ordered by version.
    ///
    /// A stage file:
    /// ```json
    /// {
    ///   "from": "1.0.0",
    ///   "to": "2.0.0",
    ///   "operations": [
    ///     { "op": "addProperty", "entity": "Timer", "property": "category", "type": "String", "default": "General" },
    ///     { "op": "renameProperty", "entity": "Timer", "from": "colorHex", "to": "color" },
    ///     { "op": "setValue", "entity": "Timer", "property": "icon", "value": "\"timer\"", "where": "icon == nil" }
    ///   ]
    /// }
    /// ```
    /// `value` and `where` are in the text query language; days in them are in `timeZone`
    /// (the store's). `Migrations/README.md` describes every operation, and
    /// `Migrations/stage.schema.json` is a JSON Schema of the file.
    ///
    /// - Throws: `.notFound` when `folder` is not a folder, `.fileSystem` when it cannot be listed,
    ///   and what `init(contentsOf:timeZone:)` throws for a stage file.
    public static func plan(in folder: URL, timeZone: TimeZone) throws(FolioError) -> [MigrationStep] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw .notFound(
                "there is no migration plan folder at \(folder.path); give the folder of stage files (a path relative to the current folder, such as Migrations/TimerApp at the top of this repository)"
            )
        }
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: folder.path) } catch {
            throw .fileSystem(
                path: folder.path, operation: "list the migration plan's files", reason: "\(error.localizedDescription)"
            )
        }
        var steps: [MigrationStep] = []
        for name in names.sorted() where name.hasSuffix(".json") {
            steps.append(try MigrationStep(contentsOf: folder.appending(path: name), timeZone: timeZone))
        }
        return steps.sorted { $0.fromVersion < $1.fromVersion }
    }

    /// Reads one stage file.
    ///
    /// - Throws: `.unreadableJSON` when the file cannot be read or is not JSON, and
    ///   `.invalidDocument` when it is not a valid stage.
    public init(contentsOf file: URL, timeZone: TimeZone) throws(FolioError) {
        let path = file.path
        let json: JSONValue
        do { json = try JSONReader().read(contentsOfFile: path) } catch { throw .unreadableJSON(error) }
        try self.init(json: json, path: path, timeZone: timeZone)
        self.file = path
    }

    /// Reads a stage from its JSON; `path` names it in errors.
    ///
    /// - Throws: `.invalidDocument` for a missing or invalid version, operation, name, value or
    ///   query, naming the operation's place in the file.
    public init(json: JSONValue, path: String, timeZone: TimeZone) throws(FolioError) {
        func version(_ key: String) throws(FolioError) -> Schema.Version {
            guard let text = json[key]?.stringValue, let version = Schema.Version(text) else {
                throw .invalidDocument(path: path, reason: "\"\(key)\" must be a version such as \"1.0.0\"")
            }
            return version
        }
        let from = try version("from")
        let to = try version("to")
        guard let described = json["operations"]?.arrayValue else {
            throw .invalidDocument(
                path: path, reason: "\"operations\" must be an array of operations, each an object with \"op\"")
        }
        var operations: [MigrationOperation] = []
        for (index, operation) in described.enumerated() {
            operations.append(try Self.operation(operation, at: "\(path): operations[\(index)]", timeZone: timeZone))
        }
        self.init(from: from, to: to, operations: operations)
    }

    /// Every `"op"` a stage file may name, in the order the README and `Migrations/stage.schema.json` list them.
    static let operationNames = [
        "addProperty", "removeProperty", "renameProperty", "renameEntity", "addEntity", "removeEntity", "setValue",
        "deleteDocuments", "convertType",
    ]

    private static func operation(_ json: JSONValue, at place: String, timeZone: TimeZone) throws(FolioError)
        -> MigrationOperation
    {
        func text(_ key: String) throws(FolioError) -> String {
            guard let value = json[key]?.stringValue, !value.isEmpty else {
                throw .invalidDocument(path: place, reason: "\"\(key)\" must be a non-empty string")
            }
            return value
        }
        // Names go through the schema's own rule (`SchemaCheck`): an entity is a folder, a
        // property a document's key, and `$`-keys are the format's, which no stage may take,
        // rename onto or set.
        func name(_ key: String, of what: String) throws(FolioError) -> String {
            let value = try text(key)
            guard DocumentPath.isIdentifier(value) else {
                let reserved = value.hasPrefix("$") ? ", and \"$\" keys are the format's own" : ""
                throw .invalidDocument(
                    path: place,
                    reason:
                        "\"\(key)\": \"\(value)\" is not \(what) name Folio can store (letters, digits and _, not starting with a digit\(reserved))"
                )
            }
            return value
        }
        func entity(_ key: String = "entity") throws(FolioError) -> String { try name(key, of: "an entity") }
        func property(_ key: String = "property") throws(FolioError) -> String { try name(key, of: "a property") }
        func query(_ key: String) throws(FolioError) -> QueryExpression {
            let source = try text(key)
            do { return try QueryExpression(parsing: source, timeZone: timeZone) } catch {
                throw .invalidDocument(path: place, reason: "\"\(key)\": \(error.description)")
            }
        }
        func value() throws(FolioError) -> MigrationValue {
            if let constant = json["default"] { return .constant(constant) }
            if json["value"] != nil { return .expression(try query("value")) }
            throw .invalidDocument(
                path: place, reason: "give the new value as \"default\" (a JSON value) or \"value\" (an expression)")
        }
        let op = try text("op")
        switch op {
        case "addProperty":
            let type = try text("type")
            if let problem = SchemaCheck.problem(withStageTypeName: type) {
                throw .invalidDocument(path: place, reason: "\"type\": \(problem)")
            }
            var described: JSONObject = ["name": .string(try property()), "type": .string(type)]
            if json["optional"] == .bool(true) { described["optional"] = true }
            return .addProperty(entity: try entity(), property: .object(described), value: try value())
        case "removeProperty": return .removeProperty(entity: try entity(), name: try property())
        case "renameProperty":
            return .renameProperty(entity: try entity(), from: try property("from"), to: try property("to"))
        case "renameEntity": return .renameEntity(from: try entity("from"), to: try entity("to"))
        case "addEntity":
            guard let properties = json["properties"]?.arrayValue else {
                throw .invalidDocument(
                    path: place, reason: "\"properties\" must list the entity's properties, as folio.json's schema does"
                )
            }
            return .addEntity(name: try entity(), description: ["properties": .array(properties)])
        case "removeEntity": return .removeEntity(name: try entity())
        case "setValue":
            return .setValue(
                entity: try entity(), name: try property(), value: try value(),
                where: json["where"] == nil ? nil : try query("where"))
        case "deleteDocuments": return .deleteDocuments(entity: try entity(), where: try query("where"))
        case "convertType":
            let target = try text("to")
            guard let type = MigrationOperation.ConvertedType(rawValue: target) else {
                throw .invalidDocument(
                    path: place, reason: "\"to\" must be one of string, number, date, bool, not \"\(target)\"")
            }
            return .convertType(entity: try entity(), name: try property(), to: type)
        default:
            throw .invalidDocument(
                path: place,
                reason: "\"\(op)\" is not an operation; the operations are \(operationNames.joined(separator: ", "))")
        }
    }
}
