import ArgumentParser
import FolioCore
import FolioJSON
import Foundation

/// Which documents a command acts on: one by its id (whole, or its start as a table shows
/// it) or path, or every document of an entity that a query matches
/// (`folio delete Timer 'name == "Tea"'`).
struct DocumentTarget: ParsableArguments {
    @Argument(
        help: ArgumentHelp(
            "A document's id (a UUID, or its first 4 or more digits) or path, or an entity name followed by a query.",
            valueName: "document-or-entity"))
    var target: String

    @Argument(
        help: ArgumentHelp(
            "With an entity: the query the documents must match (all of them when left out, with --all).",
            valueName: "query"))
    var query: String?

    @Flag(help: "With an entity and no query: act on all of its documents.")
    var all = false

    /// The documents named, soft-deleted ones included when `includeDeleted`.
    func documents(in store: DocumentStore, includeDeleted: Bool) throws(FolioError) -> [StoredDocument] {
        let named = try Self.document(target, orEntity: true, in: store)
        guard query != nil || all || named != nil else {
            throw .invalidInput(
                "\(target) is an entity: give a query for the documents (e.g. 'name == \"Tea\"'), or --all for every one"
            )
        }
        return try Self.resolve(target, query: query, includeDeleted: includeDeleted, in: store)
    }

    /// The document an id or path names, or the documents of an entity a query matches (all without one).
    static func resolve(_ target: String, query: String?, includeDeleted: Bool = false, in store: DocumentStore)
        throws(FolioError) -> [StoredDocument]
    {
        if let document = try Self.document(target, orEntity: true, in: store) {
            guard query == nil else {
                throw .invalidInput("a query follows an entity name, not a document (\(target))")
            }
            return [document]
        }
        let filter = try query.map { text throws(FolioError) in try store.parseQuery(text, entity: target) }
        let result = try store.query(DocumentQuery(entity: target, filter: filter, includeDeleted: includeDeleted))
        return result.matches.compactMap(\.stored)
    }

    /// The document a UUID, the start of one (see `IDPrefix`: a table's short id) or a path
    /// names, or nil when the text is none of them or names an entity; throws when it is
    /// one but the store holds no such document, or, for the start of an id, several.
    /// `orEntity`: the command takes an entity's name there too.
    static func document(_ text: String, orEntity: Bool = false, in store: DocumentStore) throws(FolioError)
        -> StoredDocument?
    {
        if UUID(uuidString: text) == nil, let prefix = IDPrefix(text),
            store.manifest.storedSchema.entity(named: text) == nil
        {
            return try IDLookup.document(startingWith: prefix, orEntity: orEntity, in: store)
        }
        if let id = UUID(uuidString: text) {
            for entity in store.documentCounts.keys.sorted() {
                if let document = store.document(entity: entity, id: id) { return document }
            }
            // A file of that name the store could not read says why, with its line and column.
            let name = "/" + id.uuidString + ".JSON"
            if let issue = store.issues.first(where: { $0.path.uppercased().hasSuffix(name) }) { throw issue.error }
            throw .notFound("no document in the store at \(store.root) has the identity \(text)")
        }
        guard text.hasSuffix(".json") else { return nil }
        let relative = text.hasPrefix(store.root + "/") ? String(text.dropFirst(store.root.count + 1)) : text
        guard let path = DocumentPath(relativePath: relative) else {
            throw .invalidInput("\(text) is not a document path like Timer/2026/11/22/<UUID>.json")
        }
        guard let document = store.document(entity: path.entity, id: path.id) else {
            // A file that is there but unreadable says why, with its line and column.
            if let issue = store.issues.first(where: { $0.path == relative }) { throw issue.error }
            throw .notFound("the store at \(store.root) holds no document at \(relative)")
        }
        return document
    }
}

/// `name=value` assignments, read by the property's type in the manifest: text for a
/// `String` property, a date for a `Date` one (`now`, `today`, `2026-11-22`,
/// `2026-11-22 09:30` in the store's time zone, or `2026-11-22T09:30:00Z`), else JSON
/// (`count=3`, `done=true`, `tags=["a"]`), else text. `name:=json` always reads JSON.
enum Assignment {
    /// Whether an argument is `property=value` or `property:=json`: a name, then `=` (not
    /// a query's `==`) or `:=`. Anything else after an entity is its query, whatever
    /// operators it uses (`isCompleted`, `!isCompleted`, `name ~= "^Work"`, `note == "a=b"`).
    static func isAssignment(_ text: String) -> Bool {
        let name = text.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        guard let first = name.first, !first.isNumber else { return false }
        let rest = text.dropFirst(name.count)
        return (rest.hasPrefix("=") && !rest.hasPrefix("==")) || rest.hasPrefix(":=")
    }

    static func values(_ assignments: [String], entity: String, in store: DocumentStore) throws(FolioError)
        -> JSONObject
    {
        var values = JSONObject()
        for assignment in assignments {
            guard let equals = assignment.firstIndex(of: "=") else {
                throw .invalidInput("\(assignment) is not an assignment; write property=value (or property:=json)")
            }
            var name = String(assignment[..<equals])
            let text = String(assignment[assignment.index(after: equals)...])
            if name.hasSuffix(":") {
                name.removeLast()
                do {
                    values[name] = try JSONReader().read(text)
                } catch {
                    throw .invalidValue("\(name):=\(text): the value is not JSON: \(error.message)")
                }
                continue
            }
            if let id = try relatedID(text, property: name, entity: entity, in: store) {
                values[name] = .string(id)
                continue
            }
            values[name] = value(
                text, type: type(of: name, entity: entity, in: store), timeZone: store.manifest.timeZone)
        }
        return values
    }

    /// The whole id of the document a to-one relationship's value names by the start of its
    /// id, as a table shows it (`timer=0F6C1E2A`); `nil` for any other value or property.
    static func relatedID(_ text: String, property: String, entity: String, in store: DocumentStore)
        throws(FolioError) -> String?
    {
        guard UUID(uuidString: text) == nil, let prefix = IDPrefix(text),
            let described = store.describedProperties(of: entity).first(where: { $0.name == property }),
            described.isRelationship, !described.isToMany
        else { return nil }
        return try IDLookup.document(startingWith: prefix, in: store).id.uuidString
    }

    /// A field's text as the value its type wants: CSV import uses this too. A date that
    /// `DateInput` cannot read stays text, which the schema check then refuses with its form.
    static func value(_ text: String, type: String?, timeZone: TimeZone) -> JSONValue {
        if type == "String" || type == "Optional<String>" { return .string(text) }
        if type == "Date" || type == "Optional<Date>", let date = DateInput.date(text, timeZone: timeZone) {
            return date.json
        }
        if let json = try? JSONReader().read(text) { return json }
        return .string(text)
    }

    /// The type name the manifest gives a property.
    static func type(of property: String, entity: String, in store: DocumentStore) -> String? {
        store.describedProperties(of: entity).first { $0.name == property }?.typeName
    }
}
