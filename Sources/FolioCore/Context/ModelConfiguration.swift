import Foundation

/// Where and how a container keeps its models: SwiftData's `ModelConfiguration`, plus
/// Folio's durability and deletion settings.
///
/// ```swift
/// let configuration = ModelConfiguration(url: URL(filePath: "/srv/notes"), durability: .normal)
/// ```
public struct ModelConfiguration: Sendable, Hashable {
    /// How `delete` removes a model from an on-disk store. Folio's: SwiftData has no soft deletes.
    public enum Deletion: Sendable, Hashable {
        /// The document stays, stamped with `"$deleted"` and the time; fetches skip it unless
        /// asked, `restore` brings it back, and `purge(deletedBefore:)` removes it for good.
        case soft
        /// The document's file is removed at the save, as SwiftData does.
        case hard
    }

    /// What a save does when a document it would overwrite or delete changed on disk since
    /// it was read (a hand edit, a `git pull`, another process). Folio's.
    public enum ConflictPolicy: Sendable, Hashable {
        /// The save throws `FolioError.conflict`, naming the model and the file, and
        /// writes nothing: the person's edit is never lost.
        case fail
        /// The save writes over the changed files (last writer wins).
        case overwrite
    }

    /// What a fetch does when its entity holds a document it cannot use: a file that is not
    /// valid JSON (or is a link, or cannot be read), or one whose values do not fit the model.
    /// Folio's: a SwiftData store is written only by SwiftData, a Folio store by people too.
    public enum UnreadableDocuments: Sendable, Hashable {
        /// The fetch (`fetch`, `fetchCount`, `fetchIdentifiers`, `enumerate`, `aggregate`)
        /// throws the document's error, naming its file, line and column, or its property:
        /// no answer leaves a document out without a word.
        case fail
        /// The fetch leaves such documents out; each is logged once (`Folio.documents`,
        /// through swift-log) and listed in `ModelContainer.issues` or `ModelContext.issues`.
        case skip
    }

    /// The CloudKit database a SwiftData app syncs with. Accepted so such code compiles;
    /// Folio syncs through git instead, so every value does the same: nothing.
    public enum CloudKitDatabase: Sendable, Hashable {
        case automatic
        case none
        case `private`(String)
    }

    /// The app group a SwiftData app shares its store with. Accepted so such code compiles;
    /// a Folio store is the folder its `url` names, whatever the value.
    public enum GroupContainer: Sendable, Hashable {
        case automatic
        case none
        case identifier(String)
    }

    /// The configuration's name, which names the default store folder.
    public var name: String
    /// The models this configuration stores; `nil` takes the container's schema, or, beside
    /// other configurations, the models none of them names (see `ModelContainer.configurations`).
    public var schema: Schema?
    /// The store's folder (the one holding `folio.json`); created when missing.
    public var url: URL
    /// Whether the models live only as long as the container, in a private temporary
    /// store that is removed when the container goes away.
    public var isStoredInMemoryOnly: Bool
    /// Whether `save` may write: `false` opens the store read-only, and saving throws.
    public var allowsSave: Bool
    /// How hard a save works to survive power loss (Folio's).
    public var durability: Durability
    /// How `delete` removes models (Folio's): soft by default on disk, hard in memory.
    public var deletion: Deletion
    /// What a save does about files changed on disk since they were read (Folio's).
    public var conflicts: ConflictPolicy
    /// What a fetch does about documents it cannot use (Folio's): `.fail` by default.
    public var unreadableDocuments: UnreadableDocuments = .fail
    /// The CloudKit database given (Folio syncs through git, so it changes nothing).
    public var cloudKitDatabase: CloudKitDatabase = .none
    /// The app group given (the store is the `url` folder whatever it is).
    public var groupContainer: GroupContainer = .automatic
    /// The time zone whose days name the partition folders of a store this configuration
    /// creates; `nil` takes the machine's zone (`TimeZone.current`). Folio's. A store keeps
    /// the zone it was created with (its manifest records it), so this applies only when
    /// the folder holds no store yet; fix it to make a store's layout independent of the
    /// machine that wrote it (shared fixtures, stores made on servers in UTC).
    public var timeZone: TimeZone?
    /// How many transactions the store's history keeps for `fetchHistory` (Folio's); the
    /// oldest go as new ones come, a segment of 256 at a time. 0 keeps no history.
    public var historyLimit = DocumentStore.defaultHistoryLimit
    /// Whether the container watches the store's folder (inotify) and refreshes itself when
    /// a file changes there: another process's save, a hand edit, `git pull` (Folio's). On by
    /// default; a store in memory is never watched.
    public var watchesFiles = true
    /// The git revision the store is read as of, or `nil` for the store as it is (Folio's).
    ///
    /// A commit's hash, a branch, a tag, `HEAD~3` or `main@{2026-11-01}`: the container reads
    /// the store as that commit held it, from git's objects, without a checkout and without
    /// changing the repository. Fetches, predicates, sorts, counts, relationships and
    /// `aggregate` work as on the store itself; the container is read-only, so a save throws
    /// `.misuse` and writes nothing, and it is not watched. A store committed with an older
    /// schema is migrated to the container's in a private copy, through the migration plan
    /// when there is one (see `docs/past.md`).
    public var revision: String?
    /// How the store answers reads: an app's unless a test asks for another minimum of
    /// documents for answering from a cache file (see `StoreReads`).
    package var reads = StoreReads.app

    /// A configuration. Without a URL, the store is `<name>.folio` in the user's data folder
    /// (`$XDG_DATA_HOME`, else `~/.local/share`), in a folder named after the program.
    public init(
        _ name: String? = nil, schema: Schema? = nil, url: URL? = nil, isStoredInMemoryOnly: Bool = false,
        allowsSave: Bool = true,
        groupContainer: GroupContainer = .automatic, cloudKitDatabase: CloudKitDatabase = .none,
        durability: Durability = .full,
        deletion: Deletion? = nil, conflicts: ConflictPolicy = .fail, timeZone: TimeZone? = nil
    ) {
        self.name = name ?? "default"
        self.schema = schema
        self.url = url ?? Self.defaultFolder.appending(path: "\(name ?? "default").folio", directoryHint: .isDirectory)
        self.isStoredInMemoryOnly = isStoredInMemoryOnly
        self.allowsSave = allowsSave
        self.durability = durability
        self.deletion = deletion ?? (isStoredInMemoryOnly ? .hard : .soft)
        self.conflicts = conflicts
        self.timeZone = timeZone
        self.groupContainer = groupContainer
        self.cloudKitDatabase = cloudKitDatabase
    }

    /// A configuration for these model types (and those their relationships reach), as
    /// SwiftData's `ModelConfiguration(for:isStoredInMemoryOnly:)`.
    /// At least one type is required, so that `ModelConfiguration(isStoredInMemoryOnly: true)` stays the other initializer.
    public init(
        _ name: String? = nil, for type: any PersistentModel.Type, _ more: any PersistentModel.Type...,
        isStoredInMemoryOnly: Bool = false,
        allowsSave: Bool = true, groupContainer: GroupContainer = .automatic, cloudKitDatabase: CloudKitDatabase = .none
    ) {
        self.init(
            name, schema: Schema([type] + more), isStoredInMemoryOnly: isStoredInMemoryOnly, allowsSave: allowsSave,
            groupContainer: groupContainer,
            cloudKitDatabase: cloudKitDatabase)
    }

    /// A configuration for a store in this folder, as SwiftData's `ModelConfiguration(url:)`;
    /// with a `revision`, the store as that git revision held it, read-only (see `revision`).
    public init(
        url: URL, allowsSave: Bool = true, durability: Durability = .full, deletion: Deletion? = nil,
        conflicts: ConflictPolicy = .fail,
        timeZone: TimeZone? = nil, revision: String? = nil
    ) {
        self.init(
            nil, schema: nil, url: url, isStoredInMemoryOnly: false, allowsSave: allowsSave, durability: durability,
            deletion: deletion,
            conflicts: conflicts, timeZone: timeZone)
        self.revision = revision
    }

    /// Why nothing may be written through this configuration, as a sentence's end after
    /// "the configuration of <folder>", or `nil` when saving is allowed.
    package var whyReadOnly: String? {
        if let revision { return "reads the store as of git revision \(revision), a past that cannot change" }
        return allowsSave ? nil : "has allowsSave: false"
    }

    private static var defaultFolder: URL {
        let environment = ProcessInfo.processInfo.environment
        let dataHome =
            environment["XDG_DATA_HOME"].map { URL(filePath: $0, directoryHint: .isDirectory) }
            ?? URL(filePath: NSHomeDirectory(), directoryHint: .isDirectory).appending(
                path: ".local/share", directoryHint: .isDirectory)
        return dataHome.appending(path: ProcessInfo.processInfo.processName, directoryHint: .isDirectory)
    }
}
