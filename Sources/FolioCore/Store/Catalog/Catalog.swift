import FolioJSON
import Foundation

/// What the store knows of its tree: every readable document with its stamp and
/// content, every blob, and every file it could not use.
struct Catalog {
    struct Entry {
        var path: DocumentPath
        var stamp: FileStamp
        var contentHash: UInt64
        /// Whether the stamp was taken long enough after the file's mtime that a later
        /// rewrite must change it; otherwise only the content hash proves the file unchanged.
        var verified: Bool
        var content: DocumentContent
        /// The last walk that found this entry's file (see `Catalog.see`).
        var lastSeen: UInt32 = 0

        var version: DocumentVersion {
            DocumentVersion(path: path, stamp: stamp, contentHash: contentHash, verified: verified)
        }
    }

    /// The documents by identity: one table, since a document's identity names it in one
    /// folder only (a second file with the same identity is reported, not kept).
    private(set) var entries = CatalogEntries()

    /// Whether any entry was stamped within its file system's clock tick and not confirmed since.
    var hasUnverifiedEntries: Bool { entries.values.contains { !$0.verified } }
    /// Every `.externalStorage` blob file, with its stamp.
    private(set) var blobs: [DocumentPath: FileStamp] = [:]
    /// The blob paths of each document that has any, so a save finds a document's blobs
    /// without going through every blob of the store.
    private var blobPaths: [DocumentPath: Set<DocumentPath>] = [:]
    /// Files that failed to read or parse, with the stamp they had, so they are not
    /// read again until they change.
    var brokenFiles: [String: (stamp: FileStamp, issue: StoreIssue)] = [:]
    /// Out-of-place files and folders found by the last walk.
    var layoutIssues: [StoreIssue] = []
    /// A number per entity that changes whenever one of its documents is added, replaced
    /// or removed, so the query indexes know when to rebuild.
    private var generations: [String: UInt64] = [:]
    /// How many documents each entity has.
    private(set) var counts: [String: Int] = [:]
    private var lastGeneration: UInt64 = 0
    /// The paths each change touched since the query indexes last caught up, per entity,
    /// so that they follow a few changes rather than rebuild (see `changes(of:since:)`).
    /// Kept only for entities the indexes have a table of: loading a store logs nothing.
    private var changeLogs: [String: ChangeLog] = [:]

    /// The paths an entity's changes touched, in order, from one generation on.
    private struct ChangeLog {
        /// Every change made after this generation is in `changes`.
        var completeAfter: UInt64 = 0
        var changes: [(generation: UInt64, path: DocumentPath)] = []

        /// The most changes a log keeps: a table older than that many is rebuilt anyway.
        static let limit = 256

        mutating func record(_ path: DocumentPath, generation: UInt64) {
            guard changes.count < Self.limit else {
                // A large save, or a checkout: start over from this change.
                self = ChangeLog(completeAfter: generation)
                return
            }
            changes.append((generation, path))
        }
    }

    /// A number per folder that changes whenever what its file in `.folio/cache/` would
    /// hold changes: an entry added, replaced, removed or verified. The store skips
    /// rewriting a folder's file that already holds its revision.
    private(set) var revisions: [String: UInt64] = [:]

    /// Forgets one folder's documents, blobs and issues, to be loaded again on next use:
    /// after an import, which wrote the folder's cache file rather than holding every
    /// document it wrote in memory. The folder's generation moves on, with no log of its
    /// changes, so its query table is built anew.
    mutating func unload(_ folder: String) {
        entries.removeAll { $0.path.entity == folder }
        counts[folder] = nil
        for path in blobs.keys where path.entity == folder { removeBlob(path) }
        let prefix = folder + "/"
        brokenFiles = brokenFiles.filter { !$0.key.hasPrefix(prefix) }
        layoutIssues = layoutIssues.filter { !$0.path.hasPrefix(prefix) }
        lastGeneration += 1
        generations[folder] = lastGeneration
        revisions[folder, default: 0] += 1
        changeLogs[folder] = nil
    }

    /// The revision of one folder's entries.
    func revision(of folder: String) -> UInt64 { revisions[folder] ?? 0 }
    /// How many walks `see` has been told of.
    private(set) var walks: UInt32 = 0

    var count: Int { entries.count }

    /// Every document's path, in no particular order.
    var paths: some Collection<DocumentPath> { entries.values.lazy.map(\.path) }

    /// Where the entry at exactly this path sits in `entries` (its identity could sit elsewhere).
    private func index(of path: DocumentPath) -> Int? {
        guard let index = entries.position(of: PersistentIdentifier(path)), entries.values[index].path == path else {
            return nil
        }
        return index
    }

    func entry(at path: DocumentPath) -> Entry? { index(of: path).map { entries.values[$0] } }

    mutating func reserveCapacity(_ count: Int) { entries.reserveCapacity(count) }

    func path(of identity: PersistentIdentifier) -> DocumentPath? { entries.entry(for: identity)?.path }

    /// Adds or replaces the entry at its path. A second file with the same identity in
    /// another day folder is refused, and the path already there returned (the caller reports it).
    @discardableResult
    mutating func insert(_ entry: Entry) -> DocumentPath? {
        let identity = PersistentIdentifier(entry.path)
        if let existing = path(of: identity), existing != entry.path { return existing }
        if entries.put(entry) { counts[identity.entityName, default: 0] += 1 }
        changed(entry.path)
        return nil
    }

    /// Marks an entry's stamp as proof of its content (after its bytes were confirmed).
    mutating func setVerified(_ path: DocumentPath) {
        guard let index = index(of: path), !entries.values[index].verified else { return }
        entries.setVerified(at: index)
        revisions[path.entity, default: 0] += 1
    }

    /// Gives an entry the stamp its file has now, its bytes found the same as the entry's:
    /// its content did not change, so neither does its generation.
    mutating func restamp(_ path: DocumentPath, _ stamp: FileStamp, verified: Bool) {
        guard let index = index(of: path) else { return }
        entries.setStamp(stamp, verified: verified, at: index)
        revisions[path.entity, default: 0] += 1
    }

    mutating func remove(_ path: DocumentPath) {
        guard let index = index(of: path) else { return }
        entries.remove(at: index)
        counts[path.entity, default: 1] -= 1
        changed(path)
    }

    /// The current generation of an entity's documents.
    func generation(of entity: String) -> UInt64 { generations[entity] ?? 0 }

    /// The paths of an entity's documents added, replaced or removed since `generation`
    /// (a document that moved: both its paths), or `nil` when the log no longer reaches
    /// back that far.
    func changes(of entity: String, since generation: UInt64) -> Set<DocumentPath>? {
        guard let log = changeLogs[entity], generation >= log.completeAfter else { return nil }
        let start = log.changes.partitioningIndex { $0.generation > generation }
        return Set(log.changes[start...].lazy.map(\.path))
    }

    /// Drops the log of an entity's changes up to `generation`, which the indexes have
    /// caught up with, and logs the entity's changes from there on.
    mutating func forgetChanges(of entity: String, through generation: UInt64) {
        var log = changeLogs.removeValue(forKey: entity) ?? ChangeLog(completeAfter: generation)
        let caughtUp = log.changes.partitioningIndex { $0.generation > generation }
        // Emptied, the array gives its memory back (a large save filled it).
        if caughtUp == log.changes.count { log.changes = [] } else { log.changes.removeFirst(caughtUp) }
        log.completeAfter = max(log.completeAfter, generation)
        changeLogs[entity] = log
    }

    private mutating func changed(_ path: DocumentPath) {
        lastGeneration += 1
        generations[path.entity] = lastGeneration
        revisions[path.entity, default: 0] += 1
        changeLogs[path.entity]?.record(path, generation: lastGeneration)
    }

    /// Starts a walk of the tree, whose findings `see` records.
    mutating func beginWalk() -> UInt32 {
        walks += 1
        return walks
    }

    /// What the catalog knew of a file a walk found.
    enum Sighting {
        /// An entry at this path with this stamp, which vouches for its content.
        case unchanged
        /// An entry at this path with another stamp (the file changed), or with one taken
        /// within its file system's clock tick, which cannot vouch for it (read it again).
        case changed
        /// No entry at this path.
        case new
    }

    /// Records that `walk` found a file at `path` with `stamp`: an entry at that path
    /// is marked seen (so `unseen` leaves it out), whatever its stamp. One lookup.
    mutating func see(_ path: DocumentPath, stamp: FileStamp, walk: UInt32) -> Sighting {
        guard let index = index(of: path) else { return .new }
        entries.setLastSeen(walk, at: index)
        let entry = entries.values[index]
        return entry.stamp == stamp && entry.verified ? .unchanged : .changed
    }

    /// The paths of entries in these folders (`nil`: all) whose files `walk` did not find.
    func unseen(by walk: UInt32, in folders: Set<String>?) -> [DocumentPath] {
        entries.values.filter { $0.lastSeen != walk && folders?.contains($0.path.entity) != false }.map(\.path)
    }

    /// The entries of one folder, in no particular order, read in place: a copy of 200,000
    /// entries was a tenth of a first query's time.
    func entries(inFolder folder: String) -> LazyFilterCollection<[Entry]> {
        entries.values.lazy.filter { $0.path.entity == folder }
    }

    /// The parsed content of an entry, decoding (and keeping) cached content on first use.
    mutating func content(at path: DocumentPath) -> JSONObject? { document(at: path)?.content }

    /// The parsed content of an entry and the version it was read at, in one lookup.
    mutating func document(at path: DocumentPath) -> (content: JSONObject, version: DocumentVersion)? {
        guard let index = index(of: path), let object = entries.values[index].content.object else { return nil }
        return (object, entries.values[index].version)
    }

    /// An entry's content, parsed or not yet, and the version it was read at.
    func storedContent(at path: DocumentPath) -> (content: DocumentContent, version: DocumentVersion)? {
        guard let index = index(of: path) else { return nil }
        return (entries.values[index].content, entries.values[index].version)
    }

    /// The blob paths that belong to a document.
    func blobs(of document: DocumentPath) -> [DocumentPath: FileStamp] {
        guard let paths = blobPaths[document] else { return [:] }
        return Dictionary(uniqueKeysWithValues: paths.compactMap { path in blobs[path].map { (path, $0) } })
    }

    /// Records a blob file and its stamp.
    mutating func setBlob(_ path: DocumentPath, stamp: FileStamp) {
        blobs[path] = stamp
        blobPaths[path.document, default: []].insert(path)
    }

    /// Forgets a blob file.
    mutating func removeBlob(_ path: DocumentPath) {
        guard blobs.removeValue(forKey: path) != nil else { return }
        blobPaths[path.document]?.remove(path)
        if blobPaths[path.document]?.isEmpty == true { blobPaths[path.document] = nil }
    }

    /// Replaces the blobs of these folders (`nil`: all) with those a walk of them found.
    mutating func replaceBlobs(_ found: [DocumentPath: FileStamp], in folders: Set<String>?) {
        if let folders {
            for path in blobs.keys where folders.contains(path.entity) { removeBlob(path) }
            for (path, stamp) in found { setBlob(path, stamp: stamp) }
        } else {
            blobs = found
            blobPaths = Dictionary(grouping: found.keys, by: \.document).mapValues(Set.init)
        }
    }

    var issues: [StoreIssue] {
        (layoutIssues + brokenFiles.values.map(\.issue)).sorted { $0.path < $1.path }
    }

    /// Whether `issues` has any, without gathering them (every fetch asks).
    var hasIssues: Bool { !layoutIssues.isEmpty || !brokenFiles.isEmpty }
}
