import FolioJSON

/// What is wrong with a schema as data (`folio.json`'s `"schema"`, or a file given to
/// `folio init --schema`), as `docs/format.md` describes it: each problem with the path
/// to it, so it can be shown at its line and column.
///
/// A schema a Swift app wrote may name the app's own types (`"Stroke"`, a `Codable`
/// struct): Folio cannot check their values, and says so only when the name is one
/// letter from a type it knows. A schema written by hand has no Swift types behind it,
/// so there every type must be one Folio stores (`allowsAppTypes: false`).
package struct SchemaCheck {
    struct Problem: Equatable {
        var path: JSONPath
        var severity: StoreFinding.Severity
        var message: String
    }

    let allowsAppTypes: Bool
    private(set) var problems: [Problem] = []

    static let schemaKeys = ["entities"]
    static let entityKeys = ["superentity", "properties", "unique", "indices"]
    static let attributeKeys = [
        "name", "type", "optional", "options", "originalName", "cases", "transformer", "default", "generated",
    ]
    static let relationshipKeys = [
        "name", "destination", "toMany", "deleteRule", "inverse", "minimumModelCount", "maximumModelCount",
        "originalName", "optional",
    ]
    static let options = ["unique", "externalStorage", "ephemeral", "preserveValueOnDeletion", "indexed"]
    static let deleteRules = ["nullify", "cascade", "deny", "noAction"]

    /// The problems of a schema found at `path` of its file.
    static func problems(in schema: JSONValue, at path: JSONPath, allowsAppTypes: Bool = true) -> [Problem] {
        var check = SchemaCheck(allowsAppTypes: allowsAppTypes)
        check.schema(schema, at: path)
        return check.problems
    }

    /// The problems of a schema in a file's text, as findings at their lines and columns:
    /// `path` leads from the top of the text to the schema (`schema` in a manifest).
    package static func findings(
        in schema: JSONValue, text: [UInt8], file: String, at path: JSONPath, allowsAppTypes: Bool = true
    ) -> [StoreFinding] {
        problems(in: schema, at: path, allowsAppTypes: allowsAppTypes).map { problem in
            let location = problem.path.location(in: text)
            return StoreFinding(
                problem.severity, path: file, line: location?.line, column: location?.column, message: problem.message)
        }
    }

    /// Why a type name written by hand is not one Folio stores (`"Strin"`), or `nil`.
    package static func problem(withTypeName typeName: String) -> String? {
        let known = ScalarType.names
        guard let other = StoredType.otherTypeNames(in: typeName).first else { return nil }
        let hint =
            Spelling.nearest(to: other, among: known).map { "; did you mean \($0)?" }
            ?? "; it may be \(known.joined(separator: ", ")), or an Array<…>, Optional<…> or Dictionary<String, …> of one"
        return "\(other) is not a type Folio stores\(hint)"
    }

    /// Why a type name in a stage file cannot be stored, or `nil`: nested past
    /// `StoredType.deepestNesting`, or naming a type that is no Swift name (an app's own
    /// enums and `Codable` types are allowed, as in an app's manifest).
    package static func problem(withStageTypeName typeName: String) -> String? {
        if StoredType.nestsTooDeep(typeName) {
            return
                "\(StoredType.shortName(typeName)) nests more than \(StoredType.deepestNesting) collections, deeper than Folio stores"
        }
        for other in StoredType.otherTypeNames(in: typeName)
        where !other.split(separator: ".", omittingEmptySubsequences: false).allSatisfy(DocumentPath.isIdentifier) {
            return
                "\"\(other)\" is not a type name; give one of \(ScalarType.names.joined(separator: ", ")), an Array<…>, Optional<…> or Dictionary<String, …> of one, or an app's own type"
        }
        return nil
    }

    /// Why a value does not fit a type the manifest names, or `nil` when it does.
    package static func problem(with value: JSONValue, ofType typeName: String) -> String? {
        StoredType(typeName).problem(with: value)
    }

    private mutating func error(_ path: JSONPath, _ message: String) {
        problems.append(Problem(path: path, severity: .error, message: message))
    }

    /// Reports keys an object may not have, suggesting the nearest one it may.
    private mutating func unknownKeys(of object: JSONObject, at path: JSONPath, allowed: [String], in what: String) {
        for key in object.keys where !allowed.contains(key) {
            let hint =
                Spelling.nearest(to: key, among: allowed).map { "; did you mean \"\($0)\"?" }
                ?? "; it may have \(allowed.map { "\"\($0)\"" }.joined(separator: ", "))"
            error(path.appending(key), "\(what) has no key \"\(key)\"\(hint)")
        }
    }

    private mutating func schema(_ schema: JSONValue, at path: JSONPath) {
        guard case .object(let object) = schema else {
            return error(path, "the schema is a JSON \(schema.typeName), not an object like {\"entities\": {...}}")
        }
        unknownKeys(of: object, at: path, allowed: Self.schemaKeys, in: "the schema")
        guard let entities = object["entities"] else { return }
        guard case .object(let byName) = entities else {
            return error(
                path.appending("entities"),
                "\"entities\" is a JSON \(entities.typeName), not an object of entities by name")
        }
        for member in byName {
            entity(member.key, member.value, at: path.appending("entities").appending(member.key), among: byName)
        }
    }

    private mutating func entity(_ name: String, _ value: JSONValue, at path: JSONPath, among entities: JSONObject) {
        if !DocumentPath.isIdentifier(name) {
            error(
                path,
                "the schema names an entity \"\(name)\", which is not an identifier (letters, digits and _, not starting with a digit), so it can have no folder; rename it"
            )
        }
        guard case .object(let entity) = value else {
            return error(path, "entity \(name) is a JSON \(value.typeName), not an object like {\"properties\": [...]}")
        }
        unknownKeys(of: entity, at: path, allowed: Self.entityKeys, in: "entity \(name)")
        if let superentity = entity["superentity"] {
            var seen: Set<String> = [name]
            var next = superentity.stringValue
            while let current = next, entities[current] != nil, seen.insert(current).inserted {
                next = entities[current]?["superentity"]?.stringValue
            }
            if let parent = superentity.stringValue, entities[parent] == nil {
                error(
                    path.appending("superentity"),
                    "\(name) inherits from \"\(parent)\", which is not one of the schema's entities\(suggestion(parent, among: entities.keys))"
                )
            } else if superentity.stringValue == nil {
                error(path.appending("superentity"), "\"superentity\" is \(superentity), not the name of an entity")
            } else if next.map(seen.contains) == true {
                error(
                    path.appending("superentity"),
                    "the \"superentity\" entries lead from \(name) back to itself; a class hierarchy has a root")
            }
        }
        var names: [String] = []
        if let properties = entity["properties"] {
            guard case .array(let list) = properties else {
                return error(
                    path.appending("properties"),
                    "\"properties\" of \(name) is a JSON \(properties.typeName), not an array")
            }
            for (index, property) in list.enumerated() {
                if let own = self.property(
                    property, at: path.appending("properties").appending(index), of: name, among: entities)
                {
                    if names.contains(own) {
                        error(
                            path.appending("properties").appending(index), "\(name) has two properties named \"\(own)\""
                        )
                    }
                    names.append(own)
                }
            }
        }
        for key in ["unique", "indices"] {
            guard let lists = entity[key] else { continue }
            guard case .array(let groups) = lists else {
                error(
                    path.appending(key),
                    "\"\(key)\" of \(name) is \(lists), not a list of lists of property names like [[\"name\"]]")
                continue
            }
            // A list that names no property constrains and indexes nothing: worth a word, not an error.
            for (index, group) in groups.enumerated()
            where group.arrayValue?.contains(where: { $0.stringValue != nil }) != true {
                problems.append(
                    Problem(
                        path: path.appending(key).appending(index), severity: .note,
                        message: "\"\(key)\" of \(name) holds \(group), which names no property, so it is left out"))
            }
            for (index, group) in groups.enumerated() {
                for case .string(let property) in group.arrayValue ?? [] where !names.contains(property) {
                    error(
                        path.appending(key).appending(index),
                        "\"\(key)\" of \(name) names \"\(property)\", which is not one of its properties\(suggestion(property, among: names))"
                    )
                }
            }
        }
    }

    /// Checks one property; returns its name when it has one.
    private mutating func property(_ value: JSONValue, at path: JSONPath, of entity: String, among entities: JSONObject)
        -> String?
    {
        guard case .object(let property) = value else {
            error(
                path,
                "a property of \(entity) is a JSON \(value.typeName), not an object like {\"name\": \"title\", \"type\": \"String\"}"
            )
            return nil
        }
        guard case .string(let name)? = property["name"], DocumentPath.isIdentifier(name) else {
            error(
                path,
                "a property of \(entity) has no \"name\" that is an identifier (letters, digits and _, not starting with a digit)"
            )
            return nil
        }
        let label = "\(entity).\(name)"
        switch (property["type"], property["destination"]) {
        case (nil, nil):
            error(path, "\(label) has neither a \"type\" (an attribute) nor a \"destination\" (a relationship)")
        case (.some, .some):
            error(
                path.appending("destination"),
                "\(label) has both a \"type\" and a \"destination\"; an attribute has a type, a relationship a destination"
            )
        case (let type?, nil):
            unknownKeys(of: property, at: path, allowed: Self.attributeKeys, in: "attribute \(label)")
            attribute(property, type: type, at: path, label: label)
        case (nil, let destination?):
            unknownKeys(of: property, at: path, allowed: Self.relationshipKeys, in: "relationship \(label)")
            relationship(property, destination: destination, at: path, label: label, among: entities)
            if let (inverse, target) = Self.pluralToOne(property, named: name, of: entity, among: entities) {
                problems.append(
                    Problem(
                        path: path, severity: .note,
                        message:
                            "\(label) and \(target).\(inverse) are each other's inverse and both to-one (a one-to-one), but \"\(name)\" reads as plural; if a\(Self.article(entity)) \(entity) has many \(target) documents, add \"toMany\": true to \(label): as written, queries of \(label) find nothing that \(target).\(inverse) records"
                    ))
            }
        }
        return name
    }

    private mutating func attribute(_ property: JSONObject, type: JSONValue, at path: JSONPath, label: String) {
        guard case .string(let typeName) = type else {
            return error(path.appending("type"), "the type of \(label) is \(type), not a type name like \"String\"")
        }
        if StoredType.nestsTooDeep(typeName) {
            return error(
                path.appending("type"),
                "the type of \(label) (\(StoredType.shortName(typeName))) nests more than \(StoredType.deepestNesting) collections, deeper than Folio stores"
            )
        }
        let known = ScalarType.names
        for other in StoredType.otherTypeNames(in: typeName)
        where property["cases"] == nil && property["transformer"] == nil {
            let near = Spelling.nearest(to: other, among: known)
            if !allowsAppTypes, let problem = Self.problem(withTypeName: other) {
                error(path.appending("type"), "\(label) has type \"\(typeName)\", and \(problem)")
            } else if allowsAppTypes, let near, Self.isTypo(other, of: near) {
                problems.append(
                    Problem(
                        path: path.appending("type"), severity: .note,
                        message:
                            "\(label) has type \"\(typeName)\": \(other) is an app's own type to Folio, whose values it does not check; did you mean \(near)?"
                    ))
            }
        }
        if let optional = property["optional"], !optional.isBoolean {
            error(path.appending("optional"), "\"optional\" of \(label) is \(optional), not true or false")
        }
        if let options = property["options"] {
            for (index, option) in (options.arrayValue ?? [options]).enumerated()
            where !(option.stringValue.map(Self.options.contains) ?? false) {
                error(
                    path.appending("options").appending(index),
                    "\(option) is not an option of \(label); the options are \(Self.options.map { "\"\($0)\"" }.joined(separator: ", "))"
                )
            }
        }
        if let generated = property["generated"], !["now", "uuid"].contains(generated.stringValue ?? "") {
            error(
                path.appending("generated"),
                "\"generated\" of \(label) is \(generated), but only \"now\" and \"uuid\" are made by Folio")
        }
        if let cases = property["cases"], cases.arrayValue == nil {
            error(
                path.appending("cases"),
                "the schema's \"cases\" of \(label) is \(cases), not a list of the enum's raw values; fix it, or let the app's next open write it again"
            )
        }
        for key in ["originalName", "transformer"] {
            if let value = property[key], value.stringValue == nil {
                error(path.appending(key), "\"\(key)\" of \(label) is \(value), not a name")
            }
        }
    }

    private mutating func relationship(
        _ property: JSONObject, destination: JSONValue, at path: JSONPath, label: String, among entities: JSONObject
    ) {
        guard case .string(let target) = destination else {
            return error(
                path.appending("destination"), "the destination of \(label) is \(destination), not an entity's name")
        }
        guard let targetEntity = entities[target] else {
            return error(
                path.appending("destination"),
                "\(label) refers to \"\(target)\", which is not one of the schema's entities\(suggestion(target, among: entities.keys))"
            )
        }
        if let toMany = property["toMany"], !toMany.isBoolean {
            error(path.appending("toMany"), "\"toMany\" of \(label) is \(toMany), not true or false")
        }
        if let rule = property["deleteRule"], !(rule.stringValue.map(Self.deleteRules.contains) ?? false) {
            error(
                path.appending("deleteRule"),
                "\"deleteRule\" of \(label) is \(rule); it may be \(Self.deleteRules.map { "\"\($0)\"" }.joined(separator: ", "))"
            )
        }
        if let inverse = property["inverse"] {
            let back = (targetEntity["properties"]?.arrayValue ?? []).compactMap {
                $0["destination"] == nil ? nil : $0["name"]?.stringValue
            }
            if let name = inverse.stringValue, !back.contains(name) {
                error(
                    path.appending("inverse"),
                    "\(label)'s inverse \"\(name)\" is not a relationship of \(target)\(suggestion(name, among: back))")
            } else if inverse.stringValue == nil {
                error(path.appending("inverse"), "\"inverse\" of \(label) is \(inverse), not a relationship's name")
            }
        }
        for key in ["minimumModelCount", "maximumModelCount"] {
            guard let count = property[key] else { continue }
            if case .integer(let whole) = count, whole >= 0 { continue }
            error(
                path.appending(key),
                "the schema's \"\(key)\" of \(label) is \(count), not a count of models; fix it, or let the app's next open write it again"
            )
        }
    }

    /// The inverse of a to-one relationship whose name reads as plural (`todoItems`) and whose
    /// inverse is a to-one too, with the inverse's entity: a schema written by hand that left
    /// out `"toMany"` there made a one-to-one of what is one-to-many (or many-to-many). The
    /// documents an app wrote do not hold such a to-many (the other side does), so a query of
    /// it matches nothing, without a word. `nil` for any other relationship: a one-to-one
    /// named in the singular, or named as its destination is (`settings` of `Settings`).
    static func pluralToOne(_ property: JSONObject, named name: String, of entity: String, among entities: JSONObject)
        -> (inverse: String, entity: String)?
    {
        guard property["toMany"] != .bool(true), case .string(let target)? = property["destination"],
            Self.readsAsPlural(name, destination: target)
        else { return nil }
        let back = (entities[target]?["properties"]?.arrayValue ?? []).compactMap(\.objectValue).filter {
            $0["destination"] == .string(entity)
        }
        let inverse =
            property["inverse"]?.stringValue.flatMap { named in back.first { $0["name"] == .string(named) } }
            ?? back.first { $0["inverse"] == .string(name) }
        guard let inverse, inverse["toMany"] != .bool(true), let inverseName = inverse["name"]?.stringValue else {
            return nil
        }
        return (inverseName, target)
    }

    /// Whether a relationship's name reads as many of its destination: an English plural
    /// (`todoItems`, `entries`, `children`) where the destination's own name does not read so.
    static func readsAsPlural(_ name: String, destination: String) -> Bool {
        func plural(_ word: String) -> Bool {
            let lower = word.lowercased()
            if lower.hasSuffix("children") || lower.hasSuffix("people") { return true }
            return lower.hasSuffix("s") && !["ss", "us", "is"].contains { lower.hasSuffix($0) }
        }
        return plural(name) && !plural(destination)
    }

    /// "n" before a name that starts with a vowel, for "a"/"an".
    private static func article(_ name: String) -> String {
        "AEIOUaeiou".contains(name.first ?? "x") ? "n" : ""
    }

    /// Whether a type name is Folio's own with a letter missing or added, or in other
    /// case (`Strin`, `Boool`, `uuid`): an app's own type is more likely one letter *changed*
    /// (`Pool`, `Rate`), so those are left alone.
    private static func isTypo(_ name: String, of known: String) -> Bool {
        name.lowercased() == known.lowercased()
            || (abs(name.count - known.count) == 1 && Spelling.distance(name.lowercased(), known.lowercased()) == 1)
    }

    private func suggestion(_ name: String, among names: some Sequence<String>) -> String {
        Spelling.nearest(to: name, among: names).map { "; did you mean \($0)?" } ?? ""
    }
}

extension JSONValue {
    /// Whether the value is `true` or `false`.
    fileprivate var isBoolean: Bool { if case .bool = self { true } else { false } }
}
