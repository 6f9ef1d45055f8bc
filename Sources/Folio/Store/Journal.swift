import FolioJSON
import Glibc

/// One transaction on its way into the tree, staged in `.folio/journal/<id>/`.
///
/// The protocol: stage every new file in the journal folder; make them durable;
/// write the commit record (`COMMIT`, written whole under a temporary name, then
/// renamed: its appearance is the commit point); rename the staged files into
/// place and remove the deleted ones; remove the journal. A journal found when a
/// store is opened or before the next commit is finished if it has its commit
/// record and discarded if not, so a crash at any instant leaves the transaction
/// entirely applied or entirely absent.
struct Journal {
    static let folder = ".folio/journal"
    private static let recordName = "COMMIT"

    /// A file to rename into place.
    struct Put: Equatable {
        var staged: String
        var target: String
    }

    /// A file to remove, if it is still the one the transaction saw.
    struct Delete: Equatable {
        var target: String
        var stamp: FileStamp
    }

    let storeRoot: String
    let id: String
    var directory: String { storeRoot + "/" + Self.folder + "/" + id }
    private(set) var puts: [Put] = []
    private(set) var deletes: [Delete] = []

    /// A new, empty journal folder.
    static func begin(in storeRoot: String) throws(FolioError) -> Journal {
        let now = FileSystem.now()
        let journal = Journal(storeRoot: storeRoot, id: "\(now.tv_sec)-\(now.tv_nsec)-\(getpid())")
        try FileSystem.makeDirectories(Self.folder + "/" + journal.id, under: storeRoot)
        return journal
    }

    /// Stages the bytes of a file that will land at `target` (relative to the store).
    mutating func stage(_ bytes: [UInt8], target: String) throws(FolioError) -> FileStamp {
        let staged = "\(puts.count)." + (target.hasSuffix(".bin") ? "bin" : "json")
        let stamp = try FileSystem.createFile(directory + "/" + staged, bytes: bytes, sync: false)
        puts.append(Put(staged: staged, target: target))
        return stamp
    }

    mutating func delete(_ target: String, stamp: FileStamp) {
        deletes.append(Delete(target: target, stamp: stamp))
    }

    /// Writes the commit record: from here on the transaction will happen, even after a crash.
    func commit(durability: Durability) throws(FolioError) {
        if durability != .none { try FileSystem.syncFileSystem(containing: storeRoot) }
        let bytes: [UInt8]
        do {
            bytes = try JSONWriter().write(record)
        } catch {
            throw .invalidDocument(path: directory + "/" + Self.recordName, reason: "the commit record cannot be written: \(error.message)")
        }
        let temporary = directory + "/" + Self.recordName + ".tmp"
        try FileSystem.createFile(temporary, bytes: bytes, sync: durability != .none)
        try FileSystem.rename(temporary, to: directory + "/" + Self.recordName)
        if durability != .none { try FileSystem.syncDirectory(directory) }
    }

    /// Renames the staged files into place and removes the deleted ones, then the journal.
    /// Safe to run again after a crash part way through.
    func apply(durability: Durability) throws(FolioError) {
        var folders = Set<String>()
        for put in puts {
            let folder = Self.parentFolder(of: put.target)
            if folders.insert(folder).inserted { try FileSystem.makeDirectories(folder, under: storeRoot) }
            // After a crash part way through, the files already moved are simply not there.
            _ = try FileSystem.renameIfPresent(directory + "/" + put.staged, to: storeRoot + "/" + put.target)
        }
        for delete in deletes {
            let path = storeRoot + "/" + delete.target
            // Only the file the transaction saw: after a crash, a file someone put back stays.
            guard let info = try FileSystem.status(path), FileSystem.isRegularFile(info), FileStamp(info) == delete.stamp else { continue }
            try FileSystem.removeFile(path)
        }
        if durability == .full { try FileSystem.syncFileSystem(containing: storeRoot) }
        try discard()
    }

    /// Removes the journal folder and whatever is in it.
    func discard() throws(FolioError) {
        for name in try FileSystem.list(directory) { try FileSystem.removeFile(directory + "/" + name) }
        try FileSystem.removeDirectory(directory)
    }

    private var record: JSONValue {
        [
            "transaction": .string(id),
            "puts": .array(puts.map { ["staged": .string($0.staged), "target": .string($0.target)] }),
            "deletes": .array(deletes.map { delete in
                [
                    "target": .string(delete.target), "size": .integer(delete.stamp.size),
                    "modifiedSeconds": .integer(delete.stamp.modifiedSeconds),
                    "modifiedNanoseconds": .integer(delete.stamp.modifiedNanoseconds),
                    "inode": .integer(Int64(bitPattern: delete.stamp.inode)),
                ]
            }),
        ]
    }

    private static func parentFolder(of target: String) -> String {
        guard let slash = target.lastIndex(of: "/") else { return "" }
        return String(target[..<slash])
    }

    /// Finishes or discards every journal left by a crashed writer; call holding the write lock.
    /// Returns how many transactions were finished and how many discarded.
    @discardableResult
    static func recover(in storeRoot: String, durability: Durability) throws(FolioError) -> (finished: Int, discarded: Int) {
        let folder = storeRoot + "/" + Self.folder
        guard try FileSystem.status(folder) != nil else { return (0, 0) }
        var result = (finished: 0, discarded: 0)
        for id in try FileSystem.list(folder).sorted() {
            var journal = Journal(storeRoot: storeRoot, id: id)
            let recordPath = journal.directory + "/" + recordName
            guard try FileSystem.status(recordPath) != nil else {
                try journal.discard()  // crashed before the commit point: as if it never began
                result.discarded += 1
                continue
            }
            let record: JSONValue
            do {
                record = try JSONReader().read(contentsOfFile: recordPath)
            } catch {
                // The record is written whole and renamed into place, so it cannot be torn by a
                // crash; an unreadable one was damaged by hand. Leave it for a person to look at.
                throw .invalidStore(path: recordPath, reason: "an unfinished transaction's commit record is damaged: \(error.message)")
            }
            try journal.load(record, path: recordPath)
            try journal.apply(durability: durability)
            result.finished += 1
        }
        return result
    }

    /// Reads a commit record back, accepting only targets inside the store's layout.
    private mutating func load(_ record: JSONValue, path: String) throws(FolioError) {
        func invalid(_ what: String) -> FolioError {
            .invalidStore(path: path, reason: "an unfinished transaction's commit record has \(what)")
        }
        func target(_ value: JSONValue?) throws(FolioError) -> String {
            guard let text = value?.stringValue, text == StoreManifest.fileName || DocumentPath(relativePath: text) != nil else {
                throw invalid("a target outside the store's layout")
            }
            return text
        }
        for put in record["puts"]?.arrayValue ?? [] {
            // Staged files are named `<n>.json` or `<n>.bin`, inside the journal folder.
            guard let staged = put["staged"]?.stringValue, let dot = staged.firstIndex(of: "."),
                staged[..<dot].allSatisfy(\.isNumber), ["json", "bin"].contains(staged[staged.index(after: dot)...])
            else { throw invalid("a bad staged file name") }
            puts.append(Put(staged: staged, target: try target(put["target"])))
        }
        for delete in record["deletes"]?.arrayValue ?? [] {
            guard case .integer(let size)? = delete["size"], case .integer(let seconds)? = delete["modifiedSeconds"],
                case .integer(let nanoseconds)? = delete["modifiedNanoseconds"], case .integer(let inode)? = delete["inode"]
            else { throw invalid("a delete without its file's stamp") }
            let stamp = FileStamp(
                size: size, modifiedSeconds: seconds, modifiedNanoseconds: nanoseconds, inode: UInt64(bitPattern: inode))
            deletes.append(Delete(target: try target(delete["target"]), stamp: stamp))
        }
    }
}
