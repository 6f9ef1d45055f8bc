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
        // The folders written must be known (an identity in another day's folder, a document's
        // blobs, the content a history record compares with); a new manifest may change any.
        // One command's new documents are checked against a walk of their folder instead.
        let touched = newManifest != nil ? nil : Set(changes.map(\.entity))
        let walked = touched == nil ? [] : foldersCheckedByWalk(changes)
        try load(touched?.subtracting(walked))
        let summary = try lock.withLock(.exclusive) { () throws(FolioError) -> CommitSummary? in
            try prepareToWrite()
            guard try newIdentitiesAreFree(changes, in: walked) else { return nil }
            var transaction = try state.withLock { state throws(FolioError) in
                try plan(changes, manifest: newManifest, author: author, state: &state)
            }
            guard transaction.writes.hasWork else { return transaction.summary }
            if var history = transaction.history, let tail = state.withLock({ $0.historyTail }) {
                history.token = tail.lastToken + 1
                transaction.history = history
            } else {
                transaction.history = nil
            }
            let stamps = try write(transaction.writes, history: transaction.history)
            return state.withLock { state in
                state.forgetCachedFolders(touched)
                return record(transaction, stamps: stamps, manifest: newManifest, leaving: walked, in: &state)
            }
        }
        if let summary { return summary }
        // A walk found what only a load reports: the folders are loaded, and checked as any.
        try load(walked)
        return try commit(changes, manifest: newManifest, author: author)
    }

    /// Settles what crashed writers left, before a transaction; call holding the write lock.
    func prepareToWrite() throws(FolioError) {
        let recovered: (finished: Int, discarded: [String])
        do throws(FolioError) {
            recovered = try recoverCrashedWriters()
        } catch let error where error.kind == .unfinishedCommit {
            state.withLock { $0.unfinishedTransaction = error }
            throw error
        }
        sweepStagedFiles()
        state.withLock { state in
            state.statistics.transactionsRecovered += recovered.finished
            state.statistics.transactionsDiscarded += recovered.discarded.count
            state.unfinishedTransaction = nil
        }
    }

    /// Removes the staged files the last walk found. Called holding the write lock after
    /// recovery, when no transaction of any process is under way, so each one still there
    /// was left by a writer that crashed between staging and renaming a file it wrote
    /// alone (one without a journal, which recovery knows nothing of). One that cannot be
    /// removed now is tried again at the next commit; it is hidden and ignored by git.
    private func sweepStagedFiles() {
        let staged = state.withLock { $0.stagedFiles }
        guard !staged.isEmpty else { return }
        var left: [String] = []
        for path in staged {
            do {
                guard let info = try folder.status(of: path), FileSystem.isRegularFile(info) else { continue }
                try folder.removeFile(path)
            } catch {
                left.append(path)
            }
        }
        state.withLock { $0.stagedFiles = left }
    }

    /// A transaction decided, before anything is written.
    private struct PlannedTransaction {
        var puts: [PlannedPut] = []
        var deletes: [DocumentVersion] = []
        var writes = WriteSet()
        var summary: CommitSummary
        /// What the history records of it; its token is set once the history's tail is known.
        var history: HistoryRecord?
    }

    /// A put, resolved to bytes and paths, checked against the disk.
    struct PlannedPut {
        var document: Document
        var content: JSONObject
        var bytes: [UInt8]
        var contentHash: UInt64
        var target: DocumentPath
        /// The target's folder and file name, as the journal takes them.
        var file: Journal.Target
        var previous: DocumentVersion?
        /// The target's blob path for each property in `document.blobs`.
        var blobPaths: [String: DocumentPath]
    }

    /// Resolves every change to the files it writes and removes, checking each against the disk.
    private func plan(
        _ changes: [DocumentChange], manifest newManifest: StoreManifest?, author: String?, state: inout State
    ) throws(FolioError) -> PlannedTransaction {
        let calendar = state.manifest.calendar
        let schema = newManifest.map { QuerySchema($0.storedSchema) } ?? state.querySchema
        var puts: [PlannedPut] = []
        var deletes: [DocumentVersion] = []
        var identities = Set<Catalog.Identity>(minimumCapacity: changes.count)
        var summary = CommitSummary(
            versions: .init(minimumCapacity: changes.count), written: 0, unchanged: 0, deleted: 0)
        var folders = FolderPresence()
        var writes = WriteSet()

        for change in changes {
            switch change {
            case .put(let document, let basedOn):
                guard identities.insert(.init(entity: document.entity, id: document.id)).inserted else {
                    throw .misuse("\(document.entity) \(document.id) appears twice in one transaction")
                }
                let plan = try plan(
                    document, basedOn: basedOn, calendar: calendar, schema: schema, catalog: state.catalog,
                    folders: &folders)
                if plan.previous?.path == plan.target, plan.previous?.contentHash == plan.contentHash,
                    document.blobs.isEmpty
                {
                    summary.unchanged += 1
                    summary.versions[plan.target] = plan.previous
                } else {
                    try collect(plan, into: &writes, catalog: state.catalog)
                    puts.append(plan)
                }
            case .delete(let version):
                guard identities.insert(.init(entity: version.path.entity, id: version.path.id)).inserted else {
                    throw .misuse("\(version.path.entity) \(version.path.id) appears twice in one transaction")
                }
                try verifyUnchanged(version)
                deletes.append(version)
            }
        }
        var manifestBytes: [UInt8]?
        if let newManifest, newManifest != state.manifest {
            do { manifestBytes = try JSONWriter().write(newManifest.json) } catch {
                throw .invalidDocument(
                    path: StoreManifest.fileName, reason: "the new manifest cannot be written: \(error.message)")
            }
        }
        for version in deletes {
            writes.removals.append(.init(target: version.path.relativePath, stamp: version.stamp))
            for (blob, stamp) in state.catalog.blobs(of: version.path) {
                writes.removals.append(.init(target: blob.relativePath, stamp: stamp))
            }
        }
        if let manifestBytes { writes.add(Journal.Target(folder: "", name: StoreManifest.fileName), manifestBytes) }
        var history: HistoryRecord?
        if historyLimit > 0 {
            history = historyRecord(
                puts: puts.map { put in
                    (
                        put.previous.flatMap { state.catalog.content(at: $0.path) }, put.content, put.target,
                        put.contentHash, Array(put.document.blobs.keys)
                    )
                },
                deletes: deletes.map { (state.catalog.content(at: $0.path), $0.path) }, author: author, schema: schema)
        }
        return PlannedTransaction(puts: puts, deletes: deletes, writes: writes, summary: summary, history: history)
    }

    /// Writes a planned transaction's files, and its history record, and returns the files'
    /// stamps, in the order of its targets.
    ///
    /// The record is appended after the files are staged and before the commit point, and
    /// made durable by the journal's sync (see `HistoryLog` for a file written alone); a
    /// failure before the commit point takes it out again
    /// (or leaves it for the next writer to drop, see `settleHistory`).
    private func write(_ writes: WriteSet, history: HistoryRecord?) throws(FolioError) -> [FileStamp] {
        var appended: HistoryLog.Tail?
        func appendHistory(journal: String?) throws(FolioError) {
            guard var record = history, let tail = state.withLock({ $0.historyTail }) else { return }
            record.journal = journal
            appended = try HistoryLog.append(record, to: tail, in: folder)
        }
        func dropHistory() {
            guard let tail = appended else { return }
            // What cannot be dropped now stays unsettled: the next writer drops it.
            let after = (try? HistoryLog.dropLast(of: tail, in: folder)) ?? tail
            state.withLock { $0.historyTail = after }
            appended = nil
        }
        func landed() {
            if let appended { historyLanded(appended) }
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
                return [stamp]
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
        do { return try journal.apply(durability: durability) } catch {
            state.withLock { $0.unfinishedTransaction = .unfinishedCommit(error) }
            throw .unfinishedCommit(error)
        }
    }

    /// Records that the transaction whose record ends the history at `tail` passed its
    /// commit point: the record is settled, and the catalog reflects it if it reflected
    /// everything before.
    func historyLanded(_ tail: HistoryLog.Tail) {
        var tail = tail
        let rotated = tail.segment != state.withLock { $0.historyTail?.segment }
        tail.unsettled = nil
        state.withLock { state in
            state.historyTail = tail
            if state.catalogToken == tail.lastToken - 1 { state.catalogToken = tail.lastToken }
        }
        // The cap is kept a segment at a time; a segment that cannot go now goes at the next.
        if rotated { try? HistoryLog.trim(keeping: historyLimit, tail: tail, in: folder) }
    }

    /// Brings the catalog up to date with a written transaction and returns its summary. The
    /// folders `unloaded` stay out of it: their documents are read from disk when next used.
    private func record(
        _ transaction: PlannedTransaction, stamps: [FileStamp], manifest newManifest: StoreManifest?,
        leaving unloaded: Set<String>, in state: inout State
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

    /// Resolves a put: its canonical bytes, its target path, and the checks that the disk
    /// still holds what the caller read (or nothing, for a new document).
    func plan(
        _ document: Document, basedOn: DocumentVersion?, calendar: Calendar, schema: QuerySchema, catalog: Catalog,
        folders: inout FolderPresence
    ) throws(FolioError) -> PlannedPut {
        var content = document.content
        switch content["$entity"] {
        case nil: content.insert(.string(document.entity), forKey: "$entity", at: 0)
        case .string(document.entity)?: break
        // A subclass's document, in its hierarchy's root folder.
        case _? where schema.entity(of: content, inFolder: document.entity) != nil: break
        case let other?:
            throw .misuse("document \(document.id) says \"$entity\": \(other) but is written as a \(document.entity)")
        }
        if let basedOn, basedOn.path.entity != document.entity || basedOn.path.id != document.id {
            throw .misuse("the version passed for \(document.entity) \(document.id) is that of \(basedOn.path)")
        }
        let day = document.partitionDate.map { Day($0, in: calendar) } ?? basedOn?.path.day ?? Day(Date(), in: calendar)
        let target = try DocumentPath(entity: document.entity, day: day, id: document.id)
        if let basedOn {
            try verifyUnchanged(basedOn)
        } else if let existing = catalog.path(of: .init(entity: document.entity, id: document.id)) {
            throw .conflict(path: existing.relativePath, reason: Self.identityTaken)
        }
        let file = Journal.Target(target)
        if basedOn?.path != target, try folders.exists(file.folder, in: folder),
            let info = try folder.status(of: file.relativePath)
        {
            let what = FileSystem.isRegularFile(info) ? "a file" : "something that is not a file"
            throw .conflict(path: target.relativePath, reason: "\(what) already exists where this document goes")
        }
        var blobPaths: [String: DocumentPath] = [:]
        for property in document.blobs.keys { blobPaths[property] = try target.blob(property) }
        let bytes: [UInt8]
        do { bytes = try JSONWriter().write(.object(content)) } catch {
            throw .invalidDocument(
                path: target.relativePath, reason: "the document cannot be written: \(error.message)")
        }
        return PlannedPut(
            document: document, content: content, bytes: bytes, contentHash: ContentHash.of(bytes), target: target,
            file: file,
            previous: basedOn, blobPaths: blobPaths)
    }

    /// Which day folders exist, looked up once each: no file can be in the way of a new
    /// document in a folder that is not there, which spares a lookup per document when a
    /// batch fills new days.
    struct FolderPresence {
        private var known: [String: Bool] = [:]

        mutating func exists(_ folder: String, in root: OpenFolder) throws(FolioError) -> Bool {
            if let exists = known[folder] { return exists }
            let exists = try root.status(of: folder) != nil
            known[folder] = exists
            return exists
        }
    }

    /// Everything a transaction writes and removes, decided before anything is written.
    struct WriteSet {
        /// The files to write, and each one's bytes at the same index.
        private(set) var targets: [Journal.Target] = []
        private(set) var bytes: [[UInt8]] = []
        /// The index in `targets` of each put's document, in the order of the puts.
        var documents: [Int] = []
        /// The blob files among the targets, with their index.
        var blobs: [(path: DocumentPath, index: Int)] = []
        var removals: [Journal.Delete] = []

        /// Whether the transaction writes or removes anything.
        var hasWork: Bool { !targets.isEmpty || !removals.isEmpty }

        /// Adds a file to write and returns its index.
        @discardableResult
        mutating func add(_ target: Journal.Target, _ bytes: [UInt8]) -> Int {
            targets.append(target)
            self.bytes.append(bytes)
            return targets.count - 1
        }
    }

    /// Adds a put's document and blobs to the write set. A blob set to bytes is renamed
    /// over the old one; set to `nil` it is deleted; a move carries the blobs it does not
    /// mention along.
    func collect(_ put: PlannedPut, into writes: inout WriteSet, catalog: Catalog) throws(FolioError) {
        writes.documents.append(writes.add(put.file, put.bytes))
        var blobs = put.document.blobs
        if let previous = put.previous {
            let moving = previous.path != put.target
            if moving { writes.removals.append(.init(target: previous.path.relativePath, stamp: previous.stamp)) }
            for (blob, stamp) in catalog.blobs(of: previous.path) {
                let property = blob.blobProperty!
                switch blobs[property] {
                case .some(.none):  // removed
                    writes.removals.append(.init(target: blob.relativePath, stamp: stamp))
                case .none where moving:  // not mentioned: carried to the new folder
                    blobs[property] = try folder.readFile(blob.relativePath, limit: Int.max).bytes
                    writes.removals.append(.init(target: blob.relativePath, stamp: stamp))
                case .some(.some) where moving:  // replaced in the new folder
                    writes.removals.append(.init(target: blob.relativePath, stamp: stamp))
                default:  // untouched, or replaced in place by the rename
                    break
                }
            }
        }
        for (property, bytes) in blobs {
            guard let bytes else { continue }
            let path = try put.target.blob(property)
            writes.blobs.append((path, writes.add(Journal.Target(path), bytes)))
        }
    }

    /// Throws `.conflict` unless the file at the version's path is still the one that was read.
    private func verifyUnchanged(_ version: DocumentVersion) throws(FolioError) {
        let relative = version.path.relativePath
        guard let info = try folder.status(of: relative) else {
            throw .conflict(path: relative, reason: "was deleted since it was read")
        }
        guard FileSystem.isRegularFile(info) else {
            throw .unsafePath(path: relative, reason: "is no longer a regular file")
        }
        if FileStamp(info) == version.stamp {
            if version.verified { return }
            // Stamped within the file system's clock tick: only the bytes can tell.
            if ContentHash.of(try folder.readFile(relative, limit: Int.max).bytes) == version.contentHash { return }
        }
        throw .conflict(
            path: relative, reason: "changed on disk since it was read (edited by hand, by git, or by another process)")
    }
}
