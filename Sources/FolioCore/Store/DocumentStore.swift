import FolioJSON
import Foundation
import Glibc
import Synchronization

/// Hears how many files of how many are read, from any thread.
public typealias ReadProgress = @Sendable (_ read: Int, _ total: Int) -> Void

/// A Folio store on disk: a directory of JSON documents under a `folio.json` manifest.
///
/// This is the storage engine beneath the model layer. It knows documents (JSON
/// objects with an entity, an identity and a partition day), not Swift models.
/// Reads come from an in-memory catalog, which takes in an entity's folder (from its
/// cache file and a `stat`-only walk) the first time the entity is used and is kept
/// current by `refresh()`; `commit(_:)` writes a batch of changes as one crash-safe
/// transaction. Instances are safe to share between threads; several processes
/// may open one store at once (one writes at a time).
///
/// ```swift
/// let store = try DocumentStore.create(at: "/tmp/Notes", manifest: StoreManifest(timeZone: TimeZone(identifier: "UTC")!))
/// let note = Document(entity: "Note", id: UUID(), partitionDate: Date(), content: ["text": "Buy tea"])
/// try store.commit([.put(note, basedOn: nil)])
/// ```
public final class DocumentStore: Sendable {
    /// The store's folder.
    public let root: String
    /// How hard commits work to survive power loss.
    public let durability: Durability
    /// How many transactions the store's history keeps (in `.folio/history/`); 0 keeps none.
    /// Older ones go a segment at a time as new ones come.
    public let historyLimit: Int
    /// The store's folder, held open: every file of the store is reached through it,
    /// beneath it and without following links.
    let folder: OpenFolder
    let lock: StoreLock
    let state: Mutex<State>
    /// Hears how many files a folder's first use reads, for a progress bar.
    let progress: ReadProgress?
    /// How reads are answered: for an app, or for one command.
    let reads: StoreReads

    struct State {
        var manifest: StoreManifest {
            didSet {
                querySchema = QuerySchema(manifest.storedSchema)
                calendar = manifest.calendar
            }
        }
        /// The stamp of `folio.json` when `manifest` was read, so a refresh rereads it only when it
        /// changed; `nil` (always reread) when the stamp fell within the file's clock tick.
        var manifestStamp: FileStamp?
        var catalog = Catalog()
        /// The manifest's schema as queries read it.
        var querySchema: QuerySchema
        /// The manifest's calendar, made once: queries plan day ranges with it.
        var calendar: Calendar
        /// The query indexes over `catalog`, replaced with it.
        var indexes = QueryIndexes()
        var statistics = StoreStatistics()
        /// What each folder's file in `.folio/cache/` holds: the folder's revision it was
        /// loaded or written at, and the file's stamp then. A close with neither changed
        /// writes nothing.
        var cacheOnDisk: [String: (revision: UInt64, stamp: FileStamp)] = [:]
        /// Folders whose first use failed, with why, for readers that cannot throw (see
        /// `loadReporting`); cleared when the folder loads.
        var loadFailures: [String: StoreIssue] = [:]
        /// A committed transaction the last open or commit could not finish.
        var unfinishedTransaction: FolioError?
        /// Staged files the last walk found; the next commit removes those still there.
        var stagedFiles: [String] = []
        /// Where the history's next record goes, as of the last time this store held the write
        /// lock; `nil` until then.
        var historyTail: HistoryLog.Tail?
        /// The folders a query was answered from the cache file of without loading them: its
        /// walk found no issue and every file readable.
        var answeredFromCache: Set<String> = []
        /// The folders an answer from the cache file left unloaded, as their walk found them;
        /// see `CachedFolder` for when one is let go.
        var cachedFolders: [String: CachedFolder] = [:]
        /// The last history token whose transaction every loaded folder of the catalog reflects,
        /// or `nil` before a folder is loaded: changes a refresh finds that the history after it
        /// does not explain are recorded as external.
        var catalogToken: Int64?

        /// Lets go of what answers from the cache files knew of `folders` (`nil`: all), once
        /// the folders are loaded or written: answers must come from the folders as they are.
        mutating func forgetCachedFolders(_ folders: Set<String>?) {
            guard let folders else {
                cachedFolders = [:]
                return
            }
            for name in folders { cachedFolders[name] = nil }
        }
    }

    /// Creates a store in an empty or new folder: the manifest, `.gitignore` for `.folio/`,
    /// and a folder per entity the manifest's schema names.
    ///
    /// - Throws: `.invalidStore` when `root` is a file or already holds a store, `.invalidInput`
    ///   for an entity name that is not an identifier, `.fileSystem` or `.unsafePath` when a file
    ///   cannot be written, and whatever `open(at:)` throws.
    public static func create(
        at root: String, manifest: StoreManifest, durability: Durability = .full,
        historyLimit: Int = defaultHistoryLimit, reads: StoreReads = .app
    ) throws(FolioError) -> DocumentStore {
        let root = Self.normalized(root)
        if let info = try FileSystem.status(root) {
            guard FileSystem.isDirectory(info) else {
                throw .invalidStore(path: root, reason: "exists and is not a folder")
            }
            guard try FileSystem.status(root + "/" + StoreManifest.fileName) == nil else {
                throw .invalidStore(path: root, reason: "already holds a Folio store")
            }
        } else {
            try FileSystem.makeFolders(atPath: root)
        }
        for entity in manifest.entityNames {
            guard DocumentPath.isIdentifier(entity) else {
                throw .invalidInput("entity name \"\(entity)\" is not an identifier")
            }
        }
        let folder = try OpenFolder(root: root)
        try folder.makeFolders(".folio")
        for entity in manifest.folderNames { try folder.makeFolders(entity) }
        if try folder.status(of: ".gitignore") == nil {
            try folder.createFile(".gitignore", bytes: Array(Self.gitignore.utf8), sync: durability != .none)
        }
        try writeManifest(manifest, in: folder, durability: durability)
        return try open(at: root, durability: durability, historyLimit: historyLimit, reads: reads)
    }

    /// Opens a store: reads the manifest and finishes or discards a crashed writer's journal.
    /// Documents are read when their entity is first used: its folder's cache file, then a
    /// walk of the folder reading only files the cache does not vouch for.
    ///
    /// `lockTimeout` is how long a commit or refresh waits for another process holding
    /// the store's lock before it fails with `FolioError.locked`; `progress` hears how
    /// many of the files the cache did not vouch for are read, for a progress bar;
    /// `historyLimit` is how many transactions the store's history keeps (0: no history).
    ///
    /// - Throws: `.invalidStore` when `root` is no folder, holds no `folio.json` or a manifest
    ///   Folio cannot use; `.unreadableJSON` for a malformed `folio.json`; `.fileSystem` or
    ///   `.unsafePath` when a file cannot be read; `.locked` when recovering a crashed writer's
    ///   journal waits too long for the lock.
    public static func open(
        at root: String, durability: Durability = .full, lockTimeout: Double = 60, progress: ReadProgress? = nil,
        historyLimit: Int = defaultHistoryLimit, reads: StoreReads = .app
    ) throws(FolioError) -> DocumentStore {
        let root = Self.normalized(root)
        let folder = try OpenFolder(root: root)
        guard try folder.status(of: StoreManifest.fileName) != nil else {
            throw .invalidStore(path: root, reason: "holds no \(StoreManifest.fileName), so it is not a Folio store")
        }
        do {
            try folder.makeFolders(".folio")
        } catch let error where error.kind == .fileSystem {
            // A read-only store without `.folio/` can still be read (without a lock).
            guard folder.whyNotWritable() != nil else { throw error }
        }
        // The stamp is taken first: if the file changes while it is read, the next refresh sees a new stamp.
        let manifestStamp = try Self.trustworthyStamp(of: StoreManifest.fileName, in: folder)
        let store = DocumentStore(
            root: root, durability: durability, historyLimit: max(0, historyLimit), folder: folder,
            lock: try StoreLock.forStore(in: folder, timeoutSeconds: lockTimeout),
            manifest: try readManifest(in: folder), manifestStamp: manifestStamp, progress: progress, reads: reads)
        try store.recoverJournals()
        return store
    }

    private init(
        root: String, durability: Durability, historyLimit: Int, folder: OpenFolder, lock: StoreLock,
        manifest: StoreManifest, manifestStamp: FileStamp?, progress: ReadProgress?, reads: StoreReads
    ) {
        self.root = root
        self.progress = progress
        self.reads = reads
        self.durability = durability
        self.historyLimit = historyLimit
        self.folder = folder
        self.lock = lock
        self.state = Mutex(
            State(
                manifest: manifest, manifestStamp: manifestStamp, querySchema: QuerySchema(manifest.storedSchema),
                calendar: manifest.calendar))
    }

    private static func normalized(_ root: String) -> String {
        var root = root
        while root.count > 1, root.hasSuffix("/") { root.removeLast() }
        return root
    }

    /// The manifest as of the last open, refresh or commit.
    public var manifest: StoreManifest { state.withLock { $0.manifest } }

    /// Counters of the work the store has done, for tests and benchmarks.
    public var statistics: StoreStatistics { state.withLock { $0.statistics } }

    /// Files the store could not use, as of the last walk: each with its path and why.
    /// Every entity is read for this.
    public var issues: [StoreIssue] {
        loadReporting(nil)
        return state.withLock { ($0.catalog.issues + $0.loadFailures.values).sorted { $0.path < $1.path } }
    }

    /// The issues that are an entity's documents: files in its folders named as documents
    /// are, which the store could not read (malformed JSON, a link, no permission), or the
    /// folder itself when it could not be read. Any answer about the entity would have to
    /// leave them out.
    public func unreadableDocuments(of entity: String) -> [StoreIssue] {
        let folder = documentFolder(of: entity)
        // An answer from the cache file found the folder clean; loading it to say so again
        // would cost what that answer saved.
        if state.withLock({ $0.answeredFromCache.contains(folder) && !$0.catalog.isLoaded(folder) }) { return [] }
        loadReporting([folder])
        return state.withLock { state in
            // Every fetch asks: a store without issues answers without gathering them.
            if !state.catalog.hasIssues, state.loadFailures.isEmpty { return [] }
            let unreadable = state.catalog.issues.filter {
                $0.path.hasPrefix(folder + "/") && $0.path.hasSuffix(".json")
            }
            return (state.loadFailures[folder] ?? state.loadFailures[""]).map { [$0] + unreadable } ?? unreadable
        }
    }

    /// A transaction that was committed but could not be finished (an immutable or
    /// unwritable file, a full disk), or `nil`. Reads see the part of it already in place;
    /// the next commit, or the next open, finishes it once the cause is fixed, and a commit
    /// fails until then.
    public var unfinishedTransaction: FolioError? { state.withLock { $0.unfinishedTransaction } }

    /// Why reads of this store take no lock, or `nil` when they do: a read-only store (a
    /// read-only mount or checkout) can be read but gives no lock file to take.
    public var unlockedReason: String? { lock.unlockedReason }

    /// A document by entity and identity, as of the last refresh or commit. An entity
    /// whose class inherits from another model finds its documents, and those of the
    /// entities inheriting from it, in its hierarchy's folder.
    public func document(entity: String, id: UUID) -> StoredDocument? {
        loadReporting([documentFolder(of: entity)])
        return state.withLock { state in
            let (folder, kinds) = state.querySchema.folder(of: entity)
            guard let path = state.catalog.path(of: .init(entity: folder, id: id)),
                let stored = Self.stored(at: path, in: &state.catalog)
            else { return nil }
            return kinds.map { $0.contains(stored.content[ModelDocument.entityKey]?.stringValue ?? "") } == false
                ? nil : stored
        }
    }

    /// Whether the entity's folder holds a document with this identity, as of the last
    /// refresh or commit, without reading it: how a required to-one's reference is checked
    /// when its model is read, so that one naming nothing is an error then, not on first use.
    package func holdsDocument(entity: String, id: UUID) -> Bool {
        loadReporting([documentFolder(of: entity)])
        return state.withLock { state in
            state.catalog.path(of: .init(entity: state.querySchema.folder(of: entity).folder, id: id)) != nil
        }
    }

    /// Every document of an entity, in path order (day, then identity); see `document(entity:id:)`.
    public func documents(entity: String) -> [StoredDocument] {
        loadReporting([documentFolder(of: entity)])
        return state.withLock { state in
            let (folder, kinds) = state.querySchema.folder(of: entity)
            let documents = state.catalog.paths.filter { $0.entity == folder }.sorted().compactMap {
                Self.stored(at: $0, in: &state.catalog)
            }
            guard let kinds else { return documents }
            return documents.filter { kinds.contains($0.content[ModelDocument.entityKey]?.stringValue ?? "") }
        }
    }

    /// How many documents of each entity the store holds. Every entity is read for this.
    public var documentCounts: [String: Int] {
        loadReporting(nil)
        return state.withLock { $0.catalog.counts.filter { $0.value > 0 } }
    }

    /// The bytes of the documents' files and their external-storage files, as the last
    /// walk stamped them: no file is read or listed again. Every entity is read for this.
    public var documentBytes: Int64 {
        loadReporting(nil)
        return state.withLock { state in
            state.catalog.entries.values.reduce(0) { $0 + $1.stamp.size }
                + state.catalog.blobs.values.reduce(0) { $0 + $1.size }
        }
    }

    private static func stored(at path: DocumentPath, in catalog: inout Catalog) -> StoredDocument? {
        guard let entry = catalog.entry(at: path), let content = catalog.content(at: path) else { return nil }
        return StoredDocument(version: entry.version, content: content)
    }

    /// Every `.externalStorage` blob file, with the stamp it had when last read or written.
    var blobStamps: [DocumentPath: FileStamp] {
        loadReporting(nil)
        return state.withLock { $0.catalog.blobs }
    }

    /// The properties whose `.externalStorage` blobs sit beside a document.
    func blobProperties(of document: DocumentPath) -> [String] {
        loadReporting([document.entity])
        return state.withLock { $0.catalog.blobs(of: document).keys.compactMap(\.blobProperty) }
    }

    /// The bytes of a document's `.externalStorage` blob, or `nil` when it has none.
    ///
    /// - Throws: `.invalidInput` when `property` is not an identifier; `.fileSystem`, `.unsafePath`
    ///   or `.invalidStore` when the folder or the blob cannot be read; `.unreadableJSON` when
    ///   the blob is larger than Folio reads.
    public func blob(of document: DocumentPath, property: String) throws(FolioError) -> [UInt8]? {
        let path = try document.blob(property)
        try load([document.entity])
        guard state.withLock({ $0.catalog.blobs[path] }) != nil else { return nil }
        return try folder.readFile(path.relativePath, limit: JSONReader.absoluteMaximumSize).bytes
    }

    /// Whether this store serves one command of a process that then ends, and so leaves a
    /// folder unloaded wherever the command can do without it (see `StoreReads`).
    package var servesOneCommand: Bool { reads.servesOneCommand }

    /// Writes the cache now, so the next open reads nothing that has not changed.
    /// Opening a store and closing it do this too; a cache that already holds the
    /// catalog as it is (and whose file nobody replaced) is left alone.
    ///
    /// - Throws: `.fileSystem` or `.unsafePath` when a cache file cannot be written or a file
    ///   cannot be inspected.
    public func writeCache() throws(FolioError) {
        guard try !state.withLock({ state throws(FolioError) in try foldersToCache(state) }).isEmpty else { return }
        // Entries stamped within the file system's clock tick are confirmed after it has
        // passed; the wait is outside the state's mutex, so other threads go on meanwhile.
        if state.withLock({ $0.catalog.hasUnverifiedEntries }) {
            usleep(useconds_t(FileStamp.fineSettlingNanoseconds / 1000))
        }
        let names = try state.withLock { state throws(FolioError) in
            try verifyRecentEntries(&state)
            return try foldersToCache(state)
        }
        // Each folder's entries are taken under the mutex and written outside it, so fetches
        // and saves go on while a large file is written; a change meanwhile is the next write's.
        for name in names {
            let snapshot = state.withLock { state in
                DocumentCache.Snapshot(
                    state.catalog, folder: name, historyToken: state.catalogToken,
                    indexing: state.querySchema.entities[name])
            }
            guard let stamp = try DocumentCache.write(snapshot, in: folder) else { continue }
            state.withLock { state in
                state.cacheOnDisk[name] = (snapshot.revision, stamp)
                state.statistics.cacheWrites += 1
            }
        }
    }

    /// The loaded folders whose cache file is worth writing: those without one (or whose file
    /// someone replaced), and those with more than one change in a hundred entries since it
    /// was written. A few changes are left to the next first use, which reads their files
    /// again (the cache's entries for them no longer match), where rewriting the file cost a
    /// pass over the whole folder: one `insert` into 200,000 strokes wrote 100 MB.
    private func foldersToCache(_ state: State) throws(FolioError) -> [String] {
        // Under `loadsEverything` the folders are those the catalog counts documents of (or did).
        var folders = state.catalog.loadedFolders.union(state.cacheOnDisk.keys)
        if state.catalog.loadsEverything { folders.formUnion(state.catalog.counts.keys) }
        var worth: [String] = []
        for name in folders.sorted() {
            guard let written = state.cacheOnDisk[name],
                let info = try folder.status(of: DocumentCache.fileName(of: name)),
                FileStamp(info) == written.stamp
            else {
                worth.append(name)
                continue
            }
            let changes = state.catalog.revision(of: name) &- written.revision
            if changes > 0, changes > UInt64(state.catalog.counts[name] ?? 0) / 100 { worth.append(name) }
        }
        return worth
    }

    /// Removes the cache of the store at `root`, so the next open reads every file again;
    /// no cache is fine. Through the store's folder, like every file of it.
    ///
    /// - Throws: `.invalidStore` when `root` is no folder; `.fileSystem` or `.unsafePath` when
    ///   the cache cannot be removed.
    public static func discardCache(at root: String) throws(FolioError) {
        try DocumentCache.discard(in: OpenFolder(root: normalized(root)))
    }

    /// Writes the cache; the store may still be used afterwards.
    ///
    /// - Throws: what `writeCache()` throws.
    public func close() throws(FolioError) { try writeCache() }

    /// Confirms the content of entries stamped within the file system's clock tick, once the
    /// tick has passed, by comparing their bytes, so the cache can trust them.
    func verifyRecentEntries(_ state: inout State) throws(FolioError) {
        let recent = state.catalog.entries.values.filter { !$0.verified }
        guard !recent.isEmpty else { return }
        for entry in recent {
            guard
                let (bytes, stamp) = try? folder.readFile(
                    entry.path.relativePath, limit: JSONReader.absoluteMaximumSize),
                stamp == entry.stamp, ContentHash.of(bytes) == entry.contentHash, !stamp.isRacy(now: FileSystem.now())
            else { continue }  // changed or unreadable since: left unverified, so not cached
            state.catalog.setVerified(entry.path)
        }
    }

    /// A file's stamp if it can vouch for the content (taken after the file's clock tick), else `nil`.
    static func trustworthyStamp(of relative: String, in folder: OpenFolder) throws(FolioError) -> FileStamp? {
        guard let info = try folder.status(of: relative) else { return nil }
        let stamp = FileStamp(info)
        return stamp.isRacy(now: FileSystem.now()) ? nil : stamp
    }

    /// The manifest in a store's folder; a link in its place is refused, never followed.
    static func readManifest(in folder: OpenFolder) throws(FolioError) -> StoreManifest {
        let path = folder.pathOf(StoreManifest.fileName)
        let bytes = try folder.readFile(StoreManifest.fileName, limit: JSONReader.defaultMaximumSize).bytes
        do {
            return try StoreManifest(json: JSONReader().read(bytes, file: path), path: path, text: bytes)
        } catch let error as JSONError {
            throw .unreadableJSON(error)
        } catch let error as FolioError {
            throw error
        } catch {
            throw .invalidStore(path: path, reason: "\(error)")
        }
    }

    /// The store's `.gitignore`: Folio's local state, and files staged by a transaction
    /// that a crash left behind (hidden, and removed when the journal is recovered).
    static let gitignore =
        "# Folio's local state: lock, journal, cache\n.folio/\n# files staged by an unfinished transaction\n.*\(Journal.stagedSuffix)\n"

    static func writeManifest(_ manifest: StoreManifest, in folder: OpenFolder, durability: Durability)
        throws(FolioError)
    {
        let bytes: [UInt8]
        do { bytes = try JSONWriter().write(manifest.json) } catch {
            throw .invalidDocument(
                path: StoreManifest.fileName, reason: "the manifest cannot be written: \(error.message)")
        }
        let temporary = ".\(StoreManifest.fileName).\(getpid()).tmp"
        try folder.removeFile(temporary)  // left by a crash of an earlier process with this id
        try folder.createFile(temporary, bytes: bytes, sync: durability != .none)
        try folder.rename(temporary, to: StoreManifest.fileName)
        if durability != .none { try folder.sync() }
    }

    /// Finishes or discards journals left by a crashed writer. Opening a store must not
    /// depend on it where reading can go on without: a committed transaction that cannot be
    /// finished yet is kept as `unfinishedTransaction`, and a read-only store is read as it
    /// is. A link in the journal's place is refused, never followed.
    func recoverJournals() throws(FolioError) {
        let journals = try folder.folder(at: Journal.folder)
        let crashed = try journals?.list().contains(where: Journal.isJournalName) ?? false
        // The history's newest record is settled at open too, so reads never see one whose
        // transaction a crash undid.
        guard crashed || (historyLimit > 0 && lock.unlockedReason == nil) else { return }
        do {
            let recovered = try lock.withLock(.exclusive) { () throws(FolioError) in try recoverCrashedWriters() }
            state.withLock {
                $0.statistics.transactionsRecovered += recovered.finished
                $0.statistics.transactionsDiscarded += recovered.discarded.count
                $0.unfinishedTransaction = nil
            }
        } catch let error where error.kind == .unfinishedCommit {
            state.withLock { $0.unfinishedTransaction = error }
        } catch let error where error.kind == .fileSystem && lock.unlockedReason != nil {
            // Read-only: an uncommitted journal only left hidden staged files, which reads pass over.
            let committed =
                try journals?.list().contains {
                    Journal.isJournalName($0) && (try? journals?.status(of: $0 + "/" + Journal.recordName)) != nil
                } ?? false
            if committed {
                state.withLock { $0.unfinishedTransaction = .unfinishedCommit(error) }
            }
        }
    }
}

/// Counters of a store's work since it was opened.
public struct StoreStatistics: Sendable, Equatable {
    /// Document files read and parsed (the cache spares unchanged ones).
    public var filesRead = 0
    /// Documents answered from the cache without reading their files.
    public var cacheHits = 0
    /// Transactions committed by this store.
    public var transactionsCommitted = 0
    /// Crashed writers' transactions finished (had their commit record) or discarded (had not).
    public var transactionsRecovered = 0
    /// Crashed writers' transactions thrown away because they had no commit record: none of
    /// their files were moved into place.
    public var transactionsDiscarded = 0
    /// Queries answered from a folder's cache file without loading the folder (see
    /// `DocumentStore.servesOneCommand`).
    public var answersFromCacheFiles = 0
    /// Times `.folio/cache` was written (a close or open that found it current writes nothing).
    public var cacheWrites = 0
    /// Why opening could not write the cache, if it could not (the store works without it).
    public var cacheWriteFailure: FolioError?
    /// Why the last changes found on disk could not be recorded in the history, if they could not.
    public var historyWriteFailure: FolioError?
}

extension StoreManifest {
    /// The entities the schema names (`schema.entities`' keys).
    var entityNames: [String] { storedSchema.entityNames }

    /// The entities whose documents have folders of their own, made at creation: all but
    /// those whose class inherits from another model, whose documents are in its root's folder.
    var folderNames: [String] { storedSchema.entities.filter { !$0.hasSuperentity }.map(\.name) }
}
