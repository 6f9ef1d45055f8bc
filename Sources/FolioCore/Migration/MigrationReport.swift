/// What a migration did or, in a dry run, would do: per entity, the documents changed,
/// unchanged, deleted and failed; every failure with its file and reason; and every
/// file it writes or removes, with the bytes before and after, for diffs.
///
/// `unifiedDiff()` shows the whole migration as `git diff` will show it once applied.
public struct MigrationReport: Sendable {
    /// What happened to one entity's documents, counted, so a summary can be printed.
    public struct EntitySummary: Sendable, Equatable {
        /// Documents rewritten (or moved).
        public var changed = 0
        /// Documents the migration leaves as they are, byte for byte.
        public var unchanged = 0
        /// Documents removed.
        public var deleted = 0
        /// Documents that cannot be migrated; any one stops the migration.
        public var failed = 0
    }

    /// A document that cannot be migrated, and why, so it can be fixed before applying.
    public struct Failure: Sendable, Equatable {
        /// The document's path, relative to the store.
        public var path: String
        /// What stops it, in words.
        public var reason: String
    }

    /// A file the migration changes. `oldPath` differs from `path` when the document moves
    /// (an entity renamed); `old` is `nil` for a new file, `new` for a removed one.
    public struct FileChange: Sendable, Equatable {
        /// Where the file is after the migration, relative to the store.
        public var path: String
        /// Where it was before.
        public var oldPath: String
        /// Its bytes before; `nil` for a new file.
        public var old: [UInt8]?
        /// Its bytes after; `nil` for a removed file.
        public var new: [UInt8]?
    }

    /// The schema version the manifest had, as written there.
    public var fromVersion: String
    /// The schema version the migration goes to.
    public var toVersion: Schema.Version
    /// Per entity (by its name before the migration), what happened to its documents.
    public var entities: [String: EntitySummary] = [:]
    /// Every document that cannot be migrated, in path order.
    public var failures: [Failure] = []
    /// Every file changed, in path order, the manifest (`folio.json`) first.
    public var files: [FileChange] = []
    /// Whether the changes were written (not a dry run, and nothing failed).
    public var applied = false
}
