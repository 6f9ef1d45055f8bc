import FolioJSON
import Glibc

/// One transaction on its way into the tree, recorded in `.folio/journal/<id>/`.
///
/// The protocol: write the plan (`PLAN`: every file to write and to remove); stage
/// each new file beside its target under a hidden name (`.<name>.staged`); make them
/// durable together; rename `PLAN` to `COMMIT`, which is the commit point; rename the
/// staged files over their targets and remove the deleted ones; remove the journal.
/// A journal found when a store is opened or before the next commit is finished if it
/// has its `COMMIT` and discarded (its staged files removed) if not, so a crash at any
/// instant leaves the transaction entirely applied or entirely absent.
///
/// Staging beside the target, rather than inside the journal folder, makes each
/// rename a rename within one folder, and spares the journal folder a directory
/// entry per file: together the better part of a large commit's cost.
struct Journal {
    static let folder = ".folio/journal"
    static let planName = "PLAN"
    /// The commit record's name: a journal holding it is committed.
    static let recordName = "COMMIT"
    /// The suffix of staged files; the store's `.gitignore` ignores `.*.staged`.
    static let stagedSuffix = ".staged"

    /// A file to remove, if it is still the one the transaction saw.
    struct Delete: Equatable {
        var target: String
        var stamp: FileStamp
    }

    /// A file a transaction writes: its folder relative to the store (empty for the store's
    /// own folder) and its name there, kept apart so that nothing splits paths per file.
    struct Target {
        var folder: String
        var name: String

        init(folder: String, name: String) {
            self.folder = folder
            self.name = name
        }

        /// A path relative to the store, split at its last `/`.
        init(relativePath: String) {
            guard let slash = relativePath.utf8.lastIndex(of: UInt8(ascii: "/")) else {
                self.init(folder: "", name: relativePath)
                return
            }
            self.init(
                folder: String(relativePath[..<slash]),
                name: String(relativePath[relativePath.utf8.index(after: slash)...]))
        }

        /// A document's or a blob's file.
        init(_ path: DocumentPath) {
            self.init(folder: path.folder, name: path.fileName)
        }

        var relativePath: String { folder.isEmpty ? name : folder + "/" + name }
    }

    /// A target as the journal works on it: its name, the hidden name it is staged under,
    /// and its place in the list the transaction was begun with (where `stage` finds its
    /// bytes and puts its stamp).
    private struct File {
        var name: String
        var stagedName: String
        var index: Int
    }

    /// The targets in one folder.
    private struct FolderTargets {
        var folder: String
        var files: [File]
    }

    let root: OpenFolder
    let id: String
    /// The journal's folder, relative to the store.
    var directory: String { Self.folder + "/" + id }
    /// The files the transaction writes, folder by folder, the folders in order.
    private let folders: [FolderTargets]
    /// How many files the transaction writes.
    private let targetCount: Int
    private var deletes: [Delete]
    /// Each target's stamp as staged, by the target's index, once `stage` has run.
    private var stagedStamps: [FileStamp] = []
    /// The folders `stage` opened, in the order of `folders`, kept open for `apply` or
    /// `discard` (the first `heldFolderLimit` of them; any others are opened again).
    private var openFolders: [OpenFolder] = []

    /// How many folders a transaction keeps open from staging to applying: a quarter of
    /// the process's limit on open files, which leaves the rest to the app.
    private static let heldFolderLimit: Int = {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        return Int(min(limit.rlim_cur, 1 << 20)) / 4
    }()

    init(root: OpenFolder, id: String, targets: [Target], deletes: [Delete]) {
        self.root = root
        self.id = id
        self.folders = Self.grouped(targets)
        self.targetCount = targets.count
        self.deletes = deletes
    }

    /// Writes one file as a whole transaction, without a journal: staged beside its
    /// target, synced, and renamed over it. A rename replaces a file atomically, so a
    /// crash leaves the old file or the new one, as the journal would; `.full` also syncs
    /// the folder, so the rename survives a power loss. A journal's folder, plan, record
    /// and second file-system sync are most of a one-document save's cost.
    ///
    /// Returns the file's stamp, or `nil` (nothing written) when the target's folder does
    /// not exist yet: a new folder is made durable by the journal's file-system sync.
    static func writeAlone(
        _ target: Target, bytes: [UInt8], in root: OpenFolder, durability: Durability,
        beforeRename: (() throws(FolioError) -> Void)? = nil
    ) throws(FolioError) -> FileStamp? {
        guard let folder = try root.folder(at: target.folder) else { return nil }
        let staged = stagedName(of: target.name)
        var stamp: FileStamp
        do {
            stamp = try folder.replaceFile(staged, bytes: bytes, sync: durability != .none)
            // Not synced: a file-system sync for it would cost a one-file save half again
            // (see `HistoryLog`), and the rename that follows is what makes it count.
            try beforeRename?()
            try folder.rename(staged, to: target.name)
            stamp = folder.stamp(of: target.name, movedWith: stamp)
        } catch {
            try? folder.removeFile(staged)  // never renamed: the target is as it was
            throw error
        }
        if durability == .full { try folder.sync() }
        return stamp
    }

    /// The hidden name a file written alone is staged under, relative to the store: where a
    /// crash between staging and renaming leaves it.
    static func stagedPath(of relativePath: String) -> String {
        let target = Target(relativePath: relativePath)
        return Target(folder: target.folder, name: stagedName(of: target.name)).relativePath
    }

    /// Starts a transaction that writes `targets` and removes `deletes`: a new journal
    /// folder holding the plan, and nothing staged yet.
    static func begin(in root: OpenFolder, writing targets: [Target], deleting deletes: [Delete]) throws(FolioError)
        -> Journal
    {
        let now = FileSystem.now()
        let journal = Journal(
            root: root, id: "\(now.tv_sec)-\(now.tv_nsec)-\(getpid())", targets: targets, deletes: deletes)
        let folder = try root.makeLocalStateFolders(journal.directory)
        do {
            // Not synced on its own: the sync that makes the staged files durable covers it.
            try folder.createFile(planName, bytes: try journal.recordBytes(), sync: false)
        } catch {
            try? journal.removeFolder()  // the error that matters is the one thrown
            throw error
        }
        return journal
    }

    /// Starts a transaction whose files its writer stages one at a time, before there is a
    /// plan: an import's, whose list of files is only known, and only fits in memory in a
    /// compact form of the writer's, once all are staged. The journal's folder is made empty.
    ///
    /// A crash before `writePlan` leaves a folder without a plan, which recovery removes
    /// as it would an applied one's; the staged files stay hidden and ignored by git until
    /// the next commit sweeps them. The writer moves its staged files into place itself
    /// after `commit`, then calls `apply` for the deletes and the rest.
    static func beginStaging(in root: OpenFolder) throws(FolioError) -> Journal {
        let now = FileSystem.now()
        let journal = Journal(root: root, id: "\(now.tv_sec)-\(now.tv_nsec)-\(getpid())", targets: [], deletes: [])
        _ = try root.makeLocalStateFolders(journal.directory)
        return journal
    }

    /// Writes the plan of a transaction begun with `beginStaging`, listing `puts` (paths
    /// relative to the store) and `deletes`, a put at a time rather than built in memory.
    mutating func writePlan(puts: some Sequence<String>, deletes: [Delete]) throws(FolioError) {
        self.deletes = deletes
        let folder = try root.makeLocalStateFolders(directory)
        let descriptor = try folder.openFile(Self.planName, flags: O_WRONLY | O_CREAT | O_EXCL)
        var file = AppendingFile(descriptor: descriptor, path: folder.pathOf(Self.planName))
        do {
            try file.append(try json(["transaction": .string(id)]).dropLast())
            try file.append(#","puts":["#.utf8)
            var first = true
            for put in puts {
                if !first { try file.append(CollectionOfOne(UInt8(ascii: ","))) }
                first = false
                try file.append(try json(.string(put)))
            }
            try file.append(#"],"deletes":"#.utf8)
            try file.append(try json(deletesJSON))
            try file.append(CollectionOfOne(UInt8(ascii: "}")))
            try file.close()  // not synced on its own: `commit`'s sync covers it, as `begin`'s
        } catch {
            file.abandon()
            try? folder.removeFile(Self.planName)
            throw error
        }
    }

    /// Stages each target's bytes (`bytes[i]` for the `i`th target `begin` was given)
    /// beside it, creating the folders it needs; `apply` returns their stamps once in place.
    mutating func stage(_ bytes: [[UInt8]]) throws(FolioError) {
        var stamps = [FileStamp?](repeating: nil, count: targetCount)
        try forEachFolder(staging: true) { folder, file throws(FolioError) in
            stamps[file.index] = try folder.replaceFile(file.stagedName, bytes: bytes[file.index])
        }
        stagedStamps = stamps.map { $0! }  // every index belongs to exactly one folder
    }

    /// Turns the plan into the commit record, once the staged files are durable: from here
    /// on the transaction will happen, even after a crash.
    ///
    /// Throws `.unfinishedCommit` when the rename happened but could not be made durable:
    /// the transaction may then have happened or not, and the next open settles which.
    func commit(durability: Durability) throws(FolioError) {
        if durability != .none { try root.syncFileSystem() }
        guard let folder = try root.folder(at: directory) else {
            throw .fileSystem(
                path: root.pathOf(directory), operation: "commit the transaction in",
                reason: "the journal's folder was removed")
        }
        try folder.rename(Self.planName, to: Self.recordName)
        if durability != .none {
            do { try folder.sync() } catch { throw .unfinishedCommit(error) }
        }
    }

    /// Renames the staged files into place and removes the deleted ones, then the journal.
    /// Safe to run again after a crash part way through. Returns each target's stamp in
    /// place, by the target's index, when this journal staged them (a recovered one did not).
    @discardableResult
    mutating func apply(durability: Durability) throws(FolioError) -> [FileStamp] {
        var stamps = stagedStamps
        try forEachFolder(staging: false) { folder, file throws(FolioError) in
            // After a crash part way through, the files already moved are simply not there.
            guard file.index < stamps.count else {
                try folder.renameIfPresent(file.stagedName, to: file.name)
                return
            }
            if let moved = try folder.moveIntoPlace(file.stagedName, to: file.name, written: stamps[file.index]) {
                stamps[file.index] = moved
            }
        }
        for delete in deletes {
            // Only the file the transaction saw: after a crash, a file someone put back stays.
            guard let info = try root.status(of: delete.target), FileSystem.isRegularFile(info),
                FileStamp(info).isStill(delete.stamp)
            else { continue }
            try root.removeFile(delete.target)
        }
        if durability == .full { try root.syncFileSystem() }
        try removeFolder()
        return stamps
    }

    /// Abandons a transaction before its commit point: removes whatever it staged, then the journal.
    mutating func discard() throws(FolioError) {
        try forEachFolder(staging: false) { folder, file throws(FolioError) in
            try folder.removeFile(file.stagedName)
        }
        try removeFolder()
    }

    /// Removes the journal's plan or record, then its folder. Anything else a person put
    /// there is left, and so is the folder then: Folio removes only what it wrote.
    private func removeFolder() throws(FolioError) {
        guard let folder = try root.folder(at: directory) else { return }
        try folder.removeFile(Self.planName)
        try folder.removeFile(Self.recordName)
        if try folder.list().isEmpty { try root.removeFolder(directory) }
    }

    /// Calls `body` with each target's open folder and the target. Staging creates the
    /// folders it needs and keeps the first `heldFolderLimit` open; applying or discarding
    /// uses those, opens the others again (skipping any that is not there), then closes them all.
    private mutating func forEachFolder(staging: Bool, _ body: (OpenFolder, File) throws(FolioError) -> Void)
        throws(FolioError)
    {
        for (position, group) in folders.enumerated() {
            let folder: OpenFolder
            if position < openFolders.count {
                folder = openFolders[position]
            } else {
                let opened: OpenFolder
                if staging {
                    opened = try root.makeFolders(group.folder)
                } else {
                    guard let present = try root.folder(at: group.folder) else { continue }
                    opened = present
                }
                folder = opened
                if staging, openFolders.count < Self.heldFolderLimit { openFolders.append(folder) }
            }
            for file in group.files { try body(folder, file) }
        }
        if !staging { openFolders = [] }
    }

    /// The targets grouped by folder, the folders in order (as the plan lists them).
    private static func grouped(_ targets: [Target]) -> [FolderTargets] {
        var groups: [FolderTargets] = []
        var groupOfFolder: [String: Int] = [:]
        for (index, target) in targets.enumerated() {
            let file = File(name: target.name, stagedName: stagedName(of: target.name), index: index)
            if let group = groupOfFolder[target.folder] {
                groups[group].files.append(file)
            } else {
                groupOfFolder[target.folder] = groups.count
                groups.append(FolderTargets(folder: target.folder, files: [file]))
            }
        }
        return groups.sorted { $0.folder < $1.folder }
    }

    /// The hidden name a file is staged under, beside its target.
    static func stagedName(of name: String) -> String {
        var staged = "."
        staged.reserveCapacity(1 + name.utf8.count + stagedSuffix.utf8.count)  // one allocation, not two
        staged += name
        staged += stagedSuffix
        return staged
    }

    private func recordBytes() throws(FolioError) -> [UInt8] {
        let record: JSONValue = [
            "transaction": .string(id),
            "puts": .array(
                folders.flatMap { group in
                    group.files.map { .string(Target(folder: group.folder, name: $0.name).relativePath) }
                }),
            "deletes": deletesJSON,
        ]
        return try json(record)
    }

    private var deletesJSON: JSONValue {
        .array(
            deletes.map { delete in
                [
                    "target": .string(delete.target), "size": .integer(delete.stamp.size),
                    "modifiedSeconds": .integer(delete.stamp.modifiedSeconds),
                    "modifiedNanoseconds": .integer(delete.stamp.modifiedNanoseconds),
                    "inode": .integer(Int64(bitPattern: delete.stamp.inode)),
                    "changed": .integer(delete.stamp.changed),
                    "device": .integer(Int64(bitPattern: delete.stamp.device)),
                ]
            })
    }

    /// A value of the plan, compact.
    private func json(_ value: JSONValue) throws(FolioError) -> [UInt8] {
        do { return Array(try JSONWriter().line(for: value).utf8) } catch {
            throw .invalidDocument(
                path: root.pathOf(directory + "/" + Self.planName),
                reason: "the transaction's plan cannot be written: \(error.message)")
        }
    }
}
