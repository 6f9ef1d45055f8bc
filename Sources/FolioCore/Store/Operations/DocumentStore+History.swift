import FolioJSON
import Foundation

extension DocumentStore {
    /// How many transactions a store's history keeps unless told otherwise.
    public static let defaultHistoryLimit = 100_000

    /// The store's history after `token` (0 for all of it), oldest first, and whether it
    /// reaches back that far: `false` when records after the token were deleted.
    ///
    /// A record of a transaction a crashed writer left unfinished is dropped first, so every
    /// record returned describes changes that happened. Every entity's folder is read first
    /// (once), so changes made on disk to entities not used yet are in the history too.
    package func history(after token: Int64) throws(FolioError) -> (records: [HistoryRecord], reachesBack: Bool) {
        guard historyLimit > 0 else { return ([], true) }
        return withinLimit(try storedHistory(after: token), after: token)
    }

    /// The token of the history's newest transaction (0 for none): where a reader of only
    /// what comes next starts. Read as `history(after:)` reads, the folders first and a
    /// crashed writer's record dropped, without reading the records before it.
    package var newestHistoryToken: Int64 {
        get throws(FolioError) {
            guard historyLimit > 0 else { return 0 }
            try prepareToReadHistory()
            return try lock.withLock(.shared) { () throws(FolioError) in try HistoryLog.tail(in: folder).lastToken }
        }
    }

    /// The records of `found` among the newest `historyLimit`, and whether they reach back
    /// past `token`: the files are trimmed a segment (256 records) at a time, so up to that
    /// many more may still be on disk; the cap the configuration states holds all the same.
    private func withinLimit(_ found: (records: [HistoryRecord], reachesBack: Bool), after token: Int64) -> (
        records: [HistoryRecord], reachesBack: Bool
    ) {
        guard let newest = found.records.last?.token else { return found }
        let oldest = newest - Int64(clamping: historyLimit) + 1
        guard let first = found.records.first, first.token < oldest else { return found }
        return (found.records.filter { $0.token >= oldest }, found.reachesBack && token + 1 >= oldest)
    }

    /// The history's records after `token` as the files hold them (see `history(after:)`).
    private func storedHistory(after token: Int64) throws(FolioError) -> (
        records: [HistoryRecord], reachesBack: Bool
    ) {
        try prepareToReadHistory()
        do {
            return try lock.withLock(.shared) { () throws(FolioError) in
                try HistoryLog.records(after: token, in: folder)
            }
        } catch let error where error.kind == .damagedHistory && lock.unlockedReason == nil {
            // Read again under the write lock (another process may have set it aside meanwhile).
            return try lock.withLock(.exclusive) { () throws(FolioError) in
                try settingAsideDamage { () throws(FolioError) in try HistoryLog.records(after: token, in: folder) }
            }
        }
    }

    /// Reads every entity's folder (once), so that changes made on disk to entities not used
    /// yet are in the history, and drops a crashed writer's record, where the store can be written.
    private func prepareToReadHistory() throws(FolioError) {
        try load(nil)
        if lock.unlockedReason == nil {
            _ = try lock.withLock(.exclusive) { () throws(FolioError) in try recoverCrashedWriters() }
        }
    }

    /// Deletes the history records `remove` picks; the tokens of those left stay as they were.
    package func deleteHistory(where remove: (HistoryRecord) -> Bool) throws(FolioError) {
        guard historyLimit > 0 else { return }
        try lock.withLock(.exclusive) { () throws(FolioError) in
            try recoverCrashedWriters()
            guard let tail = historyEnd.known else { return }
            historyEnd.move(to: try HistoryLog.delete(where: remove, tail: tail, in: folder))
        }
    }

    /// The identifier history tokens name this store by: made with its history, kept in
    /// `.folio/history/store`, so each copy of a store has its own.
    package var historyIdentifier: String {
        get throws(FolioError) {
            if let known = try HistoryLog.identifier(in: folder, creating: false) { return known }
            guard lock.unlockedReason == nil else { return root }
            return try lock.withLock(.exclusive) { () throws(FolioError) in
                try HistoryLog.identifier(in: folder, creating: true) ?? root
            }
        }
    }

    /// Finishes or discards crashed writers' journals and drops a history record whose
    /// transaction did not land; call holding the write lock. Returns what recovery did.
    @discardableResult
    func recoverCrashedWriters() throws(FolioError) -> (finished: Int, discarded: [String]) {
        let recovered = try Journal.recover(in: folder, durability: durability)
        try settleHistory(discarded: recovered.discarded)
        return recovered
    }

    /// Makes the history's tail known and its newest record settled: kept if its
    /// transaction landed, dropped if not (its journal was just discarded, or the file it
    /// wrote alone is still staged). Call holding the write lock.
    private func settleHistory(discarded: [String]) throws(FolioError) {
        guard historyLimit > 0 else { return }
        // Another process may have appended since this one last did: then the tail is read again.
        var settled: HistoryLog.Tail
        if let tail = try historyEnd.current(in: folder) {
            settled = tail
        } else {
            settled = try settingAsideDamage { () throws(FolioError) in try HistoryLog.tail(in: folder) }
        }
        if let record = settled.unsettled {
            if try landed(record, discarded: discarded) {
                settled = unsettling(settled)
            } else {
                settled = try HistoryLog.dropLast(of: settled, in: folder)
            }
        }
        historyEnd.move(to: settled)
    }

    /// What `read` reads of the history; when the history is damaged, it is set aside and a
    /// new one begun (see `HistoryLog.setAside`) before `read` runs again, so no token is ever
    /// handed out twice and the documents go on being read and written. Call holding the
    /// write lock.
    private func settingAsideDamage<T>(_ read: () throws(FolioError) -> T) throws(FolioError) -> T {
        do {
            return try read()
        } catch let error where error.kind == .damagedHistory {
            try setAsideHistory(because: error)
            return try read()
        }
    }

    /// Sets a damaged history aside and begins a new one (see `HistoryLog.setAside`). The
    /// cache files are removed with it: the tokens they reflect were the old history's, and
    /// would make the new one explain nothing (or skip what it should). Call holding the
    /// write lock.
    private func setAsideHistory(because error: FolioError) throws(FolioError) {
        _ = try HistoryLog.setAside(in: folder, because: error)
        try DocumentCache.discard(in: folder)
        historyEnd.move(to: nil)
        memory.historyBegunAgain()
    }

    /// The folders damaged histories were set aside in (see `HistoryLog.setAside`), for a
    /// tool to say so until someone looks at them and removes them.
    package var setAsideHistories: [String] {
        (try? HistoryLog.setAsideFolders(in: folder))?.map { folder.pathOf($0) } ?? []
    }

    private func unsettling(_ tail: HistoryLog.Tail) -> HistoryLog.Tail {
        var tail = tail
        tail.unsettled = nil
        return tail
    }

    /// Whether the transaction a record describes happened.
    private func landed(_ record: HistoryRecord, discarded: [String]) throws(FolioError) -> Bool {
        if record.author == HistoryRecord.externalAuthor { return true }  // found on disk, not written
        if let journal = record.journal { return !discarded.contains(journal) }
        for change in record.changes {
            guard let hash = change.contentHash else { continue }
            let staged = Journal.stagedPath(of: change.path)
            guard try folder.status(of: staged) != nil else { continue }
            if ContentHash.of(try folder.readFile(staged, limit: JSONReader.absoluteMaximumSize).bytes) == hash {
                return false
            }
        }
        return true
    }

    /// The record of what a transaction changes, as the app sees it, or `nil` when it
    /// changes no document the app can see (a manifest alone, a purge of soft-deleted ones).
    func historyRecord(
        puts: [(before: JSONObject?, after: JSONObject, path: DocumentPath, hash: UInt64, blobs: [String])],
        deletes: [(before: JSONObject?, path: DocumentPath)], author: String?, schema: QuerySchema
    ) -> HistoryRecord? {
        guard historyLimit > 0 else { return nil }
        let preserved = { (entity: String) in schema.preserved(of: entity) }
        var changes: [HistoryRecord.Change] = []
        for put in puts {
            if let change = HistoryRecord.Change.between(
                put.before, put.after, id: put.path.id, path: put.path.relativePath, contentHash: put.hash,
                changedBlobs: put.blobs, preserved: preserved)
            {
                changes.append(change)
            }
        }
        for delete in deletes {
            if let change = HistoryRecord.Change.between(
                delete.before, nil, id: delete.path.id, path: delete.path.relativePath, contentHash: nil,
                preserved: preserved)
            {
                changes.append(change)
            }
        }
        guard !changes.isEmpty else { return nil }
        return HistoryRecord(token: 0, timestamp: Date(), author: author, writer: .current, changes: changes)
    }

    /// Records the changes a refresh found that no transaction in the history explains (a
    /// hand edit, `git pull`, a checkout) as one transaction by `HistoryRecord.externalAuthor`.
    ///
    /// `since` is the last token the catalog reflected before the refresh; `before` holds the
    /// content the catalog had for each modified or removed document; `walked` is the last
    /// token when the walk was made. A document written by another process's transaction
    /// after `since` is explained when its file still has the content that transaction wrote.
    /// Returns the last token the catalog now reflects (the new record's, when it follows `walked`).
    func recordExternalChanges(
        _ found: StoreChanges, before: [DocumentPath: JSONObject], since: Int64, walked: Int64
    ) throws(FolioError) -> Int64 {
        // Changes the records explain need no record, and so no write lock: another process's
        // saves are told by their own records, read here without it. A writer saving over and
        // over holds that lock most of the time, and waiting for it made each refresh of its
        // saves wait twice. Only a change to record takes the lock, and looks again under it.
        do throws(FolioError) {
            let (landed, reachesBack) = try records(after: since)
            if !reachesBack || unrecorded(found, before: before, landed: landed).isEmpty { return walked }
        } catch {
            // Read again under the lock, below, which sets a damaged history aside or throws.
        }
        return try lock.withLock(.exclusive) { () throws(FolioError) -> Int64 in
            try recoverCrashedWriters()
            let landed: [HistoryRecord]
            let reachesBack: Bool
            do throws(FolioError) {
                (landed, reachesBack) = try records(after: since)
            } catch let error where error.kind == .damagedHistory {
                try setAsideHistory(because: error)
                try recoverCrashedWriters()
                (landed, reachesBack) = ([], false)
            }
            guard let tail = historyEnd.known else { return walked }
            // Records after `since` are gone (`deleteHistory`, the cap, a history set aside):
            // what they would have explained cannot be told from a change nobody recorded, and
            // a transaction that happened is not a new change: nothing is recorded for it.
            guard reachesBack else { return walked }
            let changes = unrecorded(found, before: before, landed: landed)
            // Transactions that landed since the walk are not in the catalog yet: the next
            // refresh finds their files, and the history explains them.
            guard !changes.isEmpty,
                let record = historyEnd.stamped(
                    HistoryRecord(token: 0, timestamp: Date(), author: HistoryRecord.externalAuthor, changes: changes))
            else { return walked }
            historyEnd.move(to: unsettling(try HistoryLog.append(record, to: tail, in: folder)))
            return tail.lastToken == walked ? record.token : walked
        }
    }

    /// The records after `since`, as `HistoryLog.records(after:in:)` gives them, but none
    /// read when the history's tail, still current, is at or before `since`: a refresh of an
    /// edit right after the one it recorded read the newest segment to find nothing after its
    /// own record, and that segment can hold an import's record of megabytes.
    private func records(after since: Int64) throws(FolioError) -> (records: [HistoryRecord], reachesBack: Bool) {
        if let tail = try historyEnd.current(in: folder), tail.lastToken <= since {
            return ([], true)
        }
        return try HistoryLog.records(after: since, in: folder)
    }

    /// The changes among `found` that none of the records `landed` after the catalog's token
    /// explains, as the history records them: a document whose file still has the content
    /// the newest record of it wrote, or that a record deleted or moved, is explained.
    /// Another process watching the same store may have recorded the very change this one
    /// found, and a transaction may have written a file a walk saw before its record was read.
    private func unrecorded(
        _ found: StoreChanges, before: [DocumentPath: JSONObject], landed: [HistoryRecord]
    ) -> [HistoryRecord.Change] {
        // The newest recorded change of each document, by folder and identity.
        var known: [PersistentIdentifier: HistoryRecord.Change] = [:]
        for record in landed {
            for change in record.changes {
                known[.init(entityName: Self.folderName(of: change.path), id: change.id)] = change
            }
        }
        // A document moved to another day's folder is one change, not a removal and an addition.
        var removed: [PersistentIdentifier: DocumentPath] = [:]
        for path in found.removed { removed[.init(path)] = path }
        var changes: [HistoryRecord.Change] = []
        let (current, schema) = memory.current(found.added + found.modified)
        let preserved = { (entity: String) in schema.preserved(of: entity) }
        for path in found.added + found.modified {
            let identity = PersistentIdentifier(path)
            let old = removed.removeValue(forKey: identity)
            guard let (contentHash, content) = current[path] else { continue }
            if let change = known[identity], change.contentHash == contentHash { continue }
            if let change = HistoryRecord.Change.between(
                before[path] ?? old.flatMap { before[$0] }, content, id: path.id, path: path.relativePath,
                contentHash: contentHash, preserved: preserved)
            {
                changes.append(change)
            }
        }
        for (identity, path) in removed.sorted(by: { $0.value < $1.value }) {
            // Deleted (a purge of a soft delete is no change), or moved to another file.
            if let change = known[identity], change.kind == .delete || change.path != path.relativePath {
                continue
            }
            if let change = HistoryRecord.Change.between(
                before[path], nil, id: path.id, path: path.relativePath, contentHash: nil, preserved: preserved)
            {
                changes.append(change)
            }
        }
        return changes
    }

    /// The folder (the hierarchy's root entity) of a document's relative path.
    fileprivate static func folderName(of path: String) -> String { String(path.prefix { $0 != "/" }) }
}

extension Catalog {
    /// The newest of `records` (oldest first, each after `since`) up to which the catalog
    /// holds every document as the transactions left it, or `since` when it does not hold
    /// the first one's: how far a refresh of some files only may move the catalog's token.
    ///
    /// A document a later record changes again counts as that record has it; a loaded
    /// folder's document must be at the record's file with its content, or gone for a
    /// delete. A folder not loaded (`isLoaded` says which are) is confirmed by its own walk
    /// when first used.
    func lastHeld(of records: [HistoryRecord], since: Int64, isLoaded: (String) -> Bool) -> Int64 {
        var reflected = since
        var missing = Set<PersistentIdentifier>()
        for record in records {
            for change in record.changes {
                let identity = PersistentIdentifier(
                    entityName: DocumentStore.folderName(of: change.path), id: change.id)
                if holds(change, of: identity, isLoaded: isLoaded) {
                    missing.remove(identity)
                } else {
                    missing.insert(identity)
                }
            }
            if missing.isEmpty { reflected = record.token }
        }
        return reflected
    }

    /// A delete without a hash removed the file; any other change (a soft delete too) left
    /// one with the hash it records.
    private func holds(_ change: HistoryRecord.Change, of identity: PersistentIdentifier, isLoaded: (String) -> Bool)
        -> Bool
    {
        guard isLoaded(identity.entityName) else { return true }
        guard let path = path(of: identity) else { return change.kind == .delete && change.contentHash == nil }
        return change.contentHash != nil && path.relativePath == change.path
            && entry(at: path)?.contentHash == change.contentHash
    }
}

extension QuerySchema {
    /// The attributes of an entity whose values a delete's history record keeps.
    func preserved(of entity: String) -> Set<String> { entities[entity]?.preservedOnDeletion ?? [] }
}

extension DocumentStore {
    /// The token of the store's newest transaction, 0 before the first.
    package var lastHistoryToken: Int64 {
        get throws(FolioError) {
            guard historyLimit > 0 else { return 0 }
            return try lock.withLock(.shared) { () throws(FolioError) in try HistoryLog.tail(in: folder).lastToken }
        }
    }

    /// The folder that holds an entity's documents: its hierarchy's root entity.
    package func documentFolder(of entity: String) -> String {
        memory.schema.folder(of: entity).folder
    }
}
