import ArgumentParser
import FolioCore
import FolioJSON
import Foundation

extension FolioCommand {
    /// `folio schema`: shows a store's schema, and grows it through migration stage files.
    struct SchemaCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "schema",
            abstract: "Show a store's schema, or add an entity or a property through a migration stage file.",
            discussion: """
                A change to the schema is a stage file of a migration plan (Migrations/<Store>/ by \
                default; the store's migration-plan/ when the store's folder is a git repository of \
                its own), so it is reviewed, committed and replayed like any other migration: \
                `add-entity` and `add-property` write the next stage, and `folio migrate` dry-runs \
                or applies the plan (or pass --apply). docs/format.md describes the schema.

                Example:
                  folio schema --store Data/TimerApp
                  folio schema add-property Timer category:String --default General --apply
                  folio schema add-entity Tag name:String 'color:String?' 'tags:Array<String>'

                \(Failure.commandHelpText)
                """,
            subcommands: [Show.self, AddEntity.self, AddProperty.self],
            defaultSubcommand: Show.self)

        /// `folio schema show`: the entities and their properties.
        struct Show: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "show", abstract: "Show the entities of a store's schema and their properties.",
                discussion: """
                    What `folio check` finds wrong with the schema, or worth a note (a to-one whose \
                    name reads as plural, whose inverse is a to-one too), goes to standard error.

                    Example:
                      folio schema show --store Data/TimerApp --format json

                    \(Failure.commandHelpText)
                    """)

            @OptionGroup var store: StoreOptions
            @OptionGroup var past: RevisionOption

            @Option(help: "table (default) or json: the schema object as folio.json holds it.")
            var format: SchemaFormat = .table

            func run() throws {
                try Failure.reporting {
                    let store = try past.open(store)
                    let manifest = store.manifest
                    // What check would say of the schema, on standard error: the schema shown is still exact.
                    for finding in store.schemaFindings() { Terminal.printError("\(lines: finding.description)") }
                    switch format {
                    case .json:
                        Terminal.printExact(
                            String(decoding: try JSONWriter().write(manifest.schema), as: UTF8.self).trimmingCharacters(
                                in: .newlines))
                    case .table: Terminal.print(SchemaDescription.text(of: manifest.storedSchema))
                    }
                }
            }
        }

        /// `folio schema add-entity`: a stage that adds an entity.
        struct AddEntity: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "add-entity",
                abstract: "Write a migration stage that adds an entity with these properties.",
                discussion: """
                    Each property is name:Type, with ? after the type for an optional one; \
                    quote it for the shell, where ? and < mean something else ('note:String?', \
                    'tags:Array<String>'). The types are those docs/format.md lists: String, Int, Double, \
                    Bool, Date, UUID, URL, Data, Decimal and the sized integers, and Array<…>, \
                    Optional<…> and Dictionary<String, …> of them.

                    Example:
                      folio schema add-entity Tag name:String 'color:String?' 'tags:Array<String>'

                    \(Failure.commandHelpText)
                    """)

            @OptionGroup var store: StoreOptions
            @OptionGroup var stage: StageOptions

            @Argument(help: "The new entity's name: letters, digits and _.")
            var entity: String

            @Argument(help: ArgumentHelp("Its properties, each name:Type or name:Type?.", valueName: "name:Type"))
            var properties: [String] = []

            func run() throws {
                try Failure.reporting {
                    let store = try store.open()
                    let schema = try stage.plannedSchema(of: store)
                    guard DocumentPath.isIdentifier(entity) else {
                        throw FolioError.invalidInput(
                            "\"\(entity)\" cannot name an entity's folder; use letters, digits and _, not starting with a digit"
                        )
                    }
                    guard schema.entity(named: entity) == nil else {
                        throw FolioError.invalidInput("the schema has an entity \(entity) already")
                    }
                    var described: [JSONValue] = []
                    for text in properties {
                        let property = try PropertySpecification(text)
                        guard !described.contains(where: { $0["name"] == .string(property.name) }) else {
                            throw FolioError.invalidInput("\(entity) would have two properties named \(property.name)")
                        }
                        described.append(property.json)
                    }
                    let operation: JSONObject = [
                        "op": "addEntity", "entity": .string(entity), "properties": .array(described),
                    ]
                    try stage.write(operation, describing: "Adds the entity \(entity).", to: store)
                }
            }
        }

        /// `folio schema add-property`: a stage that adds a property to an entity.
        struct AddProperty: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "add-property",
                abstract: "Write a migration stage that adds a property to an entity's documents.",
                discussion: """
                    The property is name:Type, with ? after the type for an optional one (quoted for \
                    the shell: 'note:String?'). Documents \
                    get --default (text for a String, else JSON: 0, true, ["a"]); an optional property \
                    without one gets null. A property that is not optional needs a default, since \
                    every document must have a value.

                    Example:
                      folio schema add-property Timer category:String --default General
                      folio schema add-property Timer 'note:String?'

                    \(Failure.commandHelpText)
                    """)

            @OptionGroup var store: StoreOptions
            @OptionGroup var stage: StageOptions

            @Argument(help: "The entity that gets the property.")
            var entity: String

            @Argument(help: ArgumentHelp("The property, name:Type or name:Type?.", valueName: "name:Type"))
            var property: String

            @Option(help: ArgumentHelp("The value existing documents get.", valueName: "value"))
            var `default`: String?

            func run() throws {
                try Failure.reporting {
                    let store = try store.open()
                    let schema = try stage.plannedSchema(of: store)
                    guard let described = schema.entity(named: entity) else {
                        let names = schema.entityNames
                        let hint = Spelling.nearest(to: entity, among: names).map { "did you mean \($0)? " } ?? ""
                        throw FolioError.invalidInput(
                            "\(entity) is not an entity of the schema; \(hint)it has: \(names.sorted().joined(separator: ", "))"
                        )
                    }
                    let property = try PropertySpecification(self.property)
                    let names = described.properties.compactMap(\.name)
                    guard !names.contains(property.name) else {
                        throw FolioError.invalidInput("\(entity) has a property \(property.name) already")
                    }
                    var operation: JSONObject = [
                        "op": "addProperty", "entity": .string(entity), "property": .string(property.name),
                        "type": .string(property.type),
                    ]
                    if property.isOptional { operation["optional"] = true }
                    if let text = `default` {
                        operation["default"] = try property.value(text)
                    } else if property.isOptional {
                        operation["default"] = .null  // a stage names the value its documents get
                    } else {
                        throw FolioError.invalidInput(
                            "\(entity).\(property.name) is not optional, so its documents need a value: pass --default, or declare it \(property.name):\(property.type)?"
                        )
                    }
                    try stage.write(
                        operation,
                        describing:
                            "Adds \(entity).\(property.name) (\(property.type)\(property.isOptional ? "?" : "")).",
                        to: store)
                }
            }
        }
    }
}

/// How `folio schema show` prints the schema.
enum SchemaFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json
}

/// Where a schema change's stage file goes, and whether to run it.
struct StageOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The plan's folder (default: Migrations/<the store's folder name>, or the store's migration-plan when the store is a git repository of its own).",
            valueName: "folder"))
    var plan: String?

    @Flag(help: "Migrate the store through the plan right away, after writing the stage.")
    var apply = false

    /// The plan's folder: `--plan`; else the store's own `migration-plan` when it exists;
    /// else `Migrations/<store name>` in the current folder, or beside the store when the
    /// current folder is inside it; else, when that folder does not exist and is outside the
    /// git work tree holding the store (a repository made in the store's folder), the store's
    /// `migration-plan`, so the plan is committed with the documents it migrates. The walk
    /// passes over a root folder whose name is not an identifier, as `migration-plan` is not.
    func folder(of store: DocumentStore) -> URL {
        if let plan { return URL(fileURLWithPath: plan, isDirectory: true) }
        let root = URL(fileURLWithPath: store.root, isDirectory: true).standardizedFileURL
        let inside = root.appending(path: Self.folderInStore, directoryHint: .isDirectory)
        if Self.exists(inside) { return inside }
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true).standardizedFileURL
        let base = Self.contains(root, here) ? root.deletingLastPathComponent() : here
        let beside = base.appending(path: "Migrations/" + root.lastPathComponent, directoryHint: .isDirectory)
        if !Self.exists(beside), let workTree = Self.workTree(holding: root), !Self.contains(workTree, beside) {
            return inside
        }
        return beside
    }

    /// The name of the plan's folder when the store's folder keeps it.
    static let folderInStore = "migration-plan"

    /// Whether `path` is `folder` or inside it.
    private static func contains(_ folder: URL, _ path: URL) -> Bool {
        (path.path + "/").hasPrefix(folder.path + "/")
    }

    /// Whether something is at `url`, a symbolic link counting as something.
    private static func exists(_ url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) == 0
    }

    /// The top of the git work tree holding `folder`: the nearest of it and its parents with a
    /// `.git` (a folder, or the file of a linked work tree); nil outside any. Git is not run.
    private static func workTree(holding folder: URL) -> URL? {
        var candidate = folder
        while true {
            if exists(candidate.appending(path: ".git")) { return candidate }
            let parent = candidate.deletingLastPathComponent()
            if parent.path == candidate.path { return nil }
            candidate = parent
        }
    }

    /// The plan's stages, in order; none when its folder does not exist yet.
    private func stages(of store: DocumentStore) throws(FolioError) -> [MigrationStep] {
        let folder = folder(of: store)
        return FileManager.default.fileExists(atPath: folder.path)
            ? try MigrationStep.plan(in: folder, timeZone: store.manifest.timeZone) : []
    }

    /// The store's version, as its manifest records it.
    private func version(of store: DocumentStore) -> Schema.Version {
        Schema.Version(store.manifest.schemaVersion) ?? Schema.Version(1, 0, 0)
    }

    /// The schema once the plan's stages the store has not had yet are applied: what a
    /// new stage builds on.
    func plannedSchema(of store: DocumentStore) throws(FolioError) -> StoredSchema {
        let current = version(of: store)
        return StoredSchema(
            try stages(of: store).filter { $0.toVersion > current }.reduce(store.manifest.schema) {
                $1.schema(after: $0)
            })
    }

    /// Writes the stage after the plan's last one (or the store's version): one minor
    /// version on, named `NNN-to-<version>.json`; with `--apply`, migrates the store.
    func write(_ operation: JSONObject, describing description: String, to store: DocumentStore) throws(FolioError) {
        let folder = folder(of: store)
        let timeZone = store.manifest.timeZone
        let stages = try stages(of: store)
        let storeVersion = version(of: store)
        let from = max(stages.map(\.toVersion).max() ?? storeVersion, storeVersion)
        let to = Schema.Version(from.major, from.minor + 1, 0)
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
            $0.hasSuffix(".json")
        }
        let name =
            String(repeating: "0", count: max(0, 3 - String(files.count + 1).count))
            + "\(files.count + 1)-to-\(to).json"
        let stage: JSONValue = [
            "from": .string(from.description), "to": .string(to.description), "description": .string(description),
            "operations": [.object(operation)],
        ]
        // Read back as `migrate` will read it before it is written: a stage that cannot run is never left in the plan.
        _ = try MigrationStep(json: stage, path: folder.appending(path: name).path, timeZone: timeZone)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(try JSONWriter().write(stage)).write(
                to: folder.appending(path: name), options: .withoutOverwriting)
        } catch let error as JSONError {
            throw FolioError.invalidInput("the stage cannot be written: \(error.message)")
        } catch {
            throw FolioError.invalidInput("\(folder.path) cannot take the stage \(name): \(error.localizedDescription)")
        }
        let file = folder.appending(path: name).path
        Terminal.print("Wrote \(file) (\(from) → \(to)).")
        guard apply else {
            Terminal.printError(
                "Review it, then: folio migrate --plan \(folder.path) --dry-run, and without --dry-run to apply.")
            return
        }
        let report = try store.migrate(try MigrationStep.plan(in: folder, timeZone: timeZone))
        let changed = report.entities.values.reduce(0) { $0 + $1.changed }
        Terminal.print(
            "Migrated the store to \(report.toVersion): \(changed) \(changed == 1 ? "document" : "documents") changed.")
    }
}

/// A property as a person types it: `name:Type`, `?` after the type for an optional one.
struct PropertySpecification {
    var name: String
    var type: String
    var isOptional: Bool

    init(_ text: String) throws(FolioError) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, DocumentPath.isIdentifier(parts[0]), !parts[1].isEmpty else {
            throw FolioError.invalidInput("\"\(text)\" is not a property like title:String or note:String?")
        }
        name = parts[0]
        isOptional = parts[1].hasSuffix("?")
        type = isOptional ? String(parts[1].dropLast()) : parts[1]
        if let problem = SchemaCheck.problem(withTypeName: type) {
            throw FolioError.invalidInput("\(name): \(problem)")
        }
    }

    /// The property as the manifest's schema describes it.
    var json: JSONValue {
        var object: JSONObject = ["name": .string(name), "type": .string(type)]
        if isOptional { object["optional"] = true }
        return .object(object)
    }

    /// A value typed for this property: text as it is for a `String`, else JSON.
    func value(_ text: String) throws(FolioError) -> JSONValue {
        let value: JSONValue
        switch ScalarType(rawValue: type)?.kind {
        case .text, .date, .uuid, .url:
            // Stored as the very text a person types; `Data` is text too, but base64 no one types.
            value = .string(text)
        default:
            do throws(JSONError) { value = try JSONReader().read(Array(text.utf8)) } catch {
                throw FolioError.invalidInput("the default \(text) is not a \(type) (give JSON: 0, 1.5, true, [\"a\"])")
            }
        }
        if let problem = SchemaCheck.problem(with: value, ofType: type) {
            throw FolioError.invalidInput("the default for \(name): \(problem)")
        }
        return value
    }
}

/// The schema as a person reads it: each entity with its properties, a line each.
enum SchemaDescription {
    /// The lines `folio schema` prints for a schema, every name and value from the store
    /// shown visibly (a name can hold an escape sequence: `folio check` reports it).
    static func text(of schema: StoredSchema) -> TerminalText {
        var lines: [TerminalText] = []
        for entity in schema.entities {
            let inherits: TerminalText = entity.superentity.map { " (inherits from \($0))" } ?? ""
            lines.append("\(entity.name)\(inherits)")
            let names = entity.properties.map { Terminal.visible($0.name ?? "?") }
            let width = names.map(\.count).max() ?? 0
            for (property, name) in zip(entity.properties, names) {
                var facts: [String] = []
                if let destination = property.destination {
                    facts.append((property.isToMany ? "to many " : "to one ") + destination)
                    if let rule = property.deleteRule, rule != "nullify" { facts.append(rule) }
                    if let inverse = property.inverse { facts.append("inverse \(inverse)") }
                } else {
                    facts.append((property.typeName ?? "?") + (property.isOptional ? "?" : ""))
                    facts += property.options
                    if let value = property.defaultValue { facts.append("default \(value)") }
                }
                let padded = TerminalText(visible: name + String(repeating: " ", count: width - name.count))
                lines.append("  \(padded)  \(facts.joined(separator: ", "))")
            }
            for constraint in entity.uniquenessConstraints {
                lines.append("  unique (\(constraint.joined(separator: ", ")))")
            }
        }
        return lines.isEmpty
            ? "The schema has no entities yet; add one with folio schema add-entity." : lines.joined(separator: "\n")
    }
}
