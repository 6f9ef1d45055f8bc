import Dispatch
import FolioJSON
import Synchronization

/// What a refresh found changed on disk since the catalog last looked.
public struct StoreChanges: Sendable, Equatable {
    public var added: [DocumentPath] = []
    public var modified: [DocumentPath] = []
    public var removed: [DocumentPath] = []
    /// Document files read and parsed by this refresh: exactly the new and changed ones.
    public var filesRead = 0

    /// Whether nothing changed.
    public var isEmpty: Bool { added.isEmpty && modified.isEmpty && removed.isEmpty }
}

extension DocumentStore {
    /// Brings the catalog up to date with the tree: a `stat`-only walk, then reads of
    /// exactly the files that are new or whose stamp changed (a `git pull`, a hand edit,
    /// another process). Holds the shared lock, so it never sees half a transaction.
    @discardableResult
    public func refresh() throws(FolioError) -> StoreChanges {
        try refresh(loadingCache: false)
    }

    /// A refresh; `loadingCache` (for an open) first replaces the catalog with the one
    /// in `.folio/cache`, which the walk then confirms entry by entry. `progress` hears
    /// how many of the files to read are read.
    func refresh(loadingCache: Bool, progress: ReadProgress? = nil) throws(FolioError) -> StoreChanges {
        let keepsHistory = historyLimit > 0 && lock.unlockedReason == nil
        let (changes, before, since, walked) = try lock.withLock(.shared) { () throws(FolioError) in
            // The cache is decoded on another core while this one walks the tree: one is
            // parsing, the other waits on the file system, and neither needs the other.
            let loading = DispatchGroup()
            let cached = Mutex<DocumentCache.Loaded?>(nil)
            if loadingCache {
                DispatchQueue.global().async(group: loading) { [folder] in
                    let loaded = DocumentCache.load(from: folder)
                    cached.withLock { $0 = loaded }
                }
            }
            let expected = state.withLock { $0.catalog.count }
            let listing: TreeListing
            do {
                defer { loading.wait() }  // also when the walk fails: the loader must not outlive the lock
                listing = try TreeListing(root: folder, expectedDocuments: expected)
            }
            if let loaded = cached.withLock({ $0.take() }) {
                state.withLock { state in
                    state.catalog = loaded.catalog
                    state.indexes = QueryIndexes()
                    state.cacheOnDisk = loaded.stamp.map { (loaded.catalog.revision, $0) }
                    state.catalogToken = loaded.historyToken
                }
            }
            // No transaction lands while the shared lock is held: the walk sees every one up to this token.
            let walked = keepsHistory ? try currentHistoryToken() : nil
            let manifestStamp = try Self.trustworthyStamp(of: StoreManifest.fileName, in: folder)
            let known = state.withLock { $0.manifestStamp }
            let manifest = manifestStamp != nil && known == manifestStamp ? nil : try Self.readManifest(in: folder)
            return state.withLock { state in
                if let manifest {
                    state.manifest = manifest
                    state.manifestStamp = manifestStamp
                }
                let since = keepsHistory ? state.catalogToken : nil
                let (changes, before) = apply(
                    listing, confirmingCache: loadingCache, keepingContent: since != nil, progress: progress, to: &state
                )
                return (changes, before, since, walked)
            }
        }
        recordInHistory(changes, before: before, since: since, walked: walked)
        return changes
    }

    /// Brings the catalog up to date with these files only (paths relative to the store),
    /// as a file watcher reported them: each is looked at again and read if it is new or
    /// its stamp changed, and dropped if it is gone. Anything but a document's file (the
    /// manifest, a blob, a folder, something that is no longer a regular file) makes it a
    /// whole refresh, which also sees what the paths cannot say.
    package func refresh(paths: Set<String>) throws(FolioError) -> StoreChanges {
        var documents: [DocumentPath] = []
        for path in paths {
            guard let document = DocumentPath(relativePath: path), document.blobProperty == nil else {
                return try refresh()
            }
            documents.append(document)
        }
        let keepsHistory = historyLimit > 0 && lock.unlockedReason == nil
        let looked = try lock.withLock(.shared) {
            () throws(FolioError) -> (StoreChanges, [DocumentPath: JSONObject], Int64?, Int64?)? in
            var present: [TreeListing.Entry] = []
            var gone: [DocumentPath] = []
            for document in documents {
                guard let info = try folder.status(of: document.relativePath) else {
                    gone.append(document)
                    continue
                }
                guard FileSystem.isRegularFile(info) else { return nil }  // a link, a folder: the walk reports it
                present.append(TreeListing.Entry(path: document, stamp: FileStamp(info)))
            }
            let walked = keepsHistory ? try currentHistoryToken() : nil
            return state.withLock { state in
                let since = keepsHistory ? state.catalogToken : nil
                var changes = StoreChanges()
                var before: [DocumentPath: JSONObject] = [:]
                var broken = state.catalog.brokenFiles
                for path in gone {
                    broken[path.relativePath] = nil
                    guard state.catalog.entry(at: path) != nil else { continue }
                    if since != nil { before[path] = state.catalog.content(at: path) }
                    state.catalog.remove(path)
                    changes.removed.append(path)
                }
                let toRead = present.filter { found in
                    state.catalog.entry(at: found.path)?.stamp != found.stamp
                        && broken[found.path.relativePath]?.stamp != found.stamp
                }
                read(
                    toRead, into: &state, changes: &changes, before: &before, keepingContent: since != nil,
                    broken: &broken, progress: nil)
                state.catalog.brokenFiles = broken
                return (changes, before, since, walked)
            }
        }
        guard let (changes, before, since, walked) = looked else { return try refresh() }
        recordInHistory(changes, before: before, since: since, walked: walked)
        return changes
    }

    /// Records what a refresh found in the history, as external where no transaction
    /// explains it, and moves the catalog's token on; `walked` is `nil` without history.
    private func recordInHistory(
        _ changes: StoreChanges, before: [DocumentPath: JSONObject], since: Int64?, walked: Int64?
    ) {
        guard let walked else { return }
        if let since, !changes.isEmpty {
            do {
                try recordExternalChanges(changes, before: before, since: since, walked: walked)
            } catch {
                // The documents are read; only their history is missing. Reported, never fatal to a read.
                state.withLock { $0.statistics.historyWriteFailure = error }
            }
        } else {
            state.withLock { $0.catalogToken = walked }
        }
    }

    /// The history's last token as the files have it now; call holding a lock.
    private func currentHistoryToken() throws(FolioError) -> Int64 {
        if let known = state.withLock({ $0.historyTail }), try HistoryLog.isCurrent(known, in: folder) {
            return known.lastToken
        }
        return try HistoryLog.tail(in: folder).lastToken
    }

    /// Brings the catalog in line with a walk; `keepingContent` also returns the content the
    /// catalog had for each document modified or removed, for the history.
    private func apply(
        _ listing: TreeListing, confirmingCache: Bool, keepingContent: Bool, progress: ReadProgress?,
        to state: inout State
    ) -> (StoreChanges, [DocumentPath: JSONObject]) {
        var changes = StoreChanges()
        var before: [DocumentPath: JSONObject] = [:]
        var toRead: [TreeListing.Entry] = []
        var stillBroken: [String: (stamp: FileStamp, issue: StoreIssue)] = [:]
        if state.catalog.count == 0 { state.catalog.reserveCapacity(listing.documents.count) }
        let walk = state.catalog.beginWalk()
        for found in listing.documents {
            switch state.catalog.see(found.path, stamp: found.stamp, walk: walk) {
            case .unchanged:
                if confirmingCache { state.statistics.cacheHits += 1 }
                continue
            case .changed:
                break
            case .new:
                if !state.catalog.brokenFiles.isEmpty, let broken = state.catalog.brokenFiles[found.path.relativePath],
                    broken.stamp == found.stamp
                {
                    stillBroken[found.path.relativePath] = broken  // unchanged and still unusable: not read again
                    continue
                }
            }
            toRead.append(found)
        }
        for path in state.catalog.unseen(by: walk) {
            if keepingContent { before[path] = state.catalog.content(at: path) }
            state.catalog.remove(path)
            changes.removed.append(path)
        }

        read(
            toRead, into: &state, changes: &changes, before: &before, keepingContent: keepingContent,
            broken: &stillBroken, progress: progress)
        state.catalog.brokenFiles = stillBroken
        state.catalog.layoutIssues = listing.issues
        state.stagedFiles = listing.stagedFiles
        state.catalog.replaceBlobs(
            Dictionary(listing.blobs.map { ($0.path, $0.stamp) }, uniquingKeysWith: { first, _ in first }))
        return (changes, before)
    }

    /// Reads new and changed files into the catalog, noting each as added or modified (or
    /// removed, when a document the catalog held can no longer be used) and each file that
    /// cannot be used in `broken`; `keepingContent` keeps the content a document had before.
    private func read(
        _ toRead: [TreeListing.Entry], into state: inout State, changes: inout StoreChanges,
        before: inout [DocumentPath: JSONObject], keepingContent: Bool,
        broken: inout [String: (stamp: FileStamp, issue: StoreIssue)], progress: ReadProgress?
    ) {
        for (found, result) in zip(toRead, readDocuments(toRead, schema: state.querySchema, progress: progress)) {
            let existed = state.catalog.entry(at: found.path) != nil
            if existed, keepingContent { before[found.path] = state.catalog.content(at: found.path) }
            switch result {
            case .success(let entry):
                broken[found.path.relativePath] = nil
                insert(entry, into: &state.catalog, issues: &broken)
                if existed { changes.modified.append(found.path) } else { changes.added.append(found.path) }
            case .failure(let failure):
                state.catalog.remove(found.path)
                if existed { changes.removed.append(found.path) }
                broken[found.path.relativePath] = (failure.stamp, failure.issue)
            }
        }
        changes.filesRead += toRead.count
        state.statistics.filesRead += toRead.count
    }

    /// Adds an entry; of two files with one identity, the one with the smaller path is kept
    /// (so the outcome does not depend on the walk's order) and the other reported.
    private func insert(
        _ entry: Catalog.Entry, into catalog: inout Catalog,
        issues: inout [String: (stamp: FileStamp, issue: StoreIssue)]
    ) {
        guard let existing = catalog.insert(entry) else { return }
        let (kept, dropped) = existing < entry.path ? (existing, entry) : (entry.path, catalog.entry(at: existing)!)
        if kept == entry.path {
            catalog.remove(existing)
            catalog.insert(entry)
        }
        let path = dropped.path.relativePath
        let issue = StoreIssue(
            path: path,
            error: .invalidDocument(
                path: path, reason: "has the same identity as \(kept.relativePath); one of the two must go"))
        issues[path] = (dropped.stamp, issue)
    }

    struct ReadFailure: Error {
        var stamp: FileStamp
        var issue: StoreIssue
    }

    /// Reads and parses files, on every core, in the order given.
    private func readDocuments(_ files: [TreeListing.Entry], schema: QuerySchema, progress: ReadProgress?) -> [Result<
        Catalog.Entry, ReadFailure
    >] {
        let chunkSize = 256
        let chunkCount = (files.count + chunkSize - 1) / chunkSize
        let results = Mutex([[Result<Catalog.Entry, ReadFailure>]](repeating: [], count: chunkCount))
        let done = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
            let slice = files[(chunk * chunkSize)..<min(files.count, (chunk + 1) * chunkSize)]
            let read = slice.map { readDocument($0, schema: schema) }
            results.withLock { $0[chunk] = read }
            if let progress {
                done.withLock { count in
                    count += read.count
                    progress(count, files.count)
                }
            }
        }
        return results.withLock { $0.flatMap { $0 } }
    }

    private func readDocument(_ found: TreeListing.Entry, schema: QuerySchema) -> Result<Catalog.Entry, ReadFailure> {
        let relative = found.path.relativePath
        func failure(_ error: FolioError, stamp: FileStamp = found.stamp) -> Result<Catalog.Entry, ReadFailure> {
            .failure(ReadFailure(stamp: stamp, issue: StoreIssue(path: relative, error: error)))
        }
        let bytes: [UInt8]
        let stamp: FileStamp
        do {
            (bytes, stamp) = try folder.readFile(relative, limit: JSONReader.defaultMaximumSize)
        } catch {
            return failure(error)
        }
        let value: JSONValue
        do {
            value = try JSONReader().read(bytes, file: relative)
        } catch {
            return failure(.unreadableJSON(error), stamp: stamp)
        }
        guard case .object(let object) = value else {
            return failure(
                .invalidDocument(path: relative, reason: "is a JSON \(value.typeName), not an object"), stamp: stamp)
        }
        // A subclass's documents lie in its hierarchy's root folder (see `Schema.Entity.storageName`).
        guard let entity = object["$entity"]?.stringValue,
            entity == found.path.entity || schema.entity(of: object, inFolder: found.path.entity) != nil
        else {
            let found = object["$entity"].map { "says \"$entity\": \($0)" } ?? "has no \"$entity\""
            return failure(
                .invalidDocument(path: relative, reason: "\(found) but lies in the \(entity(of: relative)) folder"),
                stamp: stamp)
        }
        return .success(
            Catalog.Entry(
                path: found.path, stamp: stamp, contentHash: ContentHash.of(bytes),
                verified: !stamp.isRacy(now: FileSystem.now()), content: .parsed(object)))
    }

    private func entity(of relative: String) -> String { String(relative.prefix { $0 != "/" }) }
}
