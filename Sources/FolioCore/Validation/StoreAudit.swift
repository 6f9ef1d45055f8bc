import FolioJSON
import Foundation

/// The checks of one document against the manifest's schema, with the documents it points
/// at: what `StoreCheck` runs on each document of a store, and an edit on the one it writes.
struct StoreAudit {
    let schema: QuerySchema
    /// The manifest's schema as written, for what `QuerySchema` leaves out (options, inverses).
    let described: StoredSchema
    let version: String
    let calendar: Calendar

    /// Rules beyond the schema that the manifest records.
    let rules: StoreRules

    init(_ manifest: StoreManifest) {
        self.init(manifest, schema: QuerySchema(manifest.storedSchema))
    }

    /// The audit of a manifest whose schema is already built for queries (`QuerySchema` of
    /// its stored schema): building it again costs more than checking a small document.
    init(_ manifest: StoreManifest, schema: QuerySchema) {
        self.schema = schema
        self.described = manifest.storedSchema
        self.version = manifest.schemaVersion
        self.calendar = manifest.calendar
        self.rules = manifest.rules
    }

    /// The constraints that keep a value single among an entity's documents: its `#Unique`
    /// lists, its `.unique` attributes and the manifest's rules.
    func uniquenessConstraints(of entity: QuerySchema.Entity) -> [[String]] {
        let properties = described.entity(named: entity.name)?.properties ?? []
        var constraints = entity.uniquenessConstraints
        for attribute in properties.filter({ $0.has(.unique) }).compactMap(\.name)
        where !constraints.contains([attribute]) {
            constraints.append([attribute])
        }
        for rule in rules.unique[entity.name] ?? [] where !constraints.contains(rule) { constraints.append(rule) }
        return constraints
    }

    /// Values of a uniqueness constraint as findings show them: `"name" "home"`, or
    /// `(day, hour) = ("mon", 9)`.
    static func shown(_ key: [JSONValue], of constraint: [String]) -> String {
        constraint.count == 1
            ? "\"\(constraint[0])\" \(key[0])"
            : "(\(constraint.joined(separator: ", "))) = (\(key.map(\.description).joined(separator: ", ")))"
    }

    /// The values a document holds for a uniqueness constraint, or `nil` when one of them is
    /// missing or `null`: as in SQL, and as an inserted model's upsert matches, such a value
    /// is unique to itself and matches no other document's.
    static func uniqueKey(_ constraint: [String], of content: JSONObject) -> [JSONValue]? {
        var key: [JSONValue] = []
        for name in constraint {
            guard let value = content[name], value != .null else { return nil }
            key.append(value)
        }
        return key
    }

    /// A document's own problems: metadata, properties, relationship targets, folder;
    /// `related` finds the content of a document by entity and identity. Whether the
    /// related documents point back is checked when `inverses` (an edit leaves that to
    /// `changes(putting:over:)`, which updates them).
    func problems(
        of content: JSONObject, at path: DocumentPath, entity: QuerySchema.Entity, inverses: Bool = true,
        related: (String, UUID) -> JSONObject?
    ) -> [(key: String?, StoreFinding.Severity, String)] {
        var found: [(String?, StoreFinding.Severity, String)] = []
        switch content[ReservedKey.entity] {
        case .string(entity.name): break
        case nil: found.append(("$entity", .error, "\"$entity\" is missing; it should be \"\(entity.name)\""))
        case let other?:
            found.append(
                ("$entity", .error, "\"$entity\" is \(other), but the file is in the \(entity.storageName) folder"))
        }
        switch content[ReservedKey.version] {
        case .string(version):
            break  // the store's own version, as nearly every document has it
        case .string(let written):
            if let written = Schema.Version(written), let current = Schema.Version(version), written > current {
                found.append(
                    (
                        "$version", .error,
                        "written by schema \(written), newer than the store's \(current); update the app before editing this store"
                    ))
            } else if let written = Schema.Version(written), let current = Schema.Version(version), written < current {
                found.append(
                    (
                        "$version", .note,
                        "written by schema \(written), older than the store's \(current): a migration that did not change it left it so, or an older app wrote it since; the app's next save of it brings it up"
                    ))
            } else if Schema.Version(written) == nil {
                found.append(("$version", .error, "\"$version\" \"\(written)\" is not a version like \"1.0.0\""))
            }
        default:
            found.append(
                (
                    "$version", .error,
                    "\"$version\" is missing or not a string; it names the schema version that wrote the document"
                ))
        }
        if let deleted = content[ReservedKey.deleted], (try? Date(json: deleted)) == nil {
            found.append(("$deleted", .error, "\"$deleted\" is not a time like \"2026-11-22T09:30:00Z\""))
        }
        let identityKey = entity.hasOwnIdentity ? "id" : ReservedKey.identity
        if let identity = content[identityKey], identity != .string(path.id.uuidString) {
            found.append(
                (
                    identityKey, .error,
                    "\"\(identityKey)\" is \(identity), but the file is named \(path.id.uuidString); they must agree"
                ))
        } else if content[identityKey] == nil {
            found.append(
                (nil, .error, "\"\(identityKey)\" is missing; it should be \"\(path.id.uuidString)\", the file's name"))
        }
        // A model with its own `id` does not write "$id"; one there (a merge, a hand edit) must still name this file.
        if identityKey != ReservedKey.identity, let other = content[ReservedKey.identity],
            other != .string(path.id.uuidString)
        {
            found.append(
                ("$id", .error, "\"$id\" is \(other), but the file is named \(path.id.uuidString); they must agree"))
        }
        for (name, property) in entity.properties {
            let value = content[name]
            switch property {
            case .attribute(_, let typeName, let isOptional):
                // An ephemeral value is never written, and external storage is its own file.
                guard !entity.unstored.contains(name) else { continue }
                guard let value else {
                    if !isOptional {
                        found.append((nil, .error, "required property \"\(name)\" (\(typeName)) is missing"))
                    }
                    continue
                }
                if value == .null {
                    if !isOptional { found.append((name, .error, "\"\(name)\" is null, but \(typeName) is required")) }
                } else if let problem = entity.storedType(of: name, typeName: typeName).problem(with: value) {
                    found.append(
                        (name, .error, "\"\(name)\" is not a valid \(StoredType.shortName(typeName)): \(problem)"))
                }
            case .relationship(let destination, let isToMany, let storedInverse):
                guard storedInverse == nil, let value, value != .null else { continue }
                let targets: [JSONValue] = isToMany ? (value.arrayValue ?? [value]) : [value]
                if isToMany, value.arrayValue == nil {
                    found.append((name, .error, "\"\(name)\" should be an array of \(destination) identifiers"))
                    continue
                }
                for target in targets {
                    guard let text = target.stringValue, let id = UUIDText.parse(text) else {
                        found.append(
                            (name, .error, "\"\(name)\" holds \(target), which is not a \(destination) identifier"))
                        continue
                    }
                    guard let target = related(destination, id) else {
                        found.append(
                            (
                                name, .error,
                                "\"\(name)\" points at \(destination) \(text), which the store does not hold"
                            ))
                        continue
                    }
                    if inverses, let inverse = inverse(of: name, in: entity.name),
                        let back = oneSided(target, of: destination, inverse: inverse, pointingAt: path.id)
                    {
                        found.append(
                            (
                                name, .error,
                                "\"\(name)\" points at \(destination) \(text), but its \"\(inverse)\" \(back)"
                            ))
                    }
                }
            }
        }
        if let partition = entity.partitionProperty, let value = content[partition], let date = try? Date(json: value) {
            let day = Day(date, in: calendar)
            if day != path.day {
                found.append(
                    (
                        nil, .error,
                        "the file is in the folder of \(path.day), but its \"\(partition)\" falls on \(day); move it to \(entity.name)/\(day.folder)/"
                    ))
            }
        }
        let known = entity.propertyNames.isEmpty ? Set(entity.properties.map(\.name)) : entity.propertyNames
        for member in content where !member.key.hasPrefix("$") && !known.contains(member.key) {
            let suggestion =
                Spelling.nearest(to: member.key, among: known.subtracting(content.keys)).map {
                    " (did you mean \"\($0)\"?)"
                } ?? ""
            found.append(
                (member.key, .note, "\"\(member.key)\" is not in the schema\(suggestion); Folio keeps it as it is"))
        }
        return found
    }

    /// A merge conflict as a finding: both values (and the base), and how to settle it.
    static func message(for conflict: MergeConflict, path: String) -> String {
        func shown(_ value: JSONValue?) -> String {
            guard let value else { return "(absent)" }
            return (try? JSONWriter().line(for: value)) ?? value.description
        }
        return
            "\"\(conflict.property)\" has a merge conflict: ours \(shown(conflict.ours)), theirs \(shown(conflict.theirs)) (base \(shown(conflict.base))); "
            + "settle it with `folio resolve \(path) --ours`, `--theirs` or `\(conflict.property)=<value>`"
    }

    /// The inverse a stored relationship names, as the manifest describes it.
    func inverse(of relationship: String, in entity: String) -> String? {
        described.entity(named: entity)?.property(named: relationship)?.inverse
    }

    /// Why the related document's inverse does not record the link back, or `nil` when it does
    /// (or keeps nothing, as a to-many whose inverse is a to-one).
    private func oneSided(_ related: JSONObject, of entity: String, inverse: String, pointingAt id: UUID) -> String? {
        guard
            case .relationship(_, let isToMany, let storedInverse)? = schema.entities[entity]?.property(named: inverse),
            storedInverse == nil
        else { return nil }
        let back = related[inverse] ?? .null
        let text = JSONValue.string(id.uuidString)
        if isToMany ? back.arrayValue?.contains(text) == true : back == text { return nil }
        return "does not point back (\(back == .null ? "it is null" : "it holds \(back)"))"
    }
}

extension DocumentStore {
    /// The audit of the store's manifest as it is now, on the schema the store already built
    /// from it: a document's checks ask for one each.
    var audit: StoreAudit {
        let (schema, manifest) = memory.schemaAndManifest
        return StoreAudit(manifest, schema: schema)
    }
}
