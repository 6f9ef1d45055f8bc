import FolioJSON
import Foundation

/// How one record differs between two states of a store: what became of it as a whole,
/// where its file was and is, and the old and new value of each member that differs.
///
/// A record is matched by its identity, the UUID its file is named for: a record whose
/// file went to another day folder is one record, `moved`, not one removed and one added.
public struct RecordDifference: Sendable, Hashable {
    /// The record's identity.
    public var id: UUID
    /// The record's entity: its `"$entity"` (the newer version's, else the older's), or the
    /// folder its file is in where it has none or does not parse.
    public var entity: String
    /// What became of the record, in the words of `folio log`: `created` (its file is only
    /// in the newer state), `purged` (only in the older), `deleted` (soft-deleted),
    /// `restored` (from a soft delete), `moved` (to another day folder), `changed`.
    public var kind: RecordChange.Kind
    /// The record's file in the older state, relative to the store; nil where it had none.
    public var pathBefore: String?
    /// The record's file in the newer state, relative to the store; nil where it has none.
    public var pathAfter: String?
    /// The members that differ, in the newer version's order and then those it no longer
    /// has, then the `.externalStorage` files that differ, by name.
    public var properties: [PropertyChange]
    /// The record in the older state; nil where it had no file or the file did not parse.
    public var before: JSONObject?
    /// The record in the newer state; nil where it has no file or the file did not parse.
    public var after: JSONObject?
    /// Why a version of the record could not be read (it does not parse, its blob is
    /// missing, its file is a symbolic link): its members are then not compared. Nil when
    /// both read.
    public var unreadable: String?

    /// A record's difference, as `StoreDiff` makes them.
    public init(
        id: UUID, entity: String, kind: RecordChange.Kind, pathBefore: String?, pathAfter: String?,
        properties: [PropertyChange], before: JSONObject?, after: JSONObject?, unreadable: String? = nil
    ) {
        (self.id, self.entity, self.kind, self.pathBefore, self.pathAfter) = (id, entity, kind, pathBefore, pathAfter)
        (self.properties, self.before, self.after, self.unreadable) = (properties, before, after, unreadable)
    }

    /// The record's file in the newer state, else the older: where to look for it.
    public var path: String { pathAfter ?? pathBefore ?? "" }

    /// The difference between two versions of a record, or nil when they hold the same
    /// (the same members at the same path, and no `.externalStorage` file changed:
    /// `blobs` lists those that did). `unreadable` lists why a version did not read.
    static func between(
        id: UUID, folder: String, before: (path: String, content: JSONObject?)?,
        after: (path: String, content: JSONObject?)?, blobs: [PropertyChange], unreadable: [String]
    ) -> RecordDifference? {
        guard before != nil || after != nil else { return nil }
        let old = before?.content
        let new = after?.content
        if unreadable.isEmpty, before?.path == after?.path, old == new, blobs.isEmpty { return nil }
        let kind = RecordChange.Kind.between(pathBefore: before?.path, pathAfter: after?.path, old: old, new: new)
        let comparable = unreadable.isEmpty
        return RecordDifference(
            id: id, entity: (new ?? old)?["$entity"]?.stringValue ?? folder, kind: kind, pathBefore: before?.path,
            pathAfter: after?.path,
            properties: (comparable ? PropertyChange.differences(from: old, to: new) : []) + blobs,
            before: old, after: new, unreadable: comparable ? nil : unreadable.joined(separator: "; "))
    }
}
