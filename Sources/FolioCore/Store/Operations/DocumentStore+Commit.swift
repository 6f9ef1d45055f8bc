import FolioJSON
import Foundation

extension DocumentStore {
    /// Writes a batch of changes as one transaction: all of them or, on any error, none.
    ///
    /// Before anything is written, every document to overwrite or delete is checked
    /// against the version the caller read: if its file changed since (a hand edit,
    /// `git pull`, another process), the commit fails with `.conflict` naming the file
    /// and writes nothing. A put whose canonical bytes equal the file already there
    /// writes nothing either, so `git status` stays clean after a no-op save. A put
    /// whose partition day changed moves the document (and its blobs) to the new folder.
    ///
    /// A failure before the transaction's commit point leaves the store as it was. One
    /// after it (an immutable file, a full disk while moving files into place) throws
    /// `.unfinishedCommit`: the transaction is committed, and is finished by the next commit
    /// or open once its cause is fixed. A commit first finishes any such transaction, and
    /// fails with `.unfinishedCommit` while it cannot.
    ///
    /// Commits from any number of threads and processes run one at a time. The store's
    /// state is locked only to plan the transaction and to record it, not while its files
    /// are written and synced, so reads in this process go on meanwhile.
    ///
    /// The store's history records the transaction, as `author` made it, in the same
    /// transaction: a crash never leaves the documents without their record, or a record
    /// of documents that were never written.
    ///
    /// - Throws: `.conflict` (a file changed or an identity taken since it was read), `.misuse` (a
    ///   document twice in the batch, a version of another document), `.invalidDocument`,
    ///   `.unsafePath`, `.fileSystem`, `.locked` (another process kept the write lock too long),
    ///   or `.unfinishedCommit` after the commit point.
    @discardableResult
    public func commit(
        _ changes: [DocumentChange], manifest newManifest: StoreManifest? = nil, author: String? = nil
    ) throws(FolioError) -> CommitSummary {
        // Without a token to compare, the store is never found moved on.
        try commit(changes, manifest: newManifest, author: author, ifNoTransactionAfter: nil)!
    }

    /// `commit`, unless a transaction of any process landed after the one with `token` (see
    /// `latestTransactionToken`): then nothing is written and the answer is `nil`, so that a
    /// caller that checked the store first (that no other document holds a unique value)
    /// checks it again. Checked under the write lock, so no transaction lands in between.
    /// With `token` `nil`, it is `commit`.
    package func commit(
        _ changes: [DocumentChange], manifest newManifest: StoreManifest? = nil, author: String?,
        ifNoTransactionAfter token: Int64?
    ) throws(FolioError) -> CommitSummary? {
        // The folders written must be known (an identity in another day's folder, a document's
        // blobs, the content a history record compares with); a new manifest may change any.
        // One command's new documents are checked against a walk of their folder instead.
        let touched = newManifest != nil ? nil : Set(changes.map(\.entity))
        let walked = touched == nil ? [] : foldersCheckedByWalk(changes)
        try load(touched?.subtracting(walked))
        var movedOn = false
        let summary = try lock.withLock(.exclusive) { () throws(FolioError) -> CommitSummary? in
            try prepareToWrite()
            // The history's tail was settled just now, as the files have it.
            if let token, historyEnd.known?.lastToken != token {
                movedOn = true
                return nil
            }
            guard try newIdentitiesAreFree(changes, in: walked) else { return nil }
            var transaction = try memory.planning { state throws(FolioError) in
                try plan(changes, manifest: newManifest, author: author, state: &state)
            }
            guard transaction.writes.hasWork else { return transaction.summary }
            transaction.history = historyEnd.stamped(transaction.history)
            let (stamps, landed) = try write(transaction.writes, history: transaction.history)
            return memory.recording { state in
                // The catalog reflects the transaction's record if it reflected every one before.
                if let landed, state.catalogToken == landed - 1 { state.catalogToken = landed }
                state.folders.forgetCachedFolders(touched)
                return record(transaction, stamps: stamps, manifest: newManifest, leaving: walked, in: &state)
            }
        }
        if let summary { return summary }
        if movedOn { return nil }
        // A walk found what only a load reports: the folders are loaded, and checked as any.
        try load(walked)
        return try commit(changes, manifest: newManifest, author: author, ifNoTransactionAfter: token)
    }

    /// The token of the last transaction any process recorded in the store's history, as
    /// the files have it now, for `commit(_:author:ifNoTransactionAfter:)`; `nil` for a store
    /// without history, one read without a lock, or a history that cannot be read.
    package func latestTransactionToken() -> Int64? {
        guard historyLimit > 0, lock.unlockedReason == nil, pastTree == nil else { return nil }
        return try? lock.withLock(.shared) { () throws(FolioError) -> Int64 in try currentHistoryToken() }
    }

    /// Whether the loaded folders reflect every transaction up to the one with `token`, so
    /// that a check of them against it needs no refresh first (folders not loaded are read
    /// from the files when used).
    package func reflectsTransactions(through token: Int64) -> Bool { memory.catalogToken == token }

    /// Settles what crashed writers left, before a transaction; call holding the write lock.
    /// A past revision's store is refused here: git's objects are never written.
    func prepareToWrite() throws(FolioError) {
        if let pastTree {
            throw FolioError(
                .misuse, "the store as a past revision held it (tree \(pastTree.tree.prefix(12))) is read-only",
                path: root, hint: "write to the store itself, or bring the past back with `folio restore --from`")
        }
        let recovered: (finished: Int, discarded: [String])
        do throws(FolioError) {
            recovered = try recoverCrashedWriters()
        } catch let error where error.kind == .unfinishedCommit {
            writer.couldNotFinish(error)
            throw error
        }
        writer.finishedEverything()
        // Recovery is done and no transaction of any process is under way, so a staged file
        // still there was left by a writer that crashed between staging and renaming a file it
        // wrote alone (without a journal, which recovery knows nothing of). One that cannot be
        // removed now is tried again at the next commit; it is hidden and ignored by git.
        writer.sweepStagedFiles { path in
            do {
                guard let info = try folder.status(of: path), FileSystem.isRegularFile(info) else { return true }
                try folder.removeFile(path)
                return true
            } catch {
                return false
            }
        }
        if recovered.finished > 0 || !recovered.discarded.isEmpty {
            memory.recovered(finished: recovered.finished, discarded: recovered.discarded.count)
        }
    }

    /// Writes a planned transaction's files, and its history record, and returns the files'
    /// stamps, in the order of its targets.
    ///
    /// The record is appended after the files are staged and before the commit point, and
    /// made durable by the journal's sync (see `HistoryLog` for a file written alone); a
    /// failure before the commit point takes it out again
    /// (or leaves it for the next writer to drop, see `settleHistory`).
    private func write(_ writes: WriteSet, history: HistoryRecord?) throws(FolioError) -> (
        stamps: [FileStamp], landed: Int64?
    ) {
        var appended: HistoryLog.Tail?
        var landedToken: Int64?
        func appendHistory(journal: String?) throws(FolioError) {
            guard var record = history, let tail = historyEnd.known else { return }
            record.journal = journal
            appended = try HistoryLog.append(record, to: tail, in: folder)
        }
        func dropHistory() {
            guard let tail = appended else { return }
            // What cannot be dropped now stays unsettled: the next writer drops it.
            let after = (try? HistoryLog.dropLast(of: tail, in: folder)) ?? tail
            historyEnd.move(to: after)
            appended = nil
        }
        func landed() {
            if let appended { landedToken = historyLanded(appended) }
        }

        if writes.targets.count == 1, writes.removals.isEmpty {
            let stamp: FileStamp?
            do {
                stamp = try Journal.writeAlone(
                    writes.targets[0], bytes: writes.bytes[0], in: folder, durability: durability,
                    beforeRename: history == nil ? nil : { () throws(FolioError) in try appendHistory(journal: nil) })
            } catch {
                dropHistory()
                throw error
            }
            if let stamp {
                landed()
                return ([stamp], landedToken)
            }
        }
        var journal = try Journal.begin(in: folder, writing: writes.targets, deleting: writes.removals)
        do throws(FolioError) {
            try journal.stage(writes.bytes)
            try appendHistory(journal: journal.id)
            try journal.commit(durability: durability)
        } catch let error where error.kind == .unfinishedCommit {
            throw error  // past the commit point: the journal stays, to be finished, and its record with it
        } catch {
            // Before the commit point: the transaction never happened. Whatever cannot be
            // removed now is hidden and removed by the next recovery; the error that matters
            // is the one that stopped the transaction.
            try? journal.discard()
            dropHistory()
            throw error
        }
        landed()
        do { return (try journal.apply(durability: durability), landedToken) } catch {
            // The transaction happened: the catalog reflects its record as when it is finished.
            if let landedToken { memory.transactionLanded(token: landedToken) }
            writer.couldNotFinish(.unfinishedCommit(error))
            throw .unfinishedCommit(error)
        }
    }

    /// Records that the transaction whose record ends the history at `tail` passed its
    /// commit point: the record is settled. Returns the record's token, which the caller
    /// has the catalog reflect (`StoreMemory.transactionLanded`) with what else it records.
    func historyLanded(_ tail: HistoryLog.Tail) -> Int64 {
        let (tail, beganSegment) = historyEnd.landed(tail)
        // The cap is kept a segment at a time; a segment that cannot go now goes at the next.
        if beganSegment { try? HistoryLog.trim(keeping: historyLimit, tail: tail, in: folder) }
        return tail.lastToken
    }

    /// Brings the catalog up to date with a written transaction and returns its summary. The
    /// folders `unloaded` stay out of it: their documents are read from disk when next used.
    private func record(
        _ transaction: PlannedTransaction, stamps: [FileStamp], manifest newManifest: StoreManifest?,
        leaving unloaded: Set<String>, in state: inout StoreMemory.State
    ) -> CommitSummary {
        let (puts, deletes, writes) = (transaction.puts, transaction.deletes, transaction.writes)
        var summary = transaction.summary
        // Reserved at once: growing a map of 100,000 entries step by step costs more than filling it.
        state.catalog.reserveCapacity(state.catalog.count + puts.count)
        for (put, written) in zip(puts, writes.documents) {
            if unloaded.contains(put.target.entity) {
                summary.versions[put.target] = DocumentVersion(
                    path: put.target, stamp: stamps[written], contentHash: put.contentHash, verified: false)
                continue
            }
            if let previous = put.previous, previous.path != put.target {
                state.catalog.remove(previous.path)
                for blob in state.catalog.blobs(of: previous.path).keys { state.catalog.removeBlob(blob) }
            }
            for (property, bytes) in put.document.blobs where bytes == nil {
                state.catalog.removeBlob(put.blobPaths[property]!)
            }
            let entry = Catalog.Entry(
                path: put.target, stamp: stamps[written], contentHash: put.contentHash, verified: false,
                content: DocumentContent(parsed: put.content))
            state.catalog.insert(entry)
            summary.versions[put.target] = entry.version
        }
        for version in deletes {
            state.catalog.remove(version.path)
            for blob in state.catalog.blobs(of: version.path).keys { state.catalog.removeBlob(blob) }
        }
        for (blob, written) in writes.blobs where !unloaded.contains(blob.entity) {
            state.catalog.setBlob(blob, stamp: stamps[written])
        }
        if let newManifest, newManifest != state.manifest { state.manifest = newManifest }
        summary.written = puts.count
        summary.deleted = deletes.count
        state.statistics.transactionsCommitted += 1
        return summary
    }
}
