import CFolioSystem
import FolioJSON
import Foundation
import Glibc

/// The store's history, in `.folio/history/`: one line of compact JSON per transaction
/// (a `HistoryRecord`), in segment files of up to `segmentLength` records, each named by
/// the token of its first record (`00000000000000000001.ndjson`).
///
/// Local to each copy of the store, as each device's SwiftData store keeps its own, and
/// ignored by git with the rest of `.folio/`. Appends and rewrites happen under the
/// store's write lock. A record is appended before its transaction's commit point; a crash
/// before the commit point leaves the record last, and the next writer drops it
/// (`DocumentStore.settleHistory`), so no record outlives its transaction and no
/// transaction lands without its record when the process dies. A journaled transaction's
/// record is made durable by the journal's own sync. That of a file written alone is not
/// synced (a sync of its own would add half to such a save): a power loss may lose it while
/// the file survives, and the next refresh then records the change as external.
///
/// Segments keep a fetch since a token cheap: it reads only the segments from the one
/// holding that token, however long the history.
enum HistoryLog {
    static let folder = ".folio/history"
    /// Records per segment file.
    static let segmentLength: Int64 = 256
    /// The file holding the store's identifier, which tokens name.
    static let identifierFile = folder + "/store"
    private static let suffix = ".ndjson"
    /// The largest token a history holds: 2^53, the largest integer every JSON reader keeps
    /// exact, and far from Int64's end, so no token arithmetic overflows. A file naming a
    /// token outside 1...largestToken was not written by Folio: the history is damaged.
    static let largestToken: Int64 = 1 << 53
    /// The prefix of a damaged history's folder once set aside, beside `folder`.
    static let setAsidePrefix = ".folio/history-damaged-"

    /// Where the next record goes.
    struct Tail: Sendable, Equatable {
        /// The newest segment's first token (the next token when there is no record yet).
        var segment: Int64
        /// The bytes of the newest segment up to the end of its last whole line.
        var size: Int64
        var lastToken: Int64
        /// The newest record, while it may belong to a transaction that did not land; `nil`
        /// once known to have landed.
        var unsettled: HistoryRecord?
    }

    /// Whether `name` is one the history's folder holds: a segment, the store's identifier,
    /// or a rewrite's temporary file that a crash left.
    static func isFileName(_ name: String) -> Bool {
        name == "store" || segmentToken(name) != nil || (name.contains(suffix + ".") && name.hasSuffix(".tmp"))
    }

    /// The first token a segment's file name says, or `nil` for another name or a token
    /// no history holds (see `segments`).
    private static func segmentToken(_ name: String) -> Int64? {
        guard isSegmentName(name), name.utf8.prefix(20).allSatisfy({ (0x30...0x39).contains($0) }),
            let token = Int64(name.dropLast(suffix.utf8.count)), (1...largestToken).contains(token)
        else { return nil }
        return token
    }

    /// Whether `name` has a segment's shape: twenty characters and the suffix.
    private static func isSegmentName(_ name: String) -> Bool {
        name.hasSuffix(suffix) && name.utf8.count == 20 + suffix.utf8.count
    }

    /// The error for a history file holding what Folio never writes.
    static func damaged(_ root: OpenFolder, _ path: String, _ reason: String) -> FolioError {
        .damagedHistory(path: root.pathOf(path), reason: reason)
    }

    static func segmentPath(_ first: Int64) -> String {
        let digits = String(first)
        return folder + "/" + String(repeating: "0", count: max(0, 20 - digits.count)) + digits + suffix
    }

    /// The first tokens of the segments, oldest first.
    /// A file named as a segment but for no token a history holds is damage.
    static func segments(in root: OpenFolder) throws(FolioError) -> [Int64] {
        guard try root.folder(at: folder) != nil else { return [] }
        var tokens: [Int64] = []
        for name in try root.list(folder) where isSegmentName(name) {
            guard let token = segmentToken(name) else {
                throw damaged(root, folder + "/" + name, "a segment is named for no token a history holds (1 to 2^53)")
            }
            tokens.append(token)
        }
        return tokens.sorted()
    }

    /// Moves a damaged history's folder aside, as `.folio/history-damaged-<seconds>-<nanoseconds>`
    /// with a `REASON` file saying why, so that a new history begins (under a new store
    /// identifier: the old tokens name the old one); returns where it went.
    static func setAside(in root: OpenFolder, because error: FolioError) throws(FolioError) -> String {
        let now = FileSystem.now()
        let destination = setAsidePrefix + "\(now.tv_sec)-\(now.tv_nsec)"
        try root.rename(folder, to: destination)
        _ = try? root.createFile(destination + "/REASON", bytes: Array((error.description + "\n").utf8), sync: false)
        return destination
    }

    /// The folders damaged histories were set aside in, oldest first.
    static func setAsideFolders(in root: OpenFolder) throws(FolioError) -> [String] {
        let prefix = String(setAsidePrefix.dropFirst(".folio/".count))
        guard try root.folder(at: ".folio") != nil else { return [] }
        return try root.list(".folio").filter { $0.hasPrefix(prefix) }.sorted().map { ".folio/" + $0 }
    }

    /// How a record's line, or a change of one, is written: a tombstone's values as deep as
    /// a document's, with room for the levels of the record around them (`recordReader`
    /// reads four more, so a change written whole still reads back inside its record).
    static let recordWriter = JSONWriter(maximumDepth: JSONReader.defaultMaximumDepth + 4)

    /// How a record's line is read: up to 1 GiB (an import's record lists every document it
    /// wrote: 40 MB at 200,000), and deeper than a document may be, for a tombstone's
    /// values inside the record's changes. Folio reads back every record it writes.
    static let recordReader = JSONReader(
        maximumDepth: JSONReader.defaultMaximumDepth + 8, maximumSize: JSONReader.absoluteMaximumSize)

    /// A record's line, with its newline.
    static func lineBytes(of record: HistoryRecord, path: String) throws(FolioError) -> [UInt8] {
        do { return Array(try recordWriter.line(for: record.json).utf8) + [UInt8(ascii: "\n")] } catch {
            throw .invalidDocument(path: path, reason: "a history record cannot be written: \(error.message)")
        }
    }

    /// The store's identifier, which history tokens name; made the first time it is asked
    /// for (call holding the write lock), or `nil` when there is none and none can be made.
    static func identifier(in root: OpenFolder, creating: Bool) throws(FolioError) -> String? {
        if try root.status(of: identifierFile) != nil {
            let text = String(decoding: try root.readFile(identifierFile, limit: 64).bytes, as: UTF8.self)
            if let id = UUID(uuidString: text.trimmingCharacters(in: .whitespacesAndNewlines)) { return id.uuidString }
        }
        guard creating else { return nil }
        let id = UUID().uuidString
        try root.makeLocalStateFolders(folder)
        try root.removeFile(identifierFile)  // unreadable: replaced
        _ = try root.createFile(identifierFile, bytes: Array((id + "\n").utf8), sync: false)
        return id
    }
}
