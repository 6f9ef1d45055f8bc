import Dispatch
import FolioJSON

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
        // A folder an answer from its cache file left unloaded is loaded now, its changes
        // told against that file: a whole refresh cannot say what changed since its walk.
        let (walked, cached) = memory.refreshScope
        return try walk(walked, loading: cached)
    }

    /// Brings the catalog up to date with these files only (paths relative to the store),
    /// as a file watcher reported them: each is looked at again and read if it is new or
    /// its stamp changed, and dropped if it is gone. Anything but a document's file (the
    /// manifest, a blob, a folder, something that is no longer a regular file) makes it a
    /// whole refresh, which also sees what the paths cannot say.
    package func refresh(paths: Set<String>) throws(FolioError) -> StoreChanges {
        // A past revision's files never change, and none of them is in the folder.
        guard pastTree == nil else { return StoreChanges() }
        var documents: [DocumentPath] = []
        for path in paths {
            guard let document = DocumentPath(relativePath: path), document.blobProperty == nil else {
                return try refresh()
            }
            documents.append(document)
        }
        // A folder not loaded yet is walked when first used, which sees these files then; one an
        // answer from its cache file left unloaded is told what changed since its walk.
        let (cached, loaded) = memory.sortNamed(documents)
        let seenByCache = try changesInCachedFolders(cached)
        guard !loaded.isEmpty else { return seenByCache }
        documents = loaded
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
            let known = memory.catalogToken
            var landed: [HistoryRecord] = []
            if let walked, let known, known < walked {
                landed = try HistoryLog.records(after: known, in: folder).records.filter { $0.token <= walked }
            }
            return memory.bringingIn { state in
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
                    let folders = state.folders
                    return state.catalog.lastHeld(
                        of: landed.filter { $0.token > since }, since: since, isLoaded: { folders.isLoaded($0) })
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
    private func changesInCachedFolders(_ documents: [(DocumentPath, CachedFolder)]) throws(FolioError)
        -> StoreChanges
    {
        var changes = StoreChanges()
        var changedFolders = Set<String>()
        for (document, cached) in documents {
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
        if !changedFolders.isEmpty { memory.forgetCachedFolders(changedFolders) }
        return changes
    }

    /// Records what a refresh found in the history, as external where no transaction
    /// explains it, and moves the catalog's token on; `walked` is `nil` without history.
    /// `covering` names the folders the refresh walked (`nil`: all loaded ones): a loaded
    /// folder it did not walk still reflects only the token it had, and the catalog's token
    /// is the oldest of its folders'. `held` is the token up to which the catalog holds every
    /// transaction's documents, when the refresh looked at some files only (`nil`: all of them).
    func recordInHistory(
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
                memory.count { $0.historyWriteFailure = error }
            }
        }
        if let held, held < walked { reflected = held }
        memory.refreshed(reflecting: reflected, covering: folders)
    }

    /// The history's last token as the files have it now; call holding a lock.
    func currentHistoryToken() throws(FolioError) -> Int64 {
        if let known = try historyEnd.current(in: folder) { return known.lastToken }
        return try HistoryLog.tail(in: folder).lastToken
    }
}
