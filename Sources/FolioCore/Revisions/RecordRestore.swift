import FolioJSON
import Foundation

/// A record brought back as a revision of the store's repository holds it, whole or only
/// some of its properties: the next version of its document, checked against the store's
/// schema as it is now, and the changes that write it as one transaction.
///
/// ```swift
/// let store = try DocumentStore(root: "/home/me/Timers")
/// let restore = try RecordRestore(of: id, in: store, from: "HEAD~1", properties: ["name"])
/// for change in restore.properties { print(change.name, change.old ?? "none", "→", change.new ?? "none") }
/// try restore.commit(author: "undo")
/// ```
///
/// The version of the document read now (the store is refreshed first) is what the write is
/// based on: if its file changes before `commit`, the commit fails with `.conflict` and writes nothing. A whole restore
/// takes the revision's soft delete too (a record deleted now and live then comes back
/// live); a restore of named properties changes only those. A relationship whose related
/// record the store no longer holds is cleared (`clearedRelationships`), and a purged record
/// comes back in its revision's day folder. A record's `.externalStorage` files come back
/// with it (or with the properties named), and a file it had none of then is removed.
/// Uniqueness constraints are not checked here (`folio restore` checks them, as its other
/// writing commands do). Reading the revision
/// never writes to the repository: only the store's files change, through its commit.
public struct RecordRestore: Sendable {
    /// A relationship of the restored record whose related records the store no longer
    /// holds: cleared (`null`, or left out of a to-many) rather than pointing at nothing.
    public struct ClearedRelationship: Sendable, Hashable {
        /// The relationship's name.
        public var name: String
        /// The entity it points at.
        public var destination: String
        /// The identities it held at the revision that the store no longer holds.
        public var missing: [UUID]
    }

    /// The store written to.
    public let store: DocumentStore
    /// The record as the revision holds it.
    public var version: RecordVersion
    /// The record's document as read now; nil when the store holds none (it was purged).
    public var current: StoredDocument?
    /// The members that change, the value now as `old` and the restored one as `new`
    /// (`$deleted` among them when the soft delete changes); empty when the record already
    /// holds the revision's values.
    public var properties: [PropertyChange]
    /// The relationships cleared because their related records are gone.
    public var clearedRelationships: [ClearedRelationship]
    /// The changes to commit: the record's document, based on `current`'s version, and the
    /// other side of relationships both sides store; empty when nothing changes.
    public var changes: [DocumentChange]

    /// Whether the record already holds what the restore would write.
    public var isUnchanged: Bool { changes.isEmpty }

    /// The restore of the record with identity `id` in `store` as revision `revision`
    /// holds it: all of it when `names` is nil, else only the properties named.
    ///
    /// Throws as `RecordVersion` does for the revision and the record there, and:
    /// `.notFound` for a named property the schema or the revision's record lacks;
    /// `.invalidValue` for a record at the revision holding properties the schema no longer
    /// has (a whole restore would drop them: name the others), or one that would not fit the
    /// schema; `.invalidInput` for named properties of a record the store no longer holds.
    public init(of id: UUID, in store: DocumentStore, from revision: String, properties names: [String]? = nil)
        throws(FolioError)
    {
        let version = try RecordVersion(of: id, inStoreAt: store.root, at: revision)
        // The version the write is based on is the file as it is now, not as last read.
        try store.refresh()
        let schema = store.memory.schema
        let at = "\(revision) (commit \(version.commit.prefix(7)))"
        guard
            let entity = schema.entity(of: version.content, inFolder: version.path.entity)
                ?? schema.entities[version.path.entity]
        else {
            throw FolioError(
                .notFound,
                "\(version.path.entity), the entity of the record at \(at), is not in the store's schema now",
                path: store.root, hint: "add the entity back to the schema, or migrate the store, then restore")
        }
        let current =
            store.document(entity: version.path.entity, id: id)
            ?? store.documentCounts.keys.sorted().lazy.compactMap { store.document(entity: $0, id: id) }.first
        let record = "\(entity.name) \(id.uuidString)"
        let known = Set(entity.properties.map(\.name) + entity.subentityProperties.map(\.name))
        var restored: JSONObject
        if let names {
            try entity.checkNames(names)
            guard current != nil else {
                throw FolioError(
                    .invalidInput, "\(record) has no file now (it was purged), so it has no properties to change",
                    path: store.root, hint: "restore the whole record: leave the property names out")
            }
            restored = JSONObject()
            for name in names {
                // An `.externalStorage` property's value is its file, restored below.
                if version.blobs[name] != nil || (version.content[name] == nil && entity.unstored.contains(name)) {
                    continue
                }
                guard let value = version.content[name] else {
                    let has = version.content.keys.filter { !$0.hasPrefix("$") }.joined(separator: ", ")
                    throw FolioError(
                        .notFound, "\(record) at \(at) has no property \(name); it has \(has)", path: store.root,
                        hint: "name properties the record had then (`folio log` shows them)")
                }
                restored[name] = value
            }
        } else {
            let dropped = (version.content.keys + version.blobs.keys.sorted()).filter {
                !$0.hasPrefix("$") && !known.contains($0)
            }
            guard dropped.isEmpty else {
                throw FolioError(
                    .invalidValue,
                    "\(record) at \(at) holds \(dropped.joined(separator: ", ")), which the store's schema no longer has; restoring it whole would drop them, so nothing was written",
                    path: store.root,
                    hint:
                        "restore the other properties by name (`--property NAME`), or add \(dropped.joined(separator: ", ")) back to the schema first"
                )
            }
            restored = Self.whole(version.content, current: current?.content, entity: entity, store: store)
        }
        var cleared: [ClearedRelationship] = []
        for (name, property) in entity.properties {
            guard case .relationship(let destination, let isToMany, nil) = property, let value = restored[name],
                value != .null
            else { continue }
            let held = (value.arrayValue ?? [value]).compactMap { $0.stringValue.flatMap(UUID.init(uuidString:)) }
            let missing = held.filter { !store.holdsDocument(entity: destination, id: $0) }
            guard !missing.isEmpty else { continue }
            cleared.append(ClearedRelationship(name: name, destination: destination, missing: missing))
            restored[name] =
                isToMany
                ? .array(
                    value.arrayValue?.filter { member in
                        member.stringValue.flatMap(UUID.init(uuidString:)).map { !missing.contains($0) } ?? true
                    } ?? [])
                : .null
        }
        var next: Document
        if let current, names != nil {
            next = try store.document(current, setting: restored)
        } else if let current {
            next = try store.document(current, replacingWith: restored)
        } else {
            next = try Self.purged(restored, entity: entity.name, version: version, store: store)
        }
        let blobs = try Self.blobs(
            of: version, named: names.map(Set.init) ?? known, current: current, store: store, at: at)
        next.blobs = blobs.writes
        var properties = PropertyChange.differences(from: current?.content, to: next.content) + blobs.changes
        if current?.content[ReservedKey.deleted] != next.content[ReservedKey.deleted] {
            properties.insert(
                PropertyChange(
                    name: ReservedKey.deleted, old: current?.content[ReservedKey.deleted],
                    new: next.content[ReservedKey.deleted]),
                at: 0)
        }
        let calendar = store.manifest.calendar
        let staysInItsFolder = next.partitionDate.map { Day($0, in: calendar) == current?.path.day } ?? true
        let unchanged = current.map { $0.content == next.content && staysInItsFolder && blobs.changes.isEmpty } ?? false
        self.store = store
        self.version = version
        self.current = current
        self.properties = unchanged ? [] : properties
        self.clearedRelationships = cleared
        self.changes = unchanged ? [] : store.changes(putting: next, over: current)
    }

    /// Writes the restore as one transaction, as `DocumentStore.commit` does, recording
    /// `author` in the store's history; nothing when it changes nothing.
    ///
    /// - Throws: `.conflict` when the record's file (or that of a related record written
    ///   with it) changed since it was read, or another record took the identity of a
    ///   purged one since; nothing is written then. Else what `commit` throws.
    @discardableResult
    public func commit(author: String? = nil) throws(FolioError) -> CommitSummary? {
        guard !changes.isEmpty else { return nil }
        return try store.commit(changes, author: author)
    }

    /// The `.externalStorage` files of the properties `names` that differ between the
    /// record now and at the revision: the bytes to write (the revision's) or nil to remove
    /// (it had none then), and their changes, compared by git's id for the bytes.
    private static func blobs(
        of version: RecordVersion, named names: Set<String>, current: StoredDocument?, store: DocumentStore,
        at: String
    ) throws(FolioError) -> (writes: [String: [UInt8]?], changes: [PropertyChange]) {
        var now: [String: StoredBlob] = [:]
        if let current {
            for property in store.blobProperties(of: current.path) where names.contains(property) {
                guard let bytes = try store.blob(of: current.path, property: property) else { continue }
                now[property] = StoredBlob(object: GitBlobID(content: bytes).hex, size: bytes.count)
            }
        }
        let changes = PropertyChange.differences(
            fromBlobs: now, toBlobs: version.blobs.filter { names.contains($0.key) })
        let bytes = try version.bytes(of: changes.compactMap(\.newBlob))
        var writes: [String: [UInt8]?] = [:]
        for change in changes {
            guard let blob = change.newBlob else {
                writes.updateValue(nil, forKey: change.name)
                continue
            }
            guard let content = bytes[blob.object] else {
                let file = (try? version.path.blob(change.name).relativePath) ?? change.name
                throw FolioError(
                    .notFound, "\(file) at \(at) is missing from the repository (blob \(blob.object.prefix(7)))",
                    path: store.root, hint: "fetch the missing objects (`git fetch`), or give another revision")
            }
            writes[change.name] = content
        }
        return (writes, changes)
    }

    /// The revision's record as the next version of the current one: its metadata with
    /// the manifest's schema version, then the schema's properties in declaration order, a
    /// property the revision's record lacks (added since) keeping its current value.
    private static func whole(
        _ old: JSONObject, current: JSONObject?, entity: QuerySchema.Entity, store: DocumentStore
    ) -> JSONObject {
        var content = JSONObject()
        for member in old where member.key.hasPrefix("$") {
            content[member.key] =
                member.key == ReservedKey.version ? .string(store.manifest.schemaVersion) : member.value
        }
        for (name, _) in entity.properties + entity.subentityProperties {
            if let value = old[name] ?? current?[name] { content[name] = value }
        }
        return content
    }

    /// A purged record's document, made new in its revision's day folder (where its
    /// partition property does not name another day), soft-deleted when it was then.
    private static func purged(_ restored: JSONObject, entity: String, version: RecordVersion, store: DocumentStore)
        throws(FolioError) -> Document
    {
        var values = JSONObject()
        for member in restored where !member.key.hasPrefix("$") || member.key == ReservedKey.identity {
            values[member.key] = member.value
        }
        var document = try store.newDocument(entity: entity, values: values)
        if let deleted = restored[ReservedKey.deleted] { ReservedKey.stampDeleted(deleted, in: &document.content) }
        if document.partitionDate == nil {
            let day = version.path.day
            document.partitionDate = store.manifest.calendar.date(
                from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12))
        }
        return document
    }
}
