// DocumentStore: the manifest read and written, and the journals a crash left recovered at open.

import FolioJSON
import Foundation
import Glibc

extension DocumentStore {
    /// A file's stamp if it can vouch for the content (taken after the file's clock tick), else `nil`.
    static func trustworthyStamp(of relative: String, in folder: OpenFolder) throws(FolioError) -> FileStamp? {
        guard let info = try folder.status(of: relative) else { return nil }
        let stamp = FileStamp(info)
        return stamp.isRacy(now: FileSystem.now()) ? nil : stamp
    }

    /// The manifest in a store's folder; a link in its place is refused, never followed.
    static func readManifest(in folder: OpenFolder) throws(FolioError) -> StoreManifest {
        let path = folder.pathOf(StoreManifest.fileName)
        let bytes = try folder.readFile(StoreManifest.fileName, limit: JSONReader.defaultMaximumSize).bytes
        do {
            return try StoreManifest(json: JSONReader().read(bytes, file: path), path: path, text: bytes)
        } catch let error as JSONError {
            throw .unreadableJSON(error)
        } catch let error as FolioError {
            throw error
        } catch {
            throw .invalidStore(path: path, reason: "\(error)")
        }
    }

    /// The store's `.gitignore`: Folio's local state, and files staged by a transaction
    /// that a crash left behind (hidden, and removed when the journal is recovered).
    static let gitignore =
        "# Folio's local state: lock, journal, cache\n.folio/\n# files staged by an unfinished transaction\n.*\(Journal.stagedSuffix)\n"

    static func writeManifest(_ manifest: StoreManifest, in folder: OpenFolder, durability: Durability)
        throws(FolioError)
    {
        let bytes: [UInt8]
        do { bytes = try JSONWriter().write(manifest.json) } catch {
            throw .invalidDocument(
                path: StoreManifest.fileName, reason: "the manifest cannot be written: \(error.message)")
        }
        let temporary = ".\(StoreManifest.fileName).\(getpid()).tmp"
        try folder.removeFile(temporary)  // left by a crash of an earlier process with this id
        try folder.createFile(temporary, bytes: bytes, sync: durability != .none)
        try folder.rename(temporary, to: StoreManifest.fileName)
        if durability != .none { try folder.sync() }
    }

    /// Finishes or discards journals left by a crashed writer. Opening a store must not
    /// depend on it where reading can go on without: a committed transaction that cannot be
    /// finished yet is kept as `unfinishedTransaction`, and a read-only store is read as it
    /// is. A link in the journal's place is refused, never followed.
    func recoverJournals() throws(FolioError) {
        let journals = try folder.folder(at: Journal.folder)
        let crashed = try journals?.list().contains(where: Journal.isJournalName) ?? false
        // The history's newest record is settled at open too, so reads never see one whose
        // transaction a crash undid.
        guard crashed || (historyLimit > 0 && lock.unlockedReason == nil) else { return }
        do {
            let recovered = try lock.withLock(.exclusive) { () throws(FolioError) in try recoverCrashedWriters() }
            writer.finishedEverything()
            memory.recovered(finished: recovered.finished, discarded: recovered.discarded.count)
        } catch let error where error.kind == .unfinishedCommit {
            writer.couldNotFinish(error)
        } catch let error where error.kind == .fileSystem && lock.unlockedReason != nil {
            // Read-only: an uncommitted journal only left hidden staged files, which reads pass over.
            let committed =
                try journals?.list().contains {
                    Journal.isJournalName($0) && (try? journals?.status(of: $0 + "/" + Journal.recordName)) != nil
                } ?? false
            if committed {
                writer.couldNotFinish(.unfinishedCommit(error))
            }
        }
    }
}

extension StoreManifest {
    /// The manifest in a folder, read as a store reads it: a link in its place is refused,
    /// never followed. `nil` when the folder holds no `folio.json`.
    package static func read(inFolder path: String) throws(FolioError) -> StoreManifest? {
        let folder = try OpenFolder(root: path)
        guard try folder.status(of: fileName) != nil else { return nil }
        return try DocumentStore.readManifest(in: folder)
    }
}
