import FolioJSON
import Foundation

/// One commit that changed a record: who, when, why, what became of the record, and the
/// old and new value of each member it changed.
public struct RecordChange: Sendable, Hashable {
    /// What a commit did to the record as a whole.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Its file appeared (at the start of a shallow clone's history, the record may be older:
        /// see `RecordHistory.endsAtShallowBoundary`).
        case created
        /// Its members changed, in the same file.
        case changed
        /// It was soft-deleted: the commit added `"$deleted"`.
        case deleted
        /// It was restored from a soft delete: the commit removed `"$deleted"`.
        case restored
        /// Its file went to another day folder (same UUID file name), its members maybe changed too.
        case moved
        /// Its file was removed.
        case purged
    }

    /// The commit's whole hash.
    public var commit: String
    /// The commit's parents' hashes: none for a root commit, two or more for a merge.
    public var parents: [String]
    /// The commit's author.
    public var authorName: String
    /// The author's email address.
    public var authorEmail: String
    /// When the author made the change (`git log`'s author date).
    public var date: Date
    /// The first line of the commit's message.
    public var subject: String
    /// What the commit did to the record.
    public var kind: Kind
    /// The record's file before the commit (in a merge, in its first parent), relative to
    /// the store; nil where it had none.
    public var pathBefore: String?
    /// The record's file after the commit, relative to the store; nil where it has none.
    public var pathAfter: String?
    /// The members that changed, in the record's order, then its `.externalStorage` files
    /// that changed, by name; compared with the first parent in a merge.
    public var properties: [PropertyChange]
    /// The record after the commit, as stored; nil where it has no file or the file did not parse.
    public var content: JSONObject?
    /// Why a version of the file this commit holds (or its parent holds) could not be read
    /// as a record: its members are then not compared. Nil when both read.
    public var unreadable: String?

    /// Whether the commit is a merge: here one whose record differs from every parent's,
    /// so both sides changed it.
    public var isMerge: Bool { parents.count > 1 }
}

extension RecordChange.Kind {
    /// What became of a record between a version at `pathBefore` and one at `pathAfter` (nil
    /// where there was no file), with their contents where they read: a soft delete or a
    /// restore before a move, a move before a change.
    static func between(
        pathBefore: String?, pathAfter: String?, old: JSONObject?, new: JSONObject?
    ) -> Self {
        guard pathBefore != nil else { return .created }
        guard pathAfter != nil else { return .purged }
        if let old, let new, (old[ReservedKey.deleted] == nil) != (new[ReservedKey.deleted] == nil) {
            return new[ReservedKey.deleted] == nil ? .restored : .deleted
        }
        return pathBefore != pathAfter ? .moved : .changed
    }
}
