import FolioJSON
import Foundation

/// One transaction as a store's history keeps it: its token, when, who, and which
/// documents it inserted, updated or deleted.
///
/// Written as one line of compact JSON in `.folio/history/` (see `HistoryLog`), in the same
/// transaction as the documents it describes.
package struct HistoryRecord: Sendable, Equatable {
    /// The transaction's place in the store's history: 1 for the first, one more for each next.
    package var token: Int64
    package var timestamp: Date
    /// The author the saving context named, `"folio"` for the tool, `"external"` for a
    /// change Folio did not make (a hand edit, `git pull`), or `nil`.
    package var author: String?
    /// The program that wrote the transaction; `nil` for a change Folio did not make, and in
    /// records of versions before 0.38.
    package var writer: Writer?
    package var changes: [Change]
    /// The journal the transaction was committed through, if it had one: recovery drops the
    /// record of a journal it discards.
    var journal: String?

    /// The author of the changes a store finds on disk that no Folio transaction made.
    package static let externalAuthor = "external"

    /// The program that wrote a transaction, as Core Data's history names it: so that a
    /// widget's saves can be told from its app's by more than the author a context sets.
    package struct Writer: Sendable, Equatable {
        /// The main bundle's identifier where the program has one (`Bundle.main`), else the
        /// process's name (`ProcessInfo.processName`, the executable's).
        package var bundle: String
        /// The process's identifier, in decimal.
        package var process: String

        /// This process.
        package static var current: Writer {
            Writer(
                bundle: Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName,
                process: String(ProcessInfo.processInfo.processIdentifier))
        }
    }

    /// One document's change.
    package struct Change: Sendable, Equatable {
        package enum Kind: String, Sendable {
            case insert, update, delete
        }

        package var kind: Kind
        /// The document's `"$entity"`: its own class's entity, also for a subclass.
        package var entity: String
        package var id: UUID
        /// The document's file after the change, or before it for a delete.
        package var path: String
        /// The content hash of the file written, for an insert or an update: how a store tells
        /// a file it finds changed on disk from one a transaction it knows of wrote.
        package var contentHash: UInt64?
        /// For an update, the members whose values changed, in the document's order.
        package var attributes: [String] = []
        /// For a delete, the values of the `.preserveValueOnDeletion` attributes.
        package var tombstone: JSONObject = [:]
    }
}

extension HistoryRecord {
    /// The record as one line of the history, without its newline.
    var json: JSONValue {
        var object: JSONObject = ["token": .integer(token), "timestamp": timestamp.json]
        if let author { object["author"] = .string(author) }
        if let writer {
            object["bundle"] = .string(writer.bundle)
            object["process"] = .string(writer.process)
        }
        if let journal { object["journal"] = .string(journal) }
        // Last, so a reader can take the members before it without the changes (see
        // `HistoryLog.tail`), and an import can write them one at a time.
        object["changes"] = .array(changes.map(\.json))
        return .object(object)
    }

    /// A record read back from a line, or `nil` for one this version cannot read.
    init?(json: JSONValue) {
        guard let list = json["changes"]?.arrayValue else { return nil }
        var changes: [Change] = []
        changes.reserveCapacity(list.count)
        for member in list {
            guard let change = Change(json: member) else { return nil }
            changes.append(change)
        }
        self.init(head: json, changes: changes)
    }

    /// A record from its line's members but `"changes"` (read apart, one at a time, by
    /// `HistoryLog.forEachRecord`), with `changes`; `nil` for members this version cannot read.
    init?(head json: JSONValue, changes: [Change]) {
        guard case .integer(let token)? = json["token"], (1...HistoryLog.largestToken).contains(token),
            let time = json["timestamp"], let timestamp = try? ISO8601Timestamp.date(from: time),
            json["changes"]?.arrayValue != nil
        else { return nil }
        let writer = json["bundle"]?.stringValue.map { bundle in
            Writer(bundle: bundle, process: json["process"]?.stringValue ?? "")
        }
        self.init(
            token: token, timestamp: timestamp, author: json["author"]?.stringValue, writer: writer, changes: changes,
            journal: json["journal"]?.stringValue)
    }

    fileprivate static func hex(_ hash: UInt64) -> String {
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

extension HistoryRecord.Change {
    /// A change read back from an element of its record's `"changes"`, or `nil` for one this
    /// version cannot read.
    init?(json member: JSONValue) {
        guard let kind = member["change"]?.stringValue.flatMap(Kind.init(rawValue:)),
            let entity = member["entity"]?.stringValue, let id = member["id"]?.stringValue.flatMap(UUID.init),
            // A record names files of the store's layout only: another path is not Folio's.
            let path = member["file"]?.stringValue, DocumentPath(relativePath: path) != nil
        else { return nil }
        self.init(
            kind: kind, entity: entity, id: id, path: path,
            contentHash: member["hash"]?.stringValue.flatMap { UInt64($0, radix: 16) },
            attributes: (member["attributes"]?.arrayValue ?? []).compactMap(\.stringValue),
            tombstone: member["tombstone"]?.objectValue ?? [:])
    }

    /// The change as a member of its record's `"changes"`.
    var json: JSONValue {
        var member: JSONObject = [
            "change": .string(kind.rawValue), "entity": .string(entity), "id": .string(id.uuidString),
            "file": .string(path),
        ]
        if let contentHash { member["hash"] = .string(HistoryRecord.hex(contentHash)) }
        if !attributes.isEmpty { member["attributes"] = .array(attributes.map(JSONValue.string)) }
        if !tombstone.isEmpty { member["tombstone"] = .object(tombstone) }
        return .object(member)
    }

    /// The change a put or a delete makes to a document, from its content before (`nil`
    /// for a new document) and after (`nil` for a removed file), or `nil` when, to the app,
    /// nothing changed: a soft-deleted document reads as deleted, so soft-deleting is a
    /// delete, restoring an insert, and purging one already soft-deleted no change at all.
    static func between(
        _ before: JSONObject?, _ after: JSONObject?, id: UUID, path: String, contentHash: UInt64?,
        changedBlobs: [String] = [], preserved: (String) -> Set<String>
    ) -> Self? {
        let visibleBefore = before.map(Self.isVisible) ?? false
        let visibleAfter = after.map(Self.isVisible) ?? false
        let entity = (after ?? before)?[ReservedKey.entity]?.stringValue ?? ""
        switch (visibleBefore, visibleAfter) {
        case (false, false):
            return nil
        case (false, true):
            return Self(kind: .insert, entity: entity, id: id, path: path, contentHash: contentHash)
        case (true, false):
            let before = before!
            let entity = before[ReservedKey.entity]?.stringValue ?? entity
            let kept = preserved(entity)
            // A soft delete leaves its file, with this hash: how another process, or the next
            // open, tells the file it finds from a change nobody recorded.
            return Self(
                kind: .delete, entity: entity, id: id, path: path, contentHash: after == nil ? nil : contentHash,
                tombstone: JSONObject(before.filter { kept.contains($0.key) }.map { ($0.key, $0.value) }))
        case (true, true):
            let (before, after) = (before!, after!)
            var attributes = after.compactMap { member -> String? in
                member.key.hasPrefix("$") || before[member.key] == member.value ? nil : member.key
            }
            attributes += before.keys.filter { !$0.hasPrefix("$") && after[$0] == nil }
            attributes += changedBlobs.filter { !attributes.contains($0) }
            guard !attributes.isEmpty else { return nil }
            return Self(
                kind: .update, entity: entity, id: id, path: path, contentHash: contentHash, attributes: attributes)
        }
    }

    /// Whether a document reads as a model: one soft-deleted does not.
    private static func isVisible(_ content: JSONObject) -> Bool {
        switch content[ReservedKey.deleted] {
        case nil, .null?: true
        default: false
        }
    }
}
