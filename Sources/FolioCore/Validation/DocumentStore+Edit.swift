import FolioJSON
import Foundation

/// Documents written by hand or by the command line, shaped and checked by the
/// manifest's schema, so they read back exactly as the app's models would write them.
///
/// These build the next version of a document; `commit` writes it. Nothing here writes.
extension DocumentStore {
    /// A new document of an entity from property values: metadata first, then the
    /// properties in declaration order. A property left out takes the initial value its
    /// declaration gives, as `folio.json` records it (a constant, the moment, a new UUID);
    /// else an optional one is `null`, and a required one is an error. The identity is
    /// `values["id"]` for an entity that declares `id`, else `values["$id"]`; a new one when absent.
    ///
    /// Throws when a name is not a property of the entity (suggesting the nearest), or
    /// when the document would break the schema (a missing required property, a wrong type,
    /// a relationship pointing at nothing).
    ///
    /// - Throws: `.notFound` for an entity or property the schema lacks (suggesting the nearest),
    ///   `.invalidValue` when the document would not fit the schema.
    public func newDocument(entity name: String, values: JSONObject) throws(FolioError) -> Document {
        let (schema, manifest) = memory.schemaAndManifest
        let version = manifest.schemaVersion
        let entity = try schema.entity(name, in: root)
        try entity.checkNames(values.keys.filter { !$0.hasPrefix("$") })
        // The identity given: `id` for a model that declares one, else `"$id"` (as an export writes it).
        let identityKey = entity.hasOwnIdentity ? "id" : ReservedKey.identity
        let id: UUID
        if let given = values[identityKey] {
            guard let text = given.stringValue, let parsed = UUIDText.parse(text) else {
                throw .invalidValue(
                    "\(name).\(identityKey) must be a UUID like \"\(UUID().uuidString)\", not \(given)")
            }
            id = parsed
        } else {
            id = UUID()
        }
        var content: JSONObject = [ReservedKey.entity: .string(name), ReservedKey.version: .string(version)]
        if !entity.hasOwnIdentity { content[ReservedKey.identity] = .string(id.uuidString) }
        for (property, kind) in entity.properties {
            if let value = values[property] {
                content[property] = value
            } else if property == "id", entity.hasOwnIdentity {
                content[property] = .string(id.uuidString)
            } else if case .relationship(_, true, .some) = kind {
                continue  // kept by the documents on the other side
            } else if case .relationship(_, true, nil) = kind {
                content[property] = .array([])
            } else if let initial = entity.initialValues[property] {
                content[property] = initial.json
            } else if case .attribute(_, _, true) = kind {
                content[property] = .null
            }
        }
        return try checked(content, id: id, entity: entity, basedOn: nil)
    }

    /// A stored document with some properties set to new values, in place.
    ///
    /// - Throws: `.notFound` for an entity or property the schema lacks (suggesting the nearest),
    ///   `.invalidValue` when the document would not fit the schema.
    public func document(_ stored: StoredDocument, setting values: JSONObject) throws(FolioError) -> Document {
        let entity = try memory.schema.entity(stored.entity, in: root)
        try entity.checkNames(values.keys)
        var content = stored.content
        for member in values { content[member.key] = member.value }
        return try checked(content, id: stored.id, entity: entity, basedOn: stored.path)
    }

    /// A stored document replaced by a whole new content, as a person edited it.
    ///
    /// - Throws: `.notFound` for an entity the schema lacks, `.invalidValue` when the content would
    ///   not fit the schema.
    public func document(_ stored: StoredDocument, replacingWith content: JSONObject) throws(FolioError) -> Document {
        let schema = memory.schema
        // A subclass's document is checked as its own entity, which may be another one of the hierarchy after the edit.
        if let own = schema.entity(of: content, inFolder: stored.entity) {
            return try checked(content, id: stored.id, entity: own, basedOn: stored.path)
        }
        return try checked(
            content, id: stored.id, entity: try schema.entity(stored.entity, in: root), basedOn: stored.path)
    }

    /// What would be wrong with this content as the document at `path`: the findings
    /// `check` would report for it against the store as it is.
    public func findings(for content: JSONObject, at path: DocumentPath) -> [StoreFinding] {
        findings(for: content, at: path, inverses: true)
    }

    private func findings(for content: JSONObject, at path: DocumentPath, inverses: Bool) -> [StoreFinding] {
        let audit = self.audit
        guard let entity = audit.schema.entities[path.entity] else {
            return [
                StoreFinding(
                    .error, path: path.relativePath, message: "entity \(path.entity) is not in the manifest's schema")
            ]
        }
        let own = audit.schema.entity(of: content, inFolder: path.entity) ?? entity
        return audit.problems(of: content, at: path, entity: own, inverses: inverses) {
            self.document(entity: $0, id: $1)?.content
        }
        .map { StoreFinding($0.1, path: path.relativePath, message: $0.2) }
    }

    /// The document as a `Document` to commit, or the first error the schema finds in it.
    private func checked(_ content: JSONObject, id: UUID, entity: QuerySchema.Entity, basedOn: DocumentPath?)
        throws(FolioError) -> Document
    {
        let calendar = manifest.calendar
        let partitionDate = entity.partitionProperty.flatMap { content[$0] }.flatMap { try? Date(json: $0) }
        let day = partitionDate.map { Day($0, in: calendar) } ?? basedOn?.day ?? Day(Date(), in: calendar)
        let path = try DocumentPath(entity: entity.storageName, day: day, id: id)
        let errors = findings(for: content, at: path, inverses: false).filter { $0.severity == .error }
        if let first = errors.first {
            let reasons = errors.count == 1 ? first.message : errors.map(\.message).joined(separator: "; ")
            let document = basedOn == nil ? "a new \(entity.name)" : "\(entity.name) \(id)"
            throw .invalidValue("\(document) would not fit the schema, so nothing was written: \(reasons)")
        }
        return Document(entity: entity.storageName, id: id, partitionDate: partitionDate, content: content)
    }
}

extension QuerySchema {
    /// The entity of this name, or an error that suggests the nearest one.
    func entity(_ name: String, in root: String) throws(FolioError) -> Entity {
        guard let entity = entities[name] else {
            let names = entities.keys.sorted()
            guard !names.isEmpty else {
                throw .notFound(
                    "\(name) is not an entity of the store at \(root), whose schema has none yet: add one with `folio schema add-entity`, then run the stage with `folio migrate` (or pass --apply)"
                )
            }
            let hint = Spelling.nearest(to: name, among: names).map { "did you mean \($0)? " } ?? ""
            throw .notFound(
                "\(name) is not an entity of the store at \(root); \(hint)it has: \(names.joined(separator: ", "))")
        }
        return entity
    }
}

extension QuerySchema.Entity {
    /// Throws for the first name that is not a property, suggesting the nearest.
    func checkNames(_ names: some Sequence<String>) throws(FolioError) {
        let known = properties.map(\.name)
        for name in names where !known.contains(name) {
            let hint = Spelling.nearest(to: name, among: known).map { "did you mean \($0)? " } ?? ""
            throw .notFound(
                "\(self.name) has no property \(name); \(hint)its properties are \(known.joined(separator: ", "))")
        }
    }
}
