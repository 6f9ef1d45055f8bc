// DocumentStore: a commit's changes planned (the files each writes and removes) and checked against the disk.

import FolioJSON
import Foundation

extension DocumentStore {
    /// A transaction decided, before anything is written.
    struct PlannedTransaction {
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
    func plan(
        _ changes: [DocumentChange], manifest newManifest: StoreManifest?, author: String?,
        state: inout StoreMemory.State
    ) throws(FolioError) -> PlannedTransaction {
        let calendar = state.manifest.calendar
        let schema = newManifest.map { QuerySchema($0.storedSchema) } ?? state.querySchema
        var puts: [PlannedPut] = []
        var deletes: [DocumentVersion] = []
        var identities = Set<PersistentIdentifier>(minimumCapacity: changes.count)
        var summary = CommitSummary(
            versions: .init(minimumCapacity: changes.count), written: 0, unchanged: 0, deleted: 0)
        var folders = FolderPresence()
        var writes = WriteSet()

        for change in changes {
            switch change {
            case .put(let document, let basedOn):
                guard identities.insert(.init(entityName: document.entity, id: document.id)).inserted else {
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
                guard identities.insert(.init(version.path)).inserted else {
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

    /// Resolves a put: its canonical bytes, its target path, and the checks that the disk
    /// still holds what the caller read (or nothing, for a new document). `rendering` is the
    /// document's file made ahead (an import's), used where its time zone is `calendar`'s.
    func plan(
        _ document: Document, basedOn: DocumentVersion?, calendar: Calendar, schema: QuerySchema, catalog: Catalog,
        folders: inout FolderPresence, rendering made: DocumentRendering? = nil
    ) throws(FolioError) -> PlannedPut {
        if let basedOn, basedOn.path.entity != document.entity || basedOn.path.id != document.id {
            throw .misuse("the version passed for \(document.entity) \(document.id) is that of \(basedOn.path)")
        }
        let rendering =
            if let made, made.timeZone == calendar.timeZone { made } else {
                try DocumentRendering(
                    of: document, basedOn: basedOn, schema: schema, calendar: calendar, compact: false)
            }
        let target = rendering.target
        if let basedOn {
            try verifyUnchanged(basedOn)
        } else if let existing = catalog.path(of: .init(entityName: document.entity, id: document.id)) {
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
        return PlannedPut(
            document: document, content: rendering.content, bytes: rendering.bytes,
            contentHash: rendering.contentHash, target: target, file: file, previous: basedOn, blobPaths: blobPaths)
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
        if FileStamp(info) == version.stamp, version.verified { return }
        // Stamped within the file system's clock tick, or a stamp that moved with the bytes as
        // they were (a `chmod`, a `touch`, a checkout that wrote the same file): only the bytes
        // can tell, as a refresh tells them.
        if ContentHash.of(try folder.readFile(relative, limit: Int.max).bytes) == version.contentHash { return }
        throw .conflict(
            path: relative, reason: "changed on disk since it was read (edited by hand, by git, or by another process)")
    }
}
