import FolioJSON
import Foundation
import Glibc

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
    /// What the store holds in memory, behind its one mutex.
    let memory: StoreMemory
    /// Hears how many files a folder's first use reads, for a progress bar.
    let progress: ReadProgress?
    /// How reads are answered: for an app, or for one command.
    let reads: StoreReads
    /// What the writer keeps between commits: a transaction left unfinished, staged files to sweep.
    let writer = StoreWriter()
    /// Where the history ends, as this store last wrote or read it.
    let historyEnd = HistoryEnd()
    /// The git tree the documents are read from when the store is a past revision's copy
    /// (see `open(_:)`), or nil when they are the folder's files.
    let pastTree: RevisionTree?

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
        let store = try DocumentStore(
            root: root, durability: durability, historyLimit: max(0, historyLimit), folder: folder,
            lockTimeout: lockTimeout, progress: progress, reads: reads)
        try store.recoverJournals()
        return store
    }

    /// Opens a past revision's copy (see `RevisionCopy`), read-only and without history: its
    /// manifest from the copy's folder and, for a copy that holds no documents, its documents
    /// from git's objects, with the copy's cache files vouching for those read before.
    ///
    /// - Throws: what `open(at:)` throws.
    package static func open(_ copy: RevisionCopy, progress: ReadProgress? = nil, reads: StoreReads = .app)
        throws(FolioError) -> DocumentStore
    {
        guard let tree = copy.objects else {
            return try open(at: copy.root, durability: .none, progress: progress, historyLimit: 0, reads: reads)
        }
        let folder = try OpenFolder(root: copy.root)
        try folder.makeFolders(".folio")
        return try DocumentStore(
            root: copy.root, durability: .none, historyLimit: 0, folder: folder, lockTimeout: 60, progress: progress,
            reads: reads, pastTree: tree)
    }

    /// The store in `folder`, its lock made and its manifest read.
    private init(
        root: String, durability: Durability, historyLimit: Int, folder: OpenFolder, lockTimeout: Double,
        progress: ReadProgress?, reads: StoreReads, pastTree: RevisionTree? = nil
    ) throws(FolioError) {
        // The stamp is taken first: if the file changes while it is read, the next refresh sees a new stamp.
        let manifestStamp = try Self.trustworthyStamp(of: StoreManifest.fileName, in: folder)
        self.lock = try StoreLock.forStore(in: folder, timeoutSeconds: lockTimeout)
        self.memory = StoreMemory(manifest: try Self.readManifest(in: folder), stamp: manifestStamp)
        self.pastTree = pastTree
        self.root = root
        self.progress = progress
        self.reads = reads
        self.durability = durability
        self.historyLimit = historyLimit
        self.folder = folder
    }

    static func normalized(_ root: String) -> String {
        var root = root
        while root.count > 1, root.hasSuffix("/") { root.removeLast() }
        return root
    }

    /// The manifest as of the last open, refresh or commit.
    public var manifest: StoreManifest { memory.manifest }

    /// Counters of the work the store has done, for tests and benchmarks.
    public var statistics: StoreStatistics { memory.statistics }

    /// Files the store could not use, as of the last walk: each with its path and why.
    /// Every entity is read for this.
    public var issues: [StoreIssue] {
        loadReporting(nil)
        return memory.issues
    }

    /// The issues that are an entity's documents: files in its folders named as documents
    /// are, which the store could not read (malformed JSON, a link, no permission), or the
    /// folder itself when it could not be read. Any answer about the entity would have to
    /// leave them out.
    public func unreadableDocuments(of entity: String) -> [StoreIssue] {
        let known = memory.unreadableDocuments(of: entity)
        if let issues = known.issues { return issues }
        loadReporting([known.folder])
        return memory.unreadableDocuments(of: entity, evenUnloaded: true).issues ?? []
    }

    /// A transaction that was committed but could not be finished (an immutable or
    /// unwritable file, a full disk), or `nil`. Reads see the part of it already in place;
    /// the next commit, or the next open, finishes it once the cause is fixed, and a commit
    /// fails until then.
    public var unfinishedTransaction: FolioError? { writer.unfinishedTransaction }

    /// Why reads of this store take no lock, or `nil` when they do: a read-only store (a
    /// read-only mount or checkout) can be read but gives no lock file to take.
    public var unlockedReason: String? { lock.unlockedReason }

    /// A document by entity and identity, as of the last refresh or commit. An entity
    /// whose class inherits from another model finds its documents, and those of the
    /// entities inheriting from it, in its hierarchy's folder.
    public func document(entity: String, id: UUID) -> StoredDocument? {
        let known = memory.document(entity: entity, id: id)
        if known.isLoaded { return known.document }
        loadReporting([known.folder])
        return memory.document(entity: entity, id: id).document
    }

    /// Whether the entity's folder holds a document with this identity, as of the last
    /// refresh or commit, without reading it: how a required to-one's reference is checked
    /// when its model is read, so that one naming nothing is an error then, not on first use.
    package func holdsDocument(entity: String, id: UUID) -> Bool {
        let known = memory.holdsDocument(entity: entity, id: id)
        if let holds = known.holds { return holds }
        loadReporting([known.folder])
        return memory.holdsDocument(entity: entity, id: id).holds ?? false
    }

    /// Every document of an entity, in path order (day, then identity); see `document(entity:id:)`.
    public func documents(entity: String) -> [StoredDocument] {
        loadReporting([documentFolder(of: entity)])
        return memory.documents(entity: entity)
    }

    /// How many documents of each entity the store holds. Every entity is read for this.
    public var documentCounts: [String: Int] {
        loadReporting(nil)
        return memory.documentCounts
    }

    /// The bytes of the documents' files and their external-storage files, as the last
    /// walk stamped them: no file is read or listed again. Every entity is read for this.
    /// A past revision's are the sizes git records for the files of its layout, or 0 where
    /// git cannot list its tree (which its documents' reading has then said).
    public var documentBytes: Int64 {
        loadReporting(nil)
        // A revision's stamps hold its objects' ids, so git is asked their sizes.
        if let pastTree { return (try? pastTree.fileBytes()) ?? 0 }
        return memory.documentBytes
    }

    /// Every `.externalStorage` blob file, with the stamp it had when last read or written.
    var blobStamps: [DocumentPath: FileStamp] {
        loadReporting(nil)
        return memory.blobStamps
    }

    /// The properties whose `.externalStorage` blobs sit beside a document.
    func blobProperties(of document: DocumentPath) -> [String] {
        loadReporting([document.entity])
        return memory.blobs(of: document).keys.compactMap(\.blobProperty)
    }

    /// The bytes of a document's `.externalStorage` blob, or `nil` when it has none.
    ///
    /// - Throws: `.invalidInput` when `property` is not an identifier; `.fileSystem`, `.unsafePath`
    ///   or `.invalidStore` when the folder or the blob cannot be read; `.unreadableJSON` when
    ///   the blob is larger than Folio reads.
    public func blob(of document: DocumentPath, property: String) throws(FolioError) -> [UInt8]? {
        let path = try document.blob(property)
        try load([document.entity])
        guard let stamp = memory.blobs(of: document)[path] else { return nil }
        return try fileContent(path.relativePath, stamp: stamp, limit: JSONReader.absoluteMaximumSize).bytes
    }

    /// Whether this store serves one command of a process that then ends, and so leaves a
    /// folder unloaded wherever the command can do without it (see `StoreReads`).
    package var servesOneCommand: Bool { reads.servesOneCommand }
}
