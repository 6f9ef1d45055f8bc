/// What a migration did or, in a dry run, would do: per entity, the documents changed,
/// unchanged, deleted and failed; every failure with its file and reason; and every
/// file it writes or removes, with the bytes before and after, for diffs.
public struct MigrationReport: Sendable {
    public struct EntitySummary: Sendable, Equatable {
        public var changed = 0
        public var unchanged = 0
        public var deleted = 0
        public var failed = 0
    }

    public struct Failure: Sendable, Equatable {
        /// The document's path, relative to the store.
        public var path: String
        public var reason: String
    }

    /// A file the migration changes. `oldPath` differs from `path` when the document moves
    /// (an entity renamed); `old` is `nil` for a new file, `new` for a removed one.
    public struct FileChange: Sendable, Equatable {
        public var path: String
        public var oldPath: String
        public var old: [UInt8]?
        public var new: [UInt8]?
    }

    /// The schema version the manifest had, and the one the migration goes to.
    public var fromVersion: String
    public var toVersion: Schema.Version
    public var entities: [String: EntitySummary] = [:]
    public var failures: [Failure] = []
    /// Every file changed, in path order, the manifest (`folio.json`) first.
    public var files: [FileChange] = []
    /// Whether the changes were written (not a dry run, and nothing failed).
    public var applied = false
}
