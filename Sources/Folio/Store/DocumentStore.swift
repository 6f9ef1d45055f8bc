import Foundation
import FolioJSON
import Glibc
import Synchronization

/// Hears how many files of how many are read, from any thread.
public typealias ReadProgress = @Sendable (_ read: Int, _ total: Int) -> Void

/// A Folio store on disk: a directory of JSON documents under a `folio.json` manifest.
///
/// This is the storage engine beneath the model layer. It knows documents (JSON
/// objects with an entity, an identity and a partition day), not Swift models.
/// Reads come from an in-memory catalog built by a `stat`-only walk and kept current
/// by `refresh()`; `commit(_:)` writes a batch of changes as one crash-safe
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
    let lock: StoreLock
    let state: Mutex<State>

    struct State {
        var manifest: StoreManifest {
            didSet {
                querySchema = QuerySchema(manifest.schema)
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
        /// What `.folio/cache` holds: the catalog revision it was loaded or written at, and
        /// the cache file's stamp then. A close with neither changed writes nothing.
        var cacheOnDisk: (revision: UInt64, stamp: FileStamp)?
    }

    /// Creates a store in an empty or new folder: the manifest, `.gitignore` for `.folio/`,
    /// and a folder per entity the manifest's schema names.
    public static func create(at root: String, manifest: StoreManifest, durability: Durability = .full) throws(FolioError) -> DocumentStore {
        let root = Self.normalized(root)
        if let info = try FileSystem.status(root) {
            guard FileSystem.isDirectory(info) else { throw .invalidStore(path: root, reason: "exists and is not a folder") }
            guard try FileSystem.status(root + "/" + StoreManifest.fileName) == nil else {
                throw .invalidStore(path: root, reason: "already holds a Folio store")
            }
        } else if root.hasPrefix("/") {
            try FileSystem.makeDirectories(String(root.dropFirst()), under: "")
        } else {
            try FileSystem.makeDirectories(root, under: ".")
        }
        try FileSystem.makeDirectories(".folio", under: root)
        for entity in manifest.entityNames {
            guard DocumentPath.isIdentifier(entity) else { throw .invalidArgument("entity name \"\(entity)\" is not an identifier") }
            try FileSystem.makeDirectories(entity, under: root)
        }
        if try FileSystem.status(root + "/.gitignore") == nil {
            try FileSystem.createFile(root + "/.gitignore", bytes: Array(Self.gitignore.utf8), sync: durability != .none)
        }
        try writeManifest(manifest, root: root, durability: durability)
        return try open(at: root, durability: durability)
    }

    /// Opens a store: finishes or discards a crashed writer's journal, then builds the
    /// catalog from the cache and a walk, reading only files the cache does not vouch for.
    ///
    /// `lockTimeout` is how long a commit or refresh waits for another process holding
    /// the store's lock before it fails with `FolioError.locked`; `progress` hears how
    /// many of the files the cache did not vouch for are read, for a progress bar.
    public static func open(
        at root: String, durability: Durability = .full, lockTimeout: Double = 60, progress: ReadProgress? = nil
    ) throws(FolioError) -> DocumentStore {
        let root = Self.normalized(root)
        guard let info = try FileSystem.status(root), FileSystem.isDirectory(info) else {
            throw .invalidStore(path: root, reason: "no such folder")
        }
        let manifestPath = root + "/" + StoreManifest.fileName
        guard try FileSystem.status(manifestPath) != nil else {
            throw .invalidStore(path: root, reason: "holds no \(StoreManifest.fileName), so it is not a Folio store")
        }
        try FileSystem.makeDirectories(".folio", under: root)
        // The stamp is taken first: if the file changes while it is read, the next refresh sees a new stamp.
        let manifestStamp = try Self.trustworthyStamp(of: manifestPath)
        let store = DocumentStore(
            root: root, durability: durability, lock: try StoreLock(path: root + "/.folio/lock", timeoutSeconds: lockTimeout),
            manifest: try readManifest(at: manifestPath), manifestStamp: manifestStamp)
        try store.recoverJournals()
        let changes = try store.refresh(loadingCache: true, progress: progress)
        if changes.filesRead > 0 || !changes.removed.isEmpty {
            // The cache only spares the next open some reads: failing to write it (a full
            // disk, a read-only checkout) must not keep anyone from their data.
            do {
                try store.writeCache()
            } catch {
                store.state.withLock { $0.statistics.cacheWriteFailure = error }
            }
        }
        return store
    }

    private init(root: String, durability: Durability, lock: StoreLock, manifest: StoreManifest, manifestStamp: FileStamp?) {
        self.root = root
        self.durability = durability
        self.lock = lock
        self.state = Mutex(State(manifest: manifest, manifestStamp: manifestStamp, querySchema: QuerySchema(manifest.schema), calendar: manifest.calendar))
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
    public var issues: [StoreIssue] { state.withLock { $0.catalog.issues } }

    /// A document by entity and identity, as of the last refresh or commit.
    public func document(entity: String, id: UUID) -> StoredDocument? {
        state.withLock { state in
            guard let path = state.catalog.path(of: .init(entity: entity, id: id)) else { return nil }
            return Self.stored(at: path, in: &state.catalog)
        }
    }

    /// Every document of an entity, in path order (day, then identity).
    public func documents(entity: String) -> [StoredDocument] {
        state.withLock { state in
            state.catalog.paths.filter { $0.entity == entity }.sorted()
                .compactMap { Self.stored(at: $0, in: &state.catalog) }
        }
    }

    /// How many documents of each entity the store holds.
    public var documentCounts: [String: Int] {
        state.withLock { $0.catalog.counts.filter { $0.value > 0 } }
    }

    private static func stored(at path: DocumentPath, in catalog: inout Catalog) -> StoredDocument? {
        guard let entry = catalog.entry(at: path), let content = catalog.content(at: path) else { return nil }
        return StoredDocument(version: entry.version, content: content)
    }

    /// Every `.externalStorage` blob file, with the stamp it had when last read or written.
    var blobStamps: [DocumentPath: FileStamp] { state.withLock { $0.catalog.blobs } }

    /// The properties whose `.externalStorage` blobs sit beside a document.
    func blobProperties(of document: DocumentPath) -> [String] {
        state.withLock { $0.catalog.blobs(of: document).keys.compactMap(\.blobProperty) }
    }

    /// The bytes of a document's `.externalStorage` blob, or `nil` when it has none.
    public func blob(of document: DocumentPath, property: String) throws(FolioError) -> [UInt8]? {
        let path = try document.blob(property)
        guard state.withLock({ $0.catalog.blobs[path] }) != nil else { return nil }
        return try FileSystem.readFile(root + "/" + path.relativePath, limit: JSONReader.absoluteMaximumSize).bytes
    }

    /// Writes the cache now, so the next open reads nothing that has not changed.
    /// Opening a store and closing it do this too; a cache that already holds the
    /// catalog as it is (and whose file nobody replaced) is left alone.
    public func writeCache() throws(FolioError) {
        try state.withLock { state throws(FolioError) in
            try verifyRecentEntries(&state)
            if let written = state.cacheOnDisk, written.revision == state.catalog.revision,
                let info = try FileSystem.status(root + "/" + DocumentCache.fileName), FileStamp(info) == written.stamp
            {
                return
            }
            let stamp = try DocumentCache.write(&state.catalog, storeRoot: root)
            state.cacheOnDisk = (state.catalog.revision, stamp)
            state.statistics.cacheWrites += 1
        }
    }

    /// Writes the cache; the store may still be used afterwards.
    public func close() throws(FolioError) { try writeCache() }

    /// Confirms the content of entries stamped within the file system's clock tick, by
    /// waiting for the tick to pass and comparing their bytes, so the cache can trust them.
    private func verifyRecentEntries(_ state: inout State) throws(FolioError) {
        let recent = state.catalog.entries.values.filter { !$0.verified }
        guard !recent.isEmpty else { return }
        usleep(useconds_t(FileStamp.racyWindowNanoseconds / 1000))
        for entry in recent {
            let path = root + "/" + entry.path.relativePath
            guard let (bytes, stamp) = try? FileSystem.readFile(path, limit: JSONReader.absoluteMaximumSize),
                stamp == entry.stamp, ContentHash.of(bytes) == entry.contentHash, !stamp.isRacy(now: FileSystem.now())
            else { continue }  // changed or unreadable since: left unverified, so not cached
            state.catalog.setVerified(entry.path)
        }
    }

    /// A file's stamp if it can vouch for the content (taken after the file's clock tick), else `nil`.
    static func trustworthyStamp(of path: String) throws(FolioError) -> FileStamp? {
        guard let info = try FileSystem.status(path) else { return nil }
        let stamp = FileStamp(info)
        return stamp.isRacy(now: FileSystem.now()) ? nil : stamp
    }

    static func readManifest(at path: String) throws(FolioError) -> StoreManifest {
        do {
            return try StoreManifest(json: JSONReader().read(contentsOfFile: path), path: path)
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
    static let gitignore = "# Folio's local state: lock, journal, cache\n.folio/\n# files staged by an unfinished transaction\n.*\(Journal.stagedSuffix)\n"

    static func writeManifest(_ manifest: StoreManifest, root: String, durability: Durability) throws(FolioError) {
        let bytes: [UInt8]
        do { bytes = try JSONWriter().write(manifest.json) } catch {
            throw .invalidDocument(path: StoreManifest.fileName, reason: "the manifest cannot be written: \(error.message)")
        }
        let path = root + "/" + StoreManifest.fileName
        let temporary = path + ".\(getpid()).tmp"
        try FileSystem.createFile(temporary, bytes: bytes, sync: durability != .none)
        try FileSystem.rename(temporary, to: path)
        if durability != .none { try FileSystem.syncDirectory(root) }
    }

    /// Finishes or discards journals left by a crashed writer.
    func recoverJournals() throws(FolioError) {
        let folder = root + "/" + Journal.folder
        guard try FileSystem.status(folder) != nil, try !FileSystem.list(folder).isEmpty else { return }
        let recovered = try lock.withLock(.exclusive) { () throws(FolioError) in try Journal.recover(in: root, durability: durability) }
        state.withLock {
            $0.statistics.transactionsRecovered += recovered.finished
            $0.statistics.transactionsDiscarded += recovered.discarded
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
    public var transactionsDiscarded = 0
    /// Times `.folio/cache` was written (a close or open that found it current writes nothing).
    public var cacheWrites = 0
    /// Why opening could not write the cache, if it could not (the store works without it).
    public var cacheWriteFailure: FolioError?
}

extension StoreManifest {
    /// The entities the schema names (`schema.entities`' keys), which get folders at creation.
    var entityNames: [String] { schema["entities"]?.objectValue?.keys ?? [] }
}
