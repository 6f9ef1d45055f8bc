import FolioJSON
import Foundation
import Glibc
import Synchronization

/// One import under way (see `DocumentStore.importDocuments`): the files it staged, in a
/// compact form, and the three files it writes as it goes: the journal's plan (at the
/// end), the history record and the folder's cache file. Runs holding the write lock.
struct ImportRun {
    private let store: DocumentStore
    private let folderName: String
    private var journal: Journal
    private var staged = StagedFiles()
    private var removals: [Journal.Delete] = []
    /// The identities imported so far, which may each come once.
    private var identities = Set<UUID>()
    /// Those among them already on disk as written: their entries in the cache file are
    /// the catalog's, added at the end with the folder's others.
    private var unchanged: [UUID] = []
    private var summary = CommitSummary(versions: [:], written: 0, unchanged: 0, deleted: 0)
    private var folders = DocumentStore.FolderPresence()
    /// The folder files were last staged in: documents come in runs of one day.
    private var openFolder: (relative: String, folder: OpenFolder)?
    private var history: HistoryLog.RecordWriter?
    private var changesRecorded = 0
    /// `nil` once given up (a document changed while it was written): the folder is then
    /// read from its files when next used, as after any lost cache.
    private var cache: DocumentCache.Writer?
    private let calendar: Calendar
    private let schema: QuerySchema
    /// Whether the commit point was reached (or may have been): from then on the journal
    /// and the staged files are recovery's, and `abandon` leaves them.
    private var isCommitted = false

    init(store: DocumentStore, folder folderName: String, author: String?) throws(FolioError) {
        self.store = store
        self.folderName = folderName
        let (catalogToken, calendar, schema) = store.memory.importBasis
        (self.calendar, self.schema) = (calendar, schema)
        journal = try Journal.beginStaging(in: store.folder)
        do {
            var token = catalogToken
            if store.historyLimit > 0, let tail = store.historyEnd.known,
                let record = store.historyEnd.stamped(
                    HistoryRecord(
                        token: 0, timestamp: Date(), author: author, writer: .current, changes: [], journal: journal.id)
                )
            {
                history = try HistoryLog.RecordWriter(record, after: tail, in: store.folder)
                // The catalog reflects this transaction too once it lands, if it reflected every one before.
                if catalogToken == tail.lastToken { token = record.token }
            }
            // With its index part, so that the next command reads the folder's index, not the folder.
            cache = try DocumentCache.Writer(
                folder: folderName, historyToken: token, index: CacheIndex.Builder(entity: schema.entities[folderName]),
                in: store.folder)
        } catch {
            abandon()
            throw error
        }
    }

    /// Checks and stages one document, and adds its history change and cache entry.
    mutating func add(_ prepared: PreparedDocument) throws(FolioError) {
        let (document, basedOn) = (prepared.document, prepared.basedOn)
        guard schema.folder(of: document.entity).folder == folderName else {
            throw .misuse(
                "\(document.entity) \(document.id) is not kept in \(folderName)/, the folder this import writes")
        }
        guard identities.insert(document.id).inserted else {
            throw .misuse("\(document.entity) \(document.id) appears twice in one transaction")
        }
        var writes = DocumentStore.WriteSet()
        let (calendar, schema) = (calendar, schema)
        let (put, before) = try store.memory.planning { state throws(FolioError) in
            let put = try store.plan(
                document, basedOn: basedOn, calendar: calendar, schema: schema, catalog: state.catalog,
                folders: &folders, rendering: prepared.rendering)
            let unchanged =
                put.previous?.path == put.target && put.previous?.contentHash == put.contentHash
                && document.blobs.isEmpty
            if unchanged { return (put, JSONObject?.none) }
            try store.collect(put, into: &writes, catalog: state.catalog)
            return (put, put.previous.flatMap { state.catalog.content(at: $0.path) })
        }
        guard writes.hasWork else {
            summary.unchanged += 1
            unchanged.append(document.id)
            return
        }
        var blobs = Dictionary(uniqueKeysWithValues: writes.blobs.map { ($0.index, $0.path) })
        blobs[writes.documents[0]] = put.target
        for (index, target) in writes.targets.enumerated() {
            let folder = try folder(target.folder)
            let stamp = try folder.replaceFile(Journal.stagedName(of: target.name), bytes: writes.bytes[index])
            // Every target is the document's file or one of its blobs.
            let path = blobs[index]!
            let isDocument = path.blobProperty == nil
            var file = StagedFiles.File(path: path, stamp: stamp, contentHash: isDocument ? put.contentHash : 0)
            if isDocument {
                do {
                    var compact = prepared.rendering.compact
                    if compact.isEmpty { CompactJSON.encode(.object(put.content), into: &compact) }
                    if let entry = try cache?.append(
                        put.target, stamp: stamp, contentHash: put.contentHash, compact: compact)
                    {
                        file.cacheEntry = entry
                    }
                } catch {
                    giveUpCache()
                }
            }
            staged.append(file)
        }
        removals += writes.removals
        if history != nil,
            let change = HistoryRecord.Change.between(
                before, put.content, id: put.target.id, path: put.target.relativePath, contentHash: put.contentHash,
                changedBlobs: Array(document.blobs.keys), preserved: { schema.preserved(of: $0) })
        {
            try history?.append(change)
            changesRecorded += 1
        }
        summary.written += 1
    }

    /// Commits what was staged: the plan, the history record's end, the commit point, the
    /// files moved into place, then the cache file and the catalog.
    mutating func finish(committing: (_ placed: Int, _ total: Int) -> Void = { _, _ in }) throws(FolioError)
        -> CommitSummary
    {
        guard !staged.isEmpty || !removals.isEmpty else {
            abandon()
            return summary
        }
        try journal.writePlan(puts: staged.all.map(\.path.relativePath), deletes: removals)
        var tail: HistoryLog.Tail?
        if changesRecorded > 0 {
            tail = try history?.finish()
        } else {
            history?.abandon(in: store.folder)
        }
        history = nil
        do {
            try journal.commit(durability: store.durability)
        } catch let error where error.kind == .unfinishedCommit {
            // Past the commit point: the journal stays, to be finished, and its record with it.
            isCommitted = true
            giveUpCache()
            store.writer.couldNotFinish(error)
            store.memory.unload(folderName)
            throw error
        } catch {
            if let tail {
                let after = (try? HistoryLog.dropLast(of: tail, in: store.folder)) ?? tail
                store.historyEnd.move(to: after)
            }
            abandon()
            throw error
        }
        isCommitted = true
        if let tail { store.memory.transactionLanded(token: store.historyLanded(tail)) }
        do {
            for (position, changed) in try Self.placeAll(staged, in: store.folder, committing: committing).enumerated()
            {
                guard changed != Self.notMoved else { continue }
                var moved = staged[position].stamp
                moved.changed = changed
                staged.restamp(position, moved)
                if let entry = staged[position].cacheEntry { cache?.restamp(entry, moved) }
            }
            committing(staged.count, staged.count)
            try journal.apply(durability: store.durability)
        } catch {
            giveUpCache()
            store.writer.couldNotFinish(.unfinishedCommit(error))
            store.memory.unload(folderName)
            throw .unfinishedCommit(error)
        }
        openFolder = nil
        finishCache(staged)
        store.memory.imported(into: folderName)
        return summary
    }

    /// Moves every staged file into place and returns, by position, each file's change time
    /// after the move (the one part of its stamp a rename changes; `notMoved` for a file
    /// recovery moved already): 8 bytes a file, where whole stamps would be 40. Past `parallelPlacing`
    /// files the second half, from a folder's first file on, goes on another thread: renames
    /// in different folders run side by side, where one thread leaves the other core idle.
    private static func placeAll(
        _ staged: StagedFiles, in root: OpenFolder, committing: (_ placed: Int, _ total: Int) -> Void
    ) throws(FolioError) -> [Int64] {
        let count = staged.count
        var split = count
        if count >= parallelPlacing {
            split = count / 2
            while split < count, staged[split].path.folder == staged[split - 1].path.folder { split += 1 }
        }
        let second = Mutex<Result<[Int64], FolioError>>(.success([]))
        let group = DispatchGroup()
        if split < count {
            DispatchQueue.global().async(group: group) { [split] in
                let placed = Result { () throws(FolioError) in try place(staged, split..<count, in: root) }
                second.withLock { $0 = placed }
            }
        }
        // The other thread uses the folders until it is done, whatever this one meets.
        defer { group.wait() }
        var placed = try place(staged, 0..<split, in: root) { done in
            committing(split < count ? min(count, done * count / split) : done, count)
        }
        group.wait()
        placed += try second.withLock { $0 }.get()
        return placed
    }

    /// How many staged files an import moves into place on two threads rather than one.
    static let parallelPlacing = 4096

    /// The change time `place` gives a file it did not move.
    private static let notMoved = Int64.min

    /// Moves the staged files at `positions` into place, a folder open at a time, and returns
    /// each one's change time after the move (see `placeAll`).
    private static func place(
        _ staged: StagedFiles, _ positions: Range<Int>, in root: OpenFolder, progress: (Int) -> Void = { _ in }
    ) throws(FolioError) -> [Int64] {
        var open: (relative: String, folder: OpenFolder)?
        var placed: [Int64] = []
        placed.reserveCapacity(positions.count)
        for position in positions {
            let done = position - positions.lowerBound
            if done % 256 == 0 { progress(done) }
            let file = staged[position]
            let target = Journal.Target(file.path)
            if open?.relative != target.folder { open = (target.folder, try root.makeFolders(target.folder)) }
            let moved = try open?.folder.moveIntoPlace(
                Journal.stagedName(of: target.name), to: target.name, written: file.stamp)
            placed.append(moved?.changed ?? notMoved)
        }
        return placed
    }

    /// Ends the cache file with the folder's entries the import left as they were, once
    /// the files written are past the file system's clock tick: a file stamped within it
    /// is compared by its bytes, as `writeCache` does, and any change gives the cache up.
    private mutating func finishCache(_ written: StagedFiles) {
        guard cache != nil else { return }
        let now = FileSystem.now()
        let recent = written.all.filter { $0.path.blobProperty == nil && $0.stamp.isRacy(now: now) }
        // Every document of the folder is in the file: one left out would be found on disk
        // at the next load and taken for someone else's change. Those stamped within the
        // clock tick, the import's and the catalog's, are confirmed once it has passed (one
        // wait for both), as for any cache file.
        // On a file system that keeps whole seconds that is up to two: an import is worth
        // the wait, where the next load would read every file again.
        let wait = recent.map { $0.stamp.settlingNanoseconds }.max() ?? 0
        if wait > 0 || store.memory.hasUnverifiedEntries {
            usleep(useconds_t(max(wait, FileStamp.fineSettlingNanoseconds) / 1000))
        }
        for file in recent {
            guard let (bytes, stamp) = try? store.folder.readFile(file.path.relativePath, limit: Int.max),
                stamp == file.stamp, ContentHash.of(bytes) == file.contentHash
            else { return giveUpCache() }
        }
        let (imported, unchanged) = (identities, Set(unchanged))
        let kept = store.memory.inspectingCache { state in
            try? store.verifyRecentEntries(&state)
            return state.catalog.entries(inFolder: folderName).filter {
                $0.verified && (!imported.contains($0.path.id) || unchanged.contains($0.path.id))
            }
        }
        do {
            for entry in kept {
                try cache?.append(
                    entry.path, stamp: entry.stamp, contentHash: entry.contentHash, compact: entry.content.compactBytes)
            }
            _ = try cache?.finish()
        } catch {
            giveUpCache()
        }
        cache = nil
    }

    /// Leaves the folder's old cache file as it is: the next load finds the imported files
    /// missing from it and reads them, and the import's history record explains them.
    private mutating func giveUpCache() {
        cache?.abandon()
        cache = nil
    }

    /// Undoes what was written before the commit point: the staged files, the journal, the
    /// unfinished history record and cache file. What cannot be removed now stays hidden
    /// (staged files are swept by the next commit).
    mutating func abandon() {
        cache?.abandon()
        cache = nil
        guard !isCommitted else { return }
        for file in staged.all {
            let target = Journal.Target(file.path)
            try? folder(target.folder).removeFile(Journal.stagedName(of: target.name))
        }
        staged = StagedFiles()
        try? journal.discard()
        history?.abandon(in: store.folder)
        history = nil
        openFolder = nil
    }

    /// A folder of the store, made if missing; the last one is kept open.
    private mutating func folder(_ relative: String) throws(FolioError) -> OpenFolder {
        if let openFolder, openFolder.relative == relative { return openFolder.folder }
        let opened = try store.folder.makeFolders(relative)
        openFolder = (relative, opened)
        return opened
    }
}
