import FolioJSON
import Foundation

/// A large entity folder seen through its cache file and one walk, without loading it:
/// what lets an app's first query on one index key cost the walk and the documents it
/// reads, not the folder (see `DocumentStore.answerFromCache`).
///
/// The walk's verdict per record (unchanged or not), each index's pairs, and the files the
/// walk found new or changed, read. It describes the folder as of its walk, as a loaded
/// folder describes it as of its last walk; it is let go when the folder is loaded, when a
/// commit or an import writes into the folder, and when a refresh finds a change there.
struct CachedFolder: Sendable {
    let cache: CacheIndex
    /// How the walk compared with the records, its list of changed files emptied (they are
    /// in `changed`, read).
    var match: CacheIndex.Match
    /// The files the walk found new or changed, read, by path.
    let changed: [DocumentPath: (version: DocumentVersion, content: JSONObject)]
    /// How many documents the folder had at the walk.
    let documents: Int
    /// Documents read from the cache file for answers so far: an app's folder is loaded once
    /// they reach `documents`, when reading them one by one has cost about what a load does.
    var documentsRead = 0

    /// The folder as `match` found it, with the files it found new or changed read.
    init(
        cache: CacheIndex, match: CacheIndex.Match,
        changed: [DocumentPath: (version: DocumentVersion, content: JSONObject)]
    ) {
        (self.cache, self.match, self.changed, documents) = (cache, match, changed, match.documents)
        self.match.changed = []
    }

    /// Whether a soft-deleted document is left out of an answer that does not include them.
    private static func isWanted(_ content: JSONObject, includeDeleted: Bool) -> Bool {
        includeDeleted || content[ReservedKey.deleted] == nil
    }

    /// Whether the record at `position` is one an answer takes from the cache file: its file
    /// unchanged, and the document not soft-deleted unless those are asked for.
    private static func isWanted(_ position: Int, in match: CacheIndex.Match, includeDeleted: Bool) -> Bool {
        match.unchanged[position] && (includeDeleted || !match.deleted[position])
    }

    /// How many documents the folder has, soft-deleted ones only when asked.
    func count(includeDeleted: Bool) -> Int {
        let unchanged = match.unchanged.indices.count { Self.isWanted($0, in: match, includeDeleted: includeDeleted) }
        return unchanged + changed.values.count { Self.isWanted($0.content, includeDeleted: includeDeleted) }
    }

    /// Every document that may hold `key` on the index on `properties` (and only those, but
    /// for a few whose key shares its hash): the new and changed files, and the unchanged
    /// records the index names, their content read from the cache file; `nil` when the index
    /// was not kept or a record or content cannot be read or does not hold.
    func candidates(on properties: [String], key: [QueryValue], includeDeleted: Bool) -> [(
        version: DocumentVersion, content: JSONObject
    )]? {
        guard let positions = match.positions(of: key, on: properties) else { return nil }
        var found: [(version: DocumentVersion, content: JSONObject)] = []
        for (version, content) in changed.values where Self.isWanted(content, includeDeleted: includeDeleted) {
            found.append((version, content))
        }
        for position in positions where match.unchanged[position] && (includeDeleted || !match.deleted[position]) {
            guard let record = cache.record(at: position), let path = record.path(in: cache.folder),
                let content = cache.content(of: record)
            else { return nil }
            let version = DocumentVersion(
                path: path, stamp: record.stamp, contentHash: record.contentHash, verified: true)
            found.append((version, content))
        }
        return found
    }

    /// The stamp of the document at `path` as the walk found it; `nil` when the folder had
    /// no such file then.
    func stamp(of path: DocumentPath) -> FileStamp? {
        if let (version, _) = changed[path] { return version.stamp }
        guard let position = cache.position(of: path.orderKey), match.unchanged[position],
            let record = cache.record(at: position)
        else { return nil }
        return record.stamp
    }
}

extension CachedFolder {
    /// One document of the folder as `forEachDocument` hands it: its path and the members
    /// asked for, and the whole content with its version when the caller wants them.
    struct PassedDocument {
        let path: DocumentPath
        /// The members asked for (for a new or changed file, all of them, read from disk already).
        let members: JSONObject
        /// The whole content and its version: decoded from the cache file only when asked;
        /// `nil` when it does not decode. Valid only inside `forEachDocument`'s body.
        let whole: () -> (content: JSONObject, version: DocumentVersion)?
    }

    /// Which of the records whose files are unchanged `forEachDocument` hands.
    enum UnchangedRecords {
        case all
        /// Those at the positions it takes.
        case among((Int) -> Bool)
        /// None: only the new and changed files are handed.
        case none
    }

    /// Hands `body` every document of the folder (soft-deleted ones when asked), the
    /// unchanged ones `records` takes from the cache file in its own order with only `names`
    /// decoded (`nil`: all), then the new and changed files the walk read. `false` as soon as
    /// a record cannot be read or does not decode, or `body` says to stop; the caller then
    /// starts over.
    func forEachDocument(
        reading names: [String]?, includeDeleted: Bool, records: UnchangedRecords = .all,
        _ body: (PassedDocument) -> Bool
    ) -> Bool {
        let (match, entity) = (self.match, cache.folder)
        var going = true
        let among: (Int) -> Bool
        switch records {
        case .all: among = { _ in true }
        case .among(let taken): among = taken
        case .none: return forEachChangedDocument(includeDeleted: includeDeleted, body)
        }
        let readable = cache.readContents(where: {
            Self.isWanted($0, in: match, includeDeleted: includeDeleted) && among($0)
        }) {
            position, key, bytes in
            guard going, let (day, id) = key.parts, let members = Self.content(bytes, members: names) else {
                going = false
                return
            }
            let path = DocumentPath(validEntity: entity, day: day, id: id, blobProperty: nil)
            going = body(
                PassedDocument(path: path, members: members) {
                    guard let content = CompactJSON.decode(bytes)?.objectValue, let record = cache.record(at: position)
                    else { return nil }
                    return (
                        content,
                        DocumentVersion(
                            path: path, stamp: record.stamp, contentHash: record.contentHash, verified: true)
                    )
                })
        }
        guard readable, going else { return false }
        return forEachChangedDocument(includeDeleted: includeDeleted, body)
    }

    /// Hands `body` the new and changed files the walk read (soft-deleted ones when asked);
    /// `false` as soon as `body` says to stop.
    private func forEachChangedDocument(includeDeleted: Bool, _ body: (PassedDocument) -> Bool) -> Bool {
        for (path, (version, content)) in changed where Self.isWanted(content, includeDeleted: includeDeleted) {
            guard body(PassedDocument(path: path, members: content) { (content, version) }) else { return false }
        }
        return true
    }

    /// The id of every document the walk found, soft-deleted ones too: the unchanged
    /// records' and the new and changed files'; `nil` when a record cannot be read again.
    func walkedIdentities() -> [UUID]? {
        var ids: [UUID] = []
        ids.reserveCapacity(documents)
        let match = self.match
        var whole = true
        let read = cache.forEachRecord { position, record in
            guard match.unchanged[position] else { return }
            guard let (_, id) = record.key.parts else {
                whole = false
                return
            }
            ids.append(id)
        }
        guard read != nil, whole else { return nil }
        return ids + changed.keys.map(\.id)
    }

    /// The positions of the records whose files the walk found unchanged, soft-deleted ones
    /// only when asked: the documents `forEachDocument` hands from the cache file.
    func unchangedPositions(includeDeleted: Bool) -> some Sequence<Int> {
        let match = self.match
        return match.unchanged.indices.lazy.filter { Self.isWanted($0, in: match, includeDeleted: includeDeleted) }
    }

    /// Every entry of a cache file put to `test` on the members `names` it reads, streamed
    /// front to back before any walk says which still hold: what lets a scan test documents
    /// on one core while another walks the folder (see `DocumentStore.scanFromCache`).
    /// `nil` as soon as an entry cannot be read or does not decode.
    static func testEntries(of cache: CacheIndex, reading names: [String], _ test: (UUID, JSONObject) -> Bool)
        -> TestedEntries?
    {
        var passing: [Int] = []
        var whole = true
        let digest = cache.streamEntries { start, id, bytes in
            guard whole, let members = content(bytes, members: names) else {
                whole = false
                return
            }
            if test(id, members) { passing.append(start) }
        }
        guard let digest, whole else { return nil }
        return TestedEntries(passing: passing, digest: digest)
    }

    /// The entries `testEntries` streamed: where the contents that passed start, in the
    /// file's order, and the digest of all it read.
    struct TestedEntries: Sendable {
        let passing: [Int]
        let digest: CacheIndex.ContentsDigest
    }

    /// Each record's verdict by position, from the entries its content was tested as; `nil`
    /// when the records do not describe exactly the contents streamed (a damaged file).
    func verdicts(_ tested: TestedEntries) -> [Bool]? {
        var verdicts = [Bool](repeating: false, count: cache.count)
        let passing = tested.passing
        let digest = cache.forEachRecord { position, record in
            let found = passing.partitioningIndex { $0 >= record.contentStart }
            verdicts[position] = found < passing.count && passing[found] == record.contentStart
        }
        return digest == tested.digest ? verdicts : nil
    }

    /// A cache file's compact content, whole or only `members`; `nil` when it does not decode.
    private static func content(_ bytes: UnsafeRawBufferPointer, members names: [String]?) -> JSONObject? {
        guard let names else { return CompactJSON.decode(bytes)?.objectValue }
        guard let values = CompactJSON.members(names, of: bytes) else { return nil }
        var content = JSONObject()
        for (name, value) in zip(names, values) { content[name] = value }
        return content
    }
}
