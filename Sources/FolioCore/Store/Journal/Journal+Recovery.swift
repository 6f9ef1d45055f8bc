// Journal: what a crashed writer left, read back from its plan or commit record and finished or discarded.

import FolioJSON
import Glibc

extension Journal {
    /// Finishes or discards every journal left by a crashed writer; call holding the write lock.
    /// Returns how many transactions were finished, and the identifiers of those discarded.
    ///
    /// Only folders named as Folio names journals are looked at, and only the files Folio
    /// wrote are removed: a stray `.DS_Store` is passed over (`folio check` reports it), a
    /// link is refused, never followed. A committed transaction that cannot be finished
    /// throws `.unfinishedCommit`: it stays, to be finished once its cause is fixed.
    @discardableResult
    static func recover(in root: OpenFolder, durability: Durability) throws(FolioError) -> (
        finished: Int, discarded: [String]
    ) {
        guard let folder = try root.folder(at: Self.folder) else { return (0, []) }
        var result = (finished: 0, discarded: [String]())
        for id in try folder.list().sorted() where isJournalName(id) {
            guard let info = try folder.status(of: id), !FileSystem.isRegularFile(info) else { continue }
            guard let journalFolder = try folder.folder(at: id) else { continue }  // refuses a link
            var journal = Journal(root: root, id: id, targets: [], deletes: [])
            let recordPath = journal.directory + "/" + recordName
            guard try journalFolder.status(of: recordName) != nil else {
                // Crashed before the commit point: as if it never began.
                let planPath = journal.directory + "/" + planName
                // Without a plan either, the transaction was applied and only its folder was
                // left to remove: nothing is discarded.
                let planned = try journalFolder.status(of: planName) != nil
                if planned {
                    do {
                        journal = try Journal(
                            root: root, id: id, record: try readRecord(planPath, in: root), path: planPath)
                    } catch {
                        // A plan cut short by a power loss (it is synced only with the staged
                        // files) names nothing to remove: whatever it staged stays hidden, and
                        // ignored by git, until the same target is staged again.
                    }
                }
                try journal.discard()
                if planned { result.discarded.append(id) }
                continue
            }
            let record: JSONValue
            do {
                record = try readRecord(recordPath, in: root)
            } catch {
                // The record was synced before it became the commit record, so it cannot be torn
                // by a crash; an unreadable one was damaged by hand. Leave it for a person to look at.
                throw .invalidStore(
                    path: root.pathOf(recordPath),
                    reason: "an unfinished transaction's commit record is damaged: \(error.description)")
            }
            journal = try Journal(root: root, id: id, record: record, path: recordPath)
            do { try journal.apply(durability: durability) } catch { throw .unfinishedCommit(error) }
            result.finished += 1
        }
        return result
    }

    /// Whether `name` is one of the files Folio writes in a journal's folder.
    static func isRecordName(_ name: String) -> Bool { name == planName || name == recordName }

    /// Whether `name` is one Folio gives a journal: `<seconds>-<nanoseconds>-<pid>`.
    static func isJournalName(_ name: String) -> Bool {
        let parts = name.utf8.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        return parts.count == 3
            && parts.allSatisfy { part in
                !part.isEmpty && part.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            }
    }

    /// A plan or record read whole: one of a large import lists every file, past the 16 MiB
    /// a document may have, and a committed transaction must be finished however large.
    private static func readRecord(_ relative: String, in root: OpenFolder) throws(FolioError) -> JSONValue {
        let bytes = try root.readFile(relative, limit: JSONReader.absoluteMaximumSize).bytes
        do {
            return try JSONReader(maximumSize: JSONReader.absoluteMaximumSize).read(bytes, file: root.pathOf(relative))
        } catch {
            throw .unreadableJSON(error)
        }
    }

    /// A journal read back from its plan or commit record, accepting only targets inside the store's layout.
    private init(root: OpenFolder, id: String, record: JSONValue, path: String) throws(FolioError) {
        func invalid(_ what: String) -> FolioError {
            .invalidStore(path: root.pathOf(path), reason: "an unfinished transaction's record has \(what)")
        }
        func target(_ value: JSONValue?) throws(FolioError) -> String {
            guard let text = value?.stringValue,
                text == StoreManifest.fileName || DocumentPath(relativePath: text) != nil
            else {
                throw invalid("a target outside the store's layout")
            }
            return text
        }
        guard let puts = record["puts"]?.arrayValue, let deleteRecords = record["deletes"]?.arrayValue else {
            throw invalid("no list of puts and deletes")
        }
        var targets: [Target] = []
        for put in puts { targets.append(Target(relativePath: try target(put))) }
        var deletes: [Delete] = []
        for delete in deleteRecords {
            guard case .integer(let size)? = delete["size"], case .integer(let seconds)? = delete["modifiedSeconds"],
                case .integer(let nanoseconds)? = delete["modifiedNanoseconds"],
                case .integer(let inode)? = delete["inode"]
            else { throw invalid("a delete without its file's stamp") }
            var stamp = FileStamp(
                size: size, modifiedSeconds: seconds, modifiedNanoseconds: nanoseconds, inode: UInt64(bitPattern: inode)
            )
            // A plan written before change times were recorded has none: its deletes match on the rest.
            if case .integer(let changed)? = delete["changed"], case .integer(let device)? = delete["device"] {
                (stamp.changed, stamp.device) = (changed, UInt64(bitPattern: device))
            }
            deletes.append(Delete(target: try target(delete["target"]), stamp: stamp))
        }
        self.init(root: root, id: id, targets: targets, deletes: deletes)
    }
}
