import Dispatch
import FolioJSON
import Synchronization

/// What a refresh found changed on disk since the catalog last looked.
public struct StoreChanges: Sendable, Equatable {
    /// Documents whose files appeared since the last look.
    public var added: [DocumentPath] = []
    /// Documents whose files changed since the last look.
    public var modified: [DocumentPath] = []
    /// Documents whose files were removed since the last look.
    public var removed: [DocumentPath] = []
    /// Document files read and parsed by this refresh: exactly the new and changed ones.
    public var filesRead = 0

    /// Whether nothing changed.
    public var isEmpty: Bool { added.isEmpty && modified.isEmpty && removed.isEmpty }

    /// Adds `other`'s changes and files read to these.
    mutating func add(_ other: StoreChanges) {
        added += other.added
        modified += other.modified
        removed += other.removed
        filesRead += other.filesRead
    }

    /// Keeps only the changes to the documents `belongs` accepts.
    mutating func keep(_ belongs: (DocumentPath) -> Bool) {
        added.removeAll { !belongs($0) }
        modified.removeAll { !belongs($0) }
        removed.removeAll { !belongs($0) }
    }
}

extension DocumentStore {
    /// Brings the catalog up to date with the tree: a `stat`-only walk of the folders of the
    /// entities read so far, then reads of exactly the files that are new or whose stamp
    /// changed (a `git pull`, a hand edit, another process). Entities not read yet are
    /// walked when first touched. Holds the shared lock, so it never sees half a transaction.
    ///
    /// - Throws: `.fileSystem`, `.unsafePath` or `.invalidStore` when the tree cannot be walked,
    ///   `.locked` when another process holds the lock too long.
    @discardableResult
    public func refresh() throws(FolioError) -> StoreChanges {
        let (folders, everything, cached) = state.withLock {
            ($0.catalog.loadedFolders, $0.catalog.loadsEverything, Set($0.cachedFolders.keys))
        }
        // A folder an answer from its cache file left unloaded is loaded now, its changes
        // told against that file: a whole refresh cannot say what changed since its walk.
        return try walk(everything ? nil : folders.union(cached), loading: cached)
    }

    /// Brings these entity folders (`nil`: every folder of the tree) into the catalog, if
    /// they are not in it yet: each folder's cache file (`.folio/cache/<Folder>`) is loaded
    /// and a walk of the folder confirms it entry by entry, reading only the files it does
    /// not vouch for. This is how the first use of an entity pays for its own documents
    /// only. A folder that read files has its cache written again (a failure to write it
    /// only costs the next process those reads).
    package func load(_ folders: Set<String>?) throws(FolioError) {
        let (walked, newly): (Set<String>?, Set<String>)
        if let folders {
            // Every fetch comes this way: the common answer, all loaded, makes no set. (A closure,
            // not `state.catalog.isLoaded` as a function: that copies the catalog, retaining
            // each of its buffers.)
            let missing = state.withLock { state in
                folders.allSatisfy { state.catalog.isLoaded($0) } ? nil : folders.filter { !state.catalog.isLoaded($0) }
            }
            guard let missing else { return }
            (walked, newly) = (missing, missing)
        } else {
            guard !state.withLock({ $0.catalog.loadsEverything }) else { return }
            let present = try folder.list().filter(DocumentPath.isIdentifier)
            let loaded = state.withLock { $0.catalog.loadedFolders }
            (walked, newly) = (nil, Set(present).subtracting(loaded))
        }
        let changes = try walk(walked, loading: newly, progress: progress)
        // A cache file without its index part (an import's into a large folder) is written
        // whole again once.
        let unindexed = state.withLock { state in
            newly.contains { state.cacheOnDisk[$0] == nil && state.catalog.counts[$0, default: 0] > 0 }
        }
        guard changes.filesRead > 0 || !changes.removed.isEmpty || unindexed else { return }
        do {
            try writeCache()
        } catch {
            state.withLock { $0.statistics.cacheWriteFailure = error }
        }
    }

    /// `load` for readers that cannot throw: a folder that cannot be loaded (a lock held
    /// past the timeout, a folder that cannot be listed) is reported among `issues` and as
    /// an unreadable document of its entities, so no answer leaves its documents out
    /// without a word; the next use tries again.
    func loadReporting(_ folders: Set<String>?) {
        do {
            try load(folders)
        } catch {
            let names = folders.map { Array($0) } ?? [""]
            state.withLock { state in
                for name in names { state.loadFailures[name] = StoreIssue(path: name, error: error) }
            }
        }
    }

    /// Walks `folders` (`nil`: the whole tree) and brings the catalog in line, first adding
    /// the cached entries of the folders in `newly`, which were not loaded.
    private func walk(_ folders: Set<String>?, loading newly: Set<String>, progress: ReadProgress? = nil)
        throws(FolioError) -> StoreChanges
    {
        let keepsHistory = historyLimit > 0 && lock.unlockedReason == nil
        let (changes, before, since, walked) = try lock.withLock(.shared) {
            () throws(FolioError) -> (StoreChanges, [DocumentPath: JSONObject], Int64?, Int64?) in
            // The cache is decoded on another core while this one walks the tree: one is
            // parsing, the other waits on the file system, and neither needs the other.
            let loading = DispatchGroup()
            let cached = Mutex<[String: DocumentCache.Loaded]>([:])
            if !newly.isEmpty {
                DispatchQueue.global().async(group: loading) { [folder] in
                    for name in newly {
                        let loaded = DocumentCache.load(folder: name, from: folder)
                        cached.withLock { $0[name] = loaded }
                    }
                }
            }
            let expected = state.withLock { $0.catalog.count }
            var listing: TreeListing?
            do {
                defer { loading.wait() }  // also when the walk fails: the loader must not outlive the lock
                if folders?.isEmpty != true {
                    listing = try TreeListing(root: folder, folders: folders, expectedDocuments: expected)
                }
            }
            let loaded = cached.withLock { $0 }
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
                // What each walked folder's entries reflected of the history before this walk:
                // a loaded one the catalog's token, a new one its cache's.
                var cacheTokens: [String: Int64] = [:]
                state.catalog.reserveCapacity(state.catalog.count + loaded.values.reduce(0) { $0 + $1.entries.count })
                for (name, cache) in loaded {
                    for entry in cache.entries { state.catalog.insert(entry) }
                    if let stamp = cache.stamp, cache.isIndexed {
                        state.cacheOnDisk[name] = (state.catalog.revision(of: name), stamp)
                    }
                    cacheTokens[name] = cache.historyToken
                }
                let (everything, loadedBefore) = (state.catalog.loadsEverything, state.catalog.loadedFolders)
                let catalogToken = state.catalogToken
                func since(_ name: String) -> Int64? {
                    guard keepsHistory else { return nil }
                    if newly.contains(name) { return cacheTokens[name] }
                    return everything || loadedBefore.contains(name) ? catalogToken : nil
                }
                guard let listing else { return (StoreChanges(), [:], nil, walked) }
                let (changes, before) = apply(
                    listing, walking: folders, confirming: newly, keepingContent: keepsHistory, progress: progress,
                    to: &state)
                state.catalog.markLoaded(folders)
                state.forgetCachedFolders(newly)
                for name in state.loadFailures.keys where folders?.contains(name) != false {
                    state.loadFailures[name] = nil
                }
                // Changes in a folder whose history was not known (no cache yet) are not recorded:
                // they are the folder as first seen. The rest are, from the oldest token known.
                var recorded = changes
                recorded.keep { since($0.entity) != nil }
                let oldest = Set((recorded.added + recorded.modified + recorded.removed).map(\.entity)).compactMap(
                    since
                )
                .min()
                return (recorded, before, oldest ?? catalogToken, walked)
            }
        }
        recordInHistory(changes, before: before, since: since, walked: walked, covering: folders)
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
        // A folder not loaded yet is walked when first used, which sees these files then; one an
        // answer from its cache file left unloaded is told what changed since its walk.
        let cached = state.withLock { state in
            documents.filter { !state.catalog.isLoaded($0.entity) && state.cachedFolders[$0.entity] != nil }
        }
        let seenByCache = try changesInCachedFolders(cached)
        documents = state.withLock { state in documents.filter { state.catalog.isLoaded($0.entity) } }
        guard !documents.isEmpty else { return seenByCache }
        let keepsHistory = historyLimit > 0 && lock.unlockedReason == nil
        let looked = try lock.withLock(.shared) {
            () throws(FolioError) -> (StoreChanges, [DocumentPath: JSONObject], Int64?, Int64?, Int64?)? in
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
            // The transactions since the catalog's token: a file they wrote that the watcher
            // has not named yet keeps the token before them (see `Catalog.lastHeld`).
            let known = state.withLock { $0.catalogToken }
            var landed: [HistoryRecord] = []
            if let walked, let known, known < walked {
                landed = try HistoryLog.records(after: known, in: folder).records.filter { $0.token <= walked }
            }
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
                let held = since.map { since -> Int64 in
                    // A token that went back meanwhile has records before the ones read: none is counted held.
                    guard since >= known ?? since else { return since }
                    return state.catalog.lastHeld(of: landed.filter { $0.token > since }, since: since)
                }
                return (changes, before, since, walked, held)
            }
        }
        guard let (changes, before, since, walked, held) = looked else { return try refresh() }
        recordInHistory(changes, before: before, since: since, walked: walked, holding: held, covering: nil)
        var all = changes
        all.add(seenByCache)
        return all
    }

    /// What changed among `documents`, in folders an answer from the cache file left
    /// unloaded, since that answer's walk: told by their stamps, nothing read. A folder with
    /// a change is let go, so its next query walks it again (or loads it); its history is
    /// recorded when it is loaded, against its cache file, as for any folder loaded late.
    private func changesInCachedFolders(_ documents: [DocumentPath]) throws(FolioError) -> StoreChanges {
        var changes = StoreChanges()
        var changedFolders = Set<String>()
        for document in documents {
            guard let cached = state.withLock({ $0.cachedFolders[document.entity] }) else { continue }
            let info = try folder.status(of: document.relativePath)
            // Anything but a regular file (a link, a folder) is no document: its folder's
            // next walk reports it.
            let now = info.flatMap { FileSystem.isRegularFile($0) ? FileStamp($0) : nil }
            let then = cached.stamp(of: document)
            switch (then, now) {
            case (nil, nil): if info == nil { continue }
            case (nil, _?): changes.added.append(document)
            case (_?, nil): changes.removed.append(document)
            case (let then?, let now?):
                guard then != now else { continue }
                changes.modified.append(document)
            }
            changedFolders.insert(document.entity)
        }
        state.withLock { $0.forgetCachedFolders(changedFolders) }
        return changes
    }

    /// Records what a refresh found in the history, as external where no transaction
    /// explains it, and moves the catalog's token on; `walked` is `nil` without history.
    /// `covering` names the folders the refresh walked (`nil`: all loaded ones): a loaded
    /// folder it did not walk still reflects only the token it had, and the catalog's token
    /// is the oldest of its folders'. `held` is the token up to which the catalog holds every
    /// transaction's documents, when the refresh looked at some files only (`nil`: all of them).
    private func recordInHistory(
        _ changes: StoreChanges, before: [DocumentPath: JSONObject], since: Int64?, walked: Int64?,
        holding held: Int64? = nil, covering folders: Set<String>?
    ) {
        guard let walked else { return }
        var reflected = walked
        if let since, !changes.isEmpty {
            do {
                reflected = try recordExternalChanges(changes, before: before, since: since, walked: walked)
            } catch {
                // The documents are read; only their history is missing. Reported, never fatal to a read.
                state.withLock { $0.statistics.historyWriteFailure = error }
            }
        }
        if let held, held < walked { reflected = held }
        state.withLock { state in
            let others = folders.map { state.catalog.loadedFolders.subtracting($0) } ?? []
            if let current = state.catalogToken, !others.isEmpty {
                state.catalogToken = min(current, reflected)
            } else {
                state.catalogToken = reflected
            }
        }
    }

    /// The history's last token as the files have it now; call holding a lock.
    private func currentHistoryToken() throws(FolioError) -> Int64 {
        if let known = state.withLock({ $0.historyTail }), try HistoryLog.isCurrent(known, in: folder) {
            return known.lastToken
        }
        return try HistoryLog.tail(in: folder).lastToken
    }

    /// Brings the catalog in line with a walk of `folders` (`nil`: the whole tree), whose
    /// folders in `newly` had only their cached entries; `keepingContent` also returns the
    /// content the catalog had for each document modified or removed, for the history.
    private func apply(
        _ listing: TreeListing, walking folders: Set<String>?, confirming newly: Set<String>, keepingContent: Bool,
        progress: ReadProgress?, to state: inout State
    ) -> (StoreChanges, [DocumentPath: JSONObject]) {
        func walked(_ path: String) -> Bool {
            guard let folders else { return true }
            return folders.contains(String(path.prefix { $0 != "/" }))
        }
        var changes = StoreChanges()
        var before: [DocumentPath: JSONObject] = [:]
        var toRead: [TreeListing.Entry] = []
        var stillBroken: [String: (stamp: FileStamp, issue: StoreIssue)] = [:]
        if state.catalog.count == 0 { state.catalog.reserveCapacity(listing.documents.count) }
        let walk = state.catalog.beginWalk()
        for found in listing.documents {
            switch state.catalog.see(found.path, stamp: found.stamp, walk: walk) {
            case .unchanged:
                if newly.contains(found.path.entity) { state.statistics.cacheHits += 1 }
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
        for path in state.catalog.unseen(by: walk, in: folders) {
            if keepingContent { before[path] = state.catalog.content(at: path) }
            state.catalog.remove(path)
            changes.removed.append(path)
        }

        read(
            toRead, into: &state, changes: &changes, before: &before, keepingContent: keepingContent,
            broken: &stillBroken, progress: progress)
        state.catalog.brokenFiles = state.catalog.brokenFiles.filter { !walked($0.key) }.merging(stillBroken) { $1 }
        state.catalog.layoutIssues = state.catalog.layoutIssues.filter { !walked($0.path) } + listing.issues
        state.stagedFiles = state.stagedFiles.filter { !walked($0) } + listing.stagedFiles
        state.catalog.replaceBlobs(
            Dictionary(listing.blobs.map { ($0.path, $0.stamp) }, uniquingKeysWith: { first, _ in first }),
            in: folders)
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
            let previousHash = state.catalog.entry(at: found.path)?.contentHash
            if case .success(let entry) = result, entry.contentHash == previousHash {
                // The same bytes under a new stamp (a `touch`, a rename back, a file read
                // again to confirm it): no change to anyone.
                state.catalog.restamp(found.path, entry.stamp, verified: entry.verified)
                continue
            }
            let existed = previousHash != nil
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

    func readDocument(_ found: TreeListing.Entry, schema: QuerySchema) -> Result<Catalog.Entry, ReadFailure> {
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
                verified: !stamp.isRacy(now: FileSystem.now()), content: DocumentContent(parsed: object)))
    }

    private func entity(of relative: String) -> String { String(relative.prefix { $0 != "/" }) }
}
