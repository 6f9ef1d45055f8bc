import FolioCore
import FolioJSON
import Foundation

/// The columns of an entity's CSV, which `folio export --format csv` writes and `folio
/// import` reads: a document per row, a member per cell (see `CSVCell`).
///
/// The columns: `$id` for a model without its own `id`; every property the documents
/// hold, in declaration order (those of entities inheriting from the one exported after
/// its own); `$entity` when some document is of an inheriting entity; `$deleted` (the
/// moment of a soft delete) with `--include-deleted`; and `$unknown`, a JSON object of the
/// members the schema does not know, when some document has any.
struct CSVLayout {
    /// What a column holds.
    enum Role: Equatable {
        /// The identity of a model without its own `id` (`"$id"`).
        case identity
        /// A property of the entity or of an entity inheriting from it.
        case property(String)
        /// The row's entity, when it is one inheriting from the entity (`"$entity"`).
        case entity
        /// The moment of a soft delete (`"$deleted"`).
        case deleted
        /// The members the schema does not know, as one JSON object (`"$unknown"`).
        case unknown
    }

    /// A column: its header and what it holds.
    struct Column {
        var name: String
        var role: Role
    }

    /// The column names that are no property's: property names are identifiers.
    static let identityName = "$id"
    static let entityName = "$entity"
    static let deletedName = "$deleted"
    static let unknownName = "$unknown"

    /// The entity exported or imported.
    let entity: String
    /// The columns, in order.
    private(set) var columns: [Column] = []
    /// The entity and those inheriting from it, each with how each property column it
    /// has reads (by column index); a column missing from an entity's table is not its property.
    private var readings: [String: [Int: CSVCell.Reading]] = [:]
    /// The properties of each entity the rows may be of, by name.
    private var properties: [String: [String: StoredSchema.Property]] = [:]
    private let timeZone: TimeZone
    /// Whether the entity's documents are named by their own `id` (else by `"$id"`).
    private let hasOwnIdentity: Bool

    /// The layout that carries these documents of `entity` (and of entities inheriting from it).
    init(exporting entity: String, documents: [StoredDocument], includeDeleted: Bool, store: DocumentStore) {
        self.init(entity: entity, store: store)
        var names: [String] = []
        var seen: Set<String> = []
        for described in store.entityFamily(of: entity) {
            for property in described.properties {
                guard let name = property.name, !seen.contains(name) else { continue }
                // A value the documents do not hold is a column only when some document holds it anyway.
                guard store.isStored(property) || documents.contains(where: { $0.content[name] != nil })
                else { continue }
                seen.insert(name)
                names.append(name)
            }
        }
        if !hasOwnIdentity { columns.append(Column(name: Self.identityName, role: .identity)) }
        columns += names.map { Column(name: $0, role: .property($0)) }
        if documents.contains(where: { $0.content["$entity"] != .string(entity) }) {
            columns.append(Column(name: Self.entityName, role: .entity))
        }
        if includeDeleted || documents.contains(where: { $0.content["$deleted"] != nil }) {
            columns.append(Column(name: Self.deletedName, role: .deleted))
        }
        if documents.contains(where: { !unknownMembers(of: $0.content).isEmpty }) {
            columns.append(Column(name: Self.unknownName, role: .unknown))
        }
        makeReadings()
    }

    /// The layout a CSV file's header names; throws for a name that is no column of `entity`.
    init(importing header: [CSV.Field], entity: String, store: DocumentStore) throws(FolioError) {
        self.init(entity: entity, store: store)
        let propertyNames = properties.values.flatMap(\.keys)
        let known = Set(propertyNames)
        for field in header {
            let name = field.text
            let role: Role
            switch name {
            case Self.identityName where !hasOwnIdentity: role = .identity
            // "id" for a model without one: an identity as earlier exports wrote it.
            case "id" where !known.contains("id"): role = .identity
            case Self.entityName: role = .entity
            case Self.deletedName: role = .deleted
            case Self.unknownName: role = .unknown
            case _ where known.contains(name): role = .property(name)
            default:
                let names = properties[entity].map { $0.keys.sorted() } ?? []
                let identity = hasOwnIdentity ? "" : "\(Self.identityName), "
                throw .invalidInput(
                    "line 1 of a CSV file is its header, naming a property of \(entity) in each column, but \"\(name)\" is not one (they are \(names.joined(separator: ", ")); and \(identity)\(Self.entityName), \(Self.deletedName), \(Self.unknownName)); add the header line, or rename the column"
                )
            }
            if let earlier = columns.first(where: { $0.role == role }) {
                throw .invalidInput(
                    "line 1: the header names \"\(earlier.name)\" and \"\(name)\", which are the same column; keep one")
            }
            columns.append(Column(name: name, role: role))
        }
        makeReadings()
    }

    private init(entity: String, store: DocumentStore) {
        self.entity = entity
        timeZone = store.manifest.timeZone
        for described in store.entityFamily(of: entity) {
            var byName: [String: StoredSchema.Property] = [:]
            for property in described.properties {
                if let name = property.name, byName[name] == nil { byName[name] = property }
            }
            properties[described.name] = byName
        }
        let id = properties[entity]?["id"]
        hasOwnIdentity = id?.destination == nil && id?.typeName == "UUID" && id?.isOptional == false
    }

    /// How each property column reads for each entity that has the property.
    private mutating func makeReadings() {
        for (name, byName) in properties {
            var table: [Int: CSVCell.Reading] = [:]
            for (index, column) in columns.enumerated() {
                guard case .property(let property) = column.role, let described = byName[property] else { continue }
                table[index] = Self.reading(of: described, timeZone: timeZone)
            }
            readings[name] = table
        }
    }

    /// How a property's cells read: by its type, an empty cell null when it may be.
    static func reading(of property: StoredSchema.Property, timeZone: TimeZone) -> CSVCell.Reading {
        if property.destination != nil {
            return CSVCell.Reading(kind: property.isToMany ? .json : .text, blankIsNull: true, timeZone: timeZone)
        }
        var type = property.typeName ?? ""
        var optional = property.isOptional
        if type.hasPrefix("Optional<"), type.hasSuffix(">") {
            type = String(type.dropFirst("Optional<".count).dropLast())
            optional = true
        }
        let kind: CSVCell.Kind =
            switch type {
            case _ where property.transformer != nil: .text
            case "String", "UUID", "URL", "Data": .text
            case "Date": .date
            default: .json
            }
        return CSVCell.Reading(kind: kind, blankIsNull: optional, timeZone: timeZone)
    }

    /// How a metadata column reads: an empty cell is no member, and sets nothing.
    private func reading(of role: Role) -> CSVCell.Reading {
        let kind: CSVCell.Kind =
            switch role {
            case .deleted: .date
            case .unknown: .json
            default: .text
            }
        return CSVCell.Reading(kind: kind, blankIsNull: false, marksAbsence: false, timeZone: timeZone)
    }

    /// The header line.
    var header: String {
        columns.map { CSV.written($0.name) }.joined(separator: ",")
    }

    /// The members of a document that are not metadata and not properties of its entity.
    private func unknownMembers(of content: JSONObject) -> JSONObject {
        let own = properties[content["$entity"]?.stringValue ?? entity] ?? properties[entity] ?? [:]
        return JSONObject(content.filter { !$0.key.hasPrefix("$") && own[$0.key] == nil }.map { ($0.key, $0.value) })
    }

    /// A document as a CSV line; what the line cannot carry exactly is added to `problems`,
    /// one message each naming the document and the column.
    func line(for document: StoredDocument, raw: Bool, store: DocumentStore, problems: inout [String]) -> String {
        let content = document.content
        let stated = content["$entity"]?.stringValue
        let own = stated.flatMap { readings[$0] == nil ? nil : $0 } ?? entity
        let name = "\(own) \(document.id.uuidString)"
        if stated.flatMap({ readings[$0] }) == nil {
            problems.append(
                "\(name): \"$entity\" is \(Self.shown(content["$entity"])), which is neither \(entity) nor an entity inheriting from it"
            )
        }
        let identityKey = hasOwnIdentity ? "id" : "$id"
        if content[identityKey] != .string(document.id.uuidString) {
            problems.append(
                "\(name): \"\(identityKey)\" is \(Self.shown(content[identityKey])), not the identity its file is named by, which an import would give it"
            )
        }
        for member in content where member.key.hasPrefix("$") {
            switch member.key {
            case "$entity", "$version": continue
            case "$id" where !hasOwnIdentity: continue
            case "$deleted" where columns.contains(where: { $0.role == .deleted }): continue
            case "$conflicts":
                problems.append(
                    "\(name): its merge conflicts (\"$conflicts\") have no column; settle them first (folio check lists them, folio resolve settles them)"
                )
            default:
                problems.append("\(name): \"\(member.key)\" is metadata that CSV has no column for")
            }
        }
        for property in properties[own]?.values.filter({ $0.has(.externalStorage) }) ?? [] {
            guard let property = property.name, let blob = try? document.path.blob(property) else { continue }
            var info = stat()
            if lstat(store.root + "/" + blob.relativePath, &info) == 0 {
                problems.append(
                    "\(name): \"\(property)\" is stored in a file beside the document (.externalStorage), which CSV does not carry"
                )
            }
        }
        let unknown = unknownMembers(of: content)
        var cells: [String] = []
        for (index, column) in columns.enumerated() {
            let value: JSONValue?
            let reading: CSVCell.Reading
            switch column.role {
            case .property(let property):
                guard let own = readings[own]?[index] else {
                    // Not a property of this row's entity: its member, if any, is in "$unknown".
                    cells.append("")
                    continue
                }
                (value, reading) = (content[property], own)
            case .identity: (value, reading) = (content["$id"], self.reading(of: column.role))
            case .entity: (value, reading) = (content["$entity"], self.reading(of: column.role))
            case .deleted: (value, reading) = (content["$deleted"], self.reading(of: column.role))
            case .unknown: (value, reading) = (unknown.isEmpty ? nil : .object(unknown), self.reading(of: column.role))
            }
            let cell = CSVCell.text(for: value, reading: reading, raw: raw)
            let read = CSVCell.content(of: cell.text, quoted: cell.emptyText, reading: reading)
            if read != CSVCell.content(for: value, reading: reading) {
                problems.append(
                    "\(name): \"\(column.name)\" holds \(Self.shown(value)), which its cell would give back as \(Self.shown(read))"
                )
            }
            cells.append(CSV.written(cell.text, quotingEmpty: cell.emptyText))
        }
        return cells.joined(separator: ",")
    }

    /// A row of a file as a record for `folio import`: the identity (`"id"` or `"$id"`),
    /// `"$entity"` and `"$deleted"` when given, the properties, then the unknown members;
    /// and the properties the row says the document does not have (`(absent)`). `line` is
    /// the row's first line, for messages.
    func record(_ fields: [CSV.Field], line: Int) throws(FolioError) -> (record: JSONObject, absent: [String]) {
        func value(_ index: Int, _ reading: CSVCell.Reading) -> JSONValue? {
            guard case .value(let value) = content(index, reading) else { return nil }
            return value
        }
        func content(_ index: Int, _ reading: CSVCell.Reading) -> CSVCell.Content {
            CSVCell.content(of: fields[index].text, quoted: fields[index].quoted, reading: reading)
        }
        var own = entity
        if let index = columns.firstIndex(where: { $0.role == .entity }),
            let stated = value(index, reading(of: .entity))
        {
            guard let name = stated.stringValue, readings[name] != nil else {
                throw .invalidInput(
                    "line \(line): \(Self.entityName) is \(Self.shown(stated)), which is neither \(entity) nor an entity inheriting from it"
                )
            }
            own = name
        }
        var record = JSONObject()
        if own != entity { record["$entity"] = .string(own) }
        var unknown = JSONObject()
        var absent: [String] = []
        for (index, column) in columns.enumerated() {
            switch column.role {
            case .entity:
                continue
            case .identity:
                if let identity = value(index, reading(of: .identity)) { record["$id"] = identity }
            case .deleted:
                if let deleted = value(index, reading(of: .deleted)) { record["$deleted"] = deleted }
            case .unknown:
                guard let members = value(index, reading(of: .unknown)) else { continue }
                guard let object = members.objectValue else {
                    throw .invalidInput(
                        "line \(line): \(Self.unknownName) holds \(Self.shown(members)); it is a JSON object of the members the schema does not know"
                    )
                }
                unknown = object
            case .property(let property):
                guard let reading = readings[own]?[index] else {
                    guard fields[index].text.isEmpty else {
                        throw .invalidInput(
                            "line \(line): \"\(property)\" is not a property of \(own), so its cell is left empty (a member of that name goes in \(Self.unknownName))"
                        )
                    }
                    continue
                }
                switch content(index, reading) {
                case .value(let member): record[property] = member
                case .unset: continue
                case .absent:
                    guard reading.blankIsNull else {
                        throw .invalidInput(
                            "line \(line): \"\(property)\" is (absent), but \(own) requires it; give it a value, or leave the cell empty for its initial value"
                        )
                    }
                    absent.append(property)
                }
            }
        }
        for member in unknown {
            if member.key.hasPrefix("$") || properties[own]?[member.key] != nil {
                throw .invalidInput(
                    "line \(line): \(Self.unknownName) holds \"\(member.key)\", which is \(member.key.hasPrefix("$") ? "metadata, the store's to write" : "a property of \(own), with a column of its own")"
                )
            }
            record[member.key] = member.value
        }
        return (record, absent)
    }

    /// A value as a message shows it: compact JSON, cut after 60 characters, or "(absent)".
    private static func shown(_ value: JSONValue?) -> String {
        guard let value else { return CSVCell.absent }
        let text = value.description
        return text.count > 60 ? String(text.prefix(60)) + "…" : text
    }

    /// What a cell gives, as a message shows it.
    private static func shown(_ content: CSVCell.Content) -> String {
        switch content {
        case .value(let value): shown(value)
        case .absent: CSVCell.absent
        case .unset: "nothing (an empty cell)"
        }
    }
}

extension DocumentStore {
    /// The entity and those inheriting from it (at any depth), the entity first, then in
    /// the schema's order; empty for an entity the schema does not have.
    func entityFamily(of entity: String) -> [StoredSchema.Entity] {
        let schema = manifest.storedSchema
        guard let root = schema.entity(named: entity) else { return [] }
        func inherits(_ name: String) -> Bool {
            var seen: Set<String> = [name]
            var current = name
            while let parent = schema.entity(named: current)?.superentity {
                if parent == entity { return true }
                guard seen.insert(parent).inserted else { return false }
                current = parent
            }
            return false
        }
        return [root] + schema.entities.filter { $0.name != entity && inherits($0.name) }
    }

    /// Whether documents hold a property as a member: not `.ephemeral` or
    /// `.externalStorage`, and not a to-many kept by the to-one that is its inverse.
    func isStored(_ property: StoredSchema.Property) -> Bool {
        if property.has(.ephemeral) || property.has(.externalStorage) { return false }
        guard property.isToMany, let destination = property.destination, let inverse = property.inverse,
            let other = manifest.storedSchema.entity(named: destination)?.property(named: inverse)
        else { return true }
        return other.destination == nil || other.isToMany
    }
}
