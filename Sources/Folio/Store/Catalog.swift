import Foundation
import FolioJSON

/// What the store knows of its tree: every readable document with its stamp and
/// content, every blob, and every file it could not use.
struct Catalog {
    /// A document's content: parsed, or still in compact form in the cache's buffer,
    /// decoded the first time someone asks (so a warm open parses nothing).
    enum Content {
        case parsed(JSONObject)
        case cached(CacheBuffer, Range<Int>)
    }

    struct Entry {
        var path: DocumentPath
        var stamp: FileStamp
        var contentHash: UInt64
        /// Whether the stamp was taken long enough after the file's mtime that a later
        /// rewrite must change it; otherwise only the content hash proves the file unchanged.
        var verified: Bool
        var content: Content

        var version: DocumentVersion { DocumentVersion(path: path, stamp: stamp, contentHash: contentHash, verified: verified) }
    }

    /// An entity and an identity: what names a document regardless of its day folder.
    struct Identity: Hashable {
        var entity: String
        var id: UUID

        /// The UUID alone tells identities apart; hashing the entity's name too would cost more.
        func hash(into hasher: inout Hasher) { hasher.combine(id) }
    }

    private(set) var entries: [DocumentPath: Entry] = [:]
    private(set) var identities: [Identity: DocumentPath] = [:]
    var blobs: [DocumentPath: FileStamp] = [:]
    /// Files that failed to read or parse, with the stamp they had, so they are not
    /// read again until they change.
    var brokenFiles: [String: (stamp: FileStamp, issue: StoreIssue)] = [:]
    /// Out-of-place files and folders found by the last walk.
    var layoutIssues: [StoreIssue] = []

    func entry(at path: DocumentPath) -> Entry? { entries[path] }

    mutating func reserveCapacity(_ count: Int) {
        entries.reserveCapacity(count)
        identities.reserveCapacity(count)
    }

    func path(of identity: Identity) -> DocumentPath? { identities[identity] }

    /// Adds or replaces the entry at its path. A second file with the same identity in
    /// another day folder is refused (the caller reports it).
    @discardableResult
    mutating func insert(_ entry: Entry) -> DocumentPath? {
        let identity = Identity(entity: entry.path.entity, id: entry.path.id)
        if let existing = identities[identity], existing != entry.path { return existing }
        entries[entry.path] = entry
        identities[identity] = entry.path
        return nil
    }

    /// Marks an entry's stamp as proof of its content (after its bytes were confirmed).
    mutating func setVerified(_ path: DocumentPath) {
        guard var entry = entry(at: path) else { return }
        entry.verified = true
        insert(entry)
    }

    mutating func remove(_ path: DocumentPath) {
        guard entries.removeValue(forKey: path) != nil else { return }
        let identity = Identity(entity: path.entity, id: path.id)
        if identities[identity] == path { identities.removeValue(forKey: identity) }
    }

    /// The parsed content of an entry, decoding (and keeping) cached content on first use.
    mutating func content(at path: DocumentPath) -> JSONObject? {
        guard let entry = entries[path] else { return nil }
        switch entry.content {
        case .parsed(let object): return object
        case .cached(let buffer, let range):
            guard let object = buffer.decodeObject(range) else { return nil }
            entries[path]?.content = .parsed(object)
            return object
        }
    }

    /// The blob paths that belong to a document.
    func blobs(of document: DocumentPath) -> [DocumentPath: FileStamp] {
        blobs.filter { $0.key.document == document }
    }

    var issues: [StoreIssue] {
        (layoutIssues + brokenFiles.values.map(\.issue)).sorted { $0.path < $1.path }
    }
}
