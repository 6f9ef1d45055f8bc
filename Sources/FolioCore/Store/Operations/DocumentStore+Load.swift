// DocumentStore: folders loaded into the catalog (their cache files, a walk, the files changed since).

import Dispatch
import FolioJSON
import Synchronization

extension DocumentStore {
    /// Brings these entity folders (`nil`: every folder of the tree) into the catalog, if
    /// they are not in it yet: each folder's cache file (`.folio/cache/<Folder>`) is loaded
    /// and a walk of the folder confirms it entry by entry, reading only the files it does
    /// not vouch for. This is how the first use of an entity pays for its own documents
    /// only. A folder that read files has its cache written again (a failure to write it
    /// only costs the next process those reads).
    package func load(_ folders: Set<String>?) throws(FolioError) {
        let (walked, newly): (Set<String>?, Set<String>)
        if let folders {
            // Every fetch comes this way: the common answer, all loaded, makes no set.
            guard let missing = memory.unloaded(among: folders) else { return }
            (walked, newly) = (missing, missing)
        } else {
            let loaded = memory.loadedFolders
            guard !loaded.everything else { return }
            let present = try entityFolderNames()
            (walked, newly) = (nil, Set(present).subtracting(loaded.names))
        }
        let changes = try walk(walked, loading: newly, progress: progress)
        // A cache file without its index part (an import's into a large folder) is written
        // whole again once.
        guard changes.filesRead > 0 || !changes.removed.isEmpty || memory.lacksIndexedCache(among: newly) else {
            return
        }
        do {
            try writeCache()
        } catch {
            memory.count { $0.cacheWriteFailure = error }
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
            memory.loadFailed(names, because: error)
        }
    }

    /// Walks `folders` (`nil`: the whole tree) and brings the catalog in line, first adding
    /// the cached entries of the folders in `newly`, which were not loaded.
    func walk(_ folders: Set<String>?, loading newly: Set<String>, progress: ReadProgress? = nil)
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
            let expected = memory.documentCount
            var listing: TreeListing?
            do {
                defer { loading.wait() }  // also when the walk fails: the loader must not outlive the lock
                if folders?.isEmpty != true {
                    listing = try self.listing(folders, expectedDocuments: expected)
                }
            }
            let loaded = cached.withLock { $0 }
            // No transaction lands while the shared lock is held: the walk sees every one up to this token.
            let walked = keepsHistory ? try currentHistoryToken() : nil
            let manifestStamp = try Self.trustworthyStamp(of: StoreManifest.fileName, in: folder)
            let known = memory.manifestStamp
            let manifest = manifestStamp != nil && known == manifestStamp ? nil : try Self.readManifest(in: folder)
            return memory.bringingIn { state in
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
                        state.folders.cacheFile(
                            of: name, is: .init(revision: state.catalog.revision(of: name), stamp: stamp))
                    }
                    cacheTokens[name] = cache.historyToken
                }
                let (everything, loadedBefore) = (state.folders.loadsEverything, state.folders.loadedFolders)
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
                state.folders.loaded(folders)
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

    /// Brings the catalog in line with a walk of `folders` (`nil`: the whole tree), whose
    /// folders in `newly` had only their cached entries; `keepingContent` also returns the
    /// content the catalog had for each document modified or removed, for the history.
    private func apply(
        _ listing: TreeListing, walking folders: Set<String>?, confirming newly: Set<String>, keepingContent: Bool,
        progress: ReadProgress?, to state: inout StoreMemory.State
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
        writer.noteStagedFiles(listing.stagedFiles, replacingThose: walked)
        state.catalog.replaceBlobs(
            Dictionary(listing.blobs.map { ($0.path, $0.stamp) }, uniquingKeysWith: { first, _ in first }),
            in: folders)
        return (changes, before)
    }
}
