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

    /// The tail as the files have it, with the newest record unsettled, and the bytes of a
    /// line cut short by a crash left out of its size.
    static func tail(in root: OpenFolder) throws(FolioError) -> Tail {
        guard let newest = try segments(in: root).last else { return Tail(segment: 1, size: 0, lastToken: 0) }
        let path = segmentPath(newest)
        let descriptor = try root.openFile(path, flags: O_RDONLY)
        defer { close(descriptor) }
        // Only the end of the segment is read, and of its last line only the members before
        // the changes: every open and commit asks, and an import's line lists every
        // document it wrote (tens of megabytes).
        guard let line = try lastLine(in: descriptor, path: root.pathOf(path)) else {
            return Tail(segment: newest, size: 0, lastToken: newest - 1)
        }
        var tail = Tail(segment: newest, size: line.upperBound + 1, lastToken: newest - 1)
        let headLength = min(Int64(line.count), 64 * 1024)
        let head = try read(descriptor, line.lowerBound..<(line.lowerBound + headLength), path: root.pathOf(path))
        var record = settlingRecord(head: head)
        if record == nil {
            let whole = head.count == line.count ? head : try read(descriptor, line, path: root.pathOf(path))
            record = wholeRecord(whole, path: path)
        }
        guard let record else {
            // A line this version cannot read (edited by hand, another program's): its token
            // is unknown, and one guessed could be handed out twice.
            throw damaged(root, path, "its last line is not a history record this version of Folio can read")
        }
        // Tokens in a segment run from its name up, one segment's worth, and never go back.
        guard record.token >= newest, record.token - newest < segmentLength else {
            throw damaged(
                root, path,
                "its last record has token \(record.token), outside the segment's \(newest) to \(newest + segmentLength - 1)"
            )
        }
        if let before = try lastLine(in: descriptor, before: line.lowerBound, path: root.pathOf(path)),
            let previous = leadingToken(
                of: try read(
                    descriptor, before.lowerBound..<min(before.upperBound, before.lowerBound + 40),
                    path: root.pathOf(path))[...]),
            previous >= record.token
        {
            throw damaged(
                root, path, "its last record has token \(record.token), not after the one before it (\(previous))")
        }
        tail.lastToken = record.token
        tail.unsettled = record
        return tail
    }

    /// The newest record from the members before its changes, when its journal or author
    /// settles it without them (see `Tail.unsettled`); `nil` otherwise.
    ///
    /// Folio writes the changes last, so the members before them are the line up to its
    /// first `,"changes":` (a string's quotes are escaped, so none holds those bytes); a
    /// line edited into another order is read whole.
    private static func settlingRecord(head: [UInt8]) -> HistoryRecord? {
        guard let cut = head.firstRange(of: Array(#","changes":"#.utf8)),
            let value = try? JSONReader().read(
                Array(head[..<cut.lowerBound]) + Array(#","changes":[]}"#.utf8), file: folder),
            let record = HistoryRecord(json: value),
            record.journal != nil || record.author == HistoryRecord.externalAuthor
        else { return nil }
        return record
    }

    private static func wholeRecord(_ line: [UInt8], path: String) -> HistoryRecord? {
        (try? recordReader.read(line, file: path)).flatMap(HistoryRecord.init(json:))
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

    /// Where the file's last whole line before `limit` (the file's end when `nil`) is,
    /// without its newline (`nil` when there is none), found by reading back a block at a
    /// time: bytes after the last newline are a line a crash cut short.
    private static func lastLine(in descriptor: Int32, before limit: Int64? = nil, path: String) throws(FolioError)
        -> Range<Int64>?
    {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw .fileSystem(path: path, operation: "inspect", reason: FileBytes.systemError())
        }
        let block: Int64 = 64 * 1024
        var end: Int64?  // just past the last whole line's newline
        var position = min(limit ?? Int64(info.st_size), Int64(info.st_size))
        while position > 0 {
            let start = max(0, position - block)
            let bytes = try read(descriptor, start..<position, path: path)
            var index = bytes.count
            while index > 0 {
                index -= 1
                guard bytes[index] == UInt8(ascii: "\n") else { continue }
                let offset = start + Int64(index)
                if let end { return (offset + 1)..<(end - 1) }
                end = offset + 1
            }
            position = start
        }
        return end.map { 0..<($0 - 1) }
    }

    /// The bytes of a range of a file.
    private static func read(_ descriptor: Int32, _ range: Range<Int64>, path: String) throws(FolioError) -> [UInt8] {
        guard range.count <= JSONReader.absoluteMaximumSize else {
            throw .fileSystem(path: path, operation: "read", reason: "its last line is larger than 1 GiB")
        }
        return try FileSystem.read(descriptor, at: range.lowerBound, count: Int(range.count), path: path)
    }

    /// Appends a record's line to the newest segment, or to a new one when it is full, and
    /// returns the tail after it. The record's token must be `tail.lastToken + 1`.
    static func append(_ record: HistoryRecord, to tail: Tail, in root: OpenFolder) throws(FolioError) -> Tail {
        let line = try lineBytes(of: record, path: folder)
        let (descriptor, segment, size, path) = try openNextLine(token: record.token, after: tail, in: root)
        defer { close(descriptor) }
        // A new segment's blocks are reserved at once (its size stays 0), so appends do not
        // allocate a block every few records: on a file system that just deleted many files,
        // allocating is what made a save with history slow. Where it is refused, appends allocate.
        if size == 0 { _ = folio_reserve(descriptor, off_t(segmentLength) * 512) }
        // Written at the end of the last whole line: a line a crash cut short is overwritten.
        var file = AppendingFile(descriptor: descriptor, at: size, path: path, operation: "append to")
        do {
            try file.append(line)
            try file.flush()
        } catch {
            _ = ftruncate(descriptor, off_t(size))
            throw error
        }
        // Bytes past the line are what a crash cut short, or another writer's: never left after it.
        var info = stat()
        let end = off_t(size) + off_t(line.count)
        guard fstat(descriptor, &info) == 0, info.st_size == end || ftruncate(descriptor, end) == 0 else {
            throw .fileSystem(path: path, operation: "append to", reason: String(cString: strerror(errno)))
        }
        return Tail(segment: segment, size: size + Int64(line.count), lastToken: record.token, unsettled: record)
    }

    /// Where the line of the record with `token` goes after `tail`: the end of the newest
    /// segment, or a new segment when that one is full. The history's folder is made for a
    /// first record, and the segment opened for writing (the caller closes it); `path` is
    /// for messages.
    private static func openNextLine(token: Int64, after tail: Tail, in root: OpenFolder) throws(FolioError) -> (
        descriptor: Int32, segment: Int64, size: Int64, path: String
    ) {
        if tail.size == 0 { try root.makeFolders(folder) }  // a first record, or a new store's
        var (segment, size) = (tail.segment, tail.size)
        if token - tail.segment >= segmentLength { (segment, size) = (token, 0) }
        let descriptor = try root.openFile(segmentPath(segment), flags: O_WRONLY | O_CREAT)
        return (descriptor, segment, size, root.pathOf(segmentPath(segment)))
    }

    /// A record written a change at a time, straight into its place at the end of the
    /// history: an import's lists every document it wrote, too many to build in memory
    /// first. It becomes the history's last line only when `finish` writes its newline, so
    /// until then a crash or `abandon` leaves the history as it was (`tail` leaves out a
    /// line cut short, and the next append writes over it).
    struct RecordWriter {
        private var file: AppendingFile
        private let start: Tail
        private let segment: Int64
        /// The record without its changes, as the tail keeps it until it is settled.
        private let record: HistoryRecord
        private var isFirst = true

        /// Starts the line of `record` (its changes left out: `append` adds them) after `tail`.
        init(_ record: HistoryRecord, after tail: Tail, in root: OpenFolder) throws(FolioError) {
            var head = record
            head.changes = []
            let line = try lineBytes(of: head, path: folder)
            let ending = Array(#"[]}"#.utf8) + [UInt8(ascii: "\n")]
            guard line.count > ending.count, Array(line.suffix(ending.count)) == ending else {
                preconditionFailure("a history record's line ends with its changes")
            }
            let (descriptor, segment, size, path) = try openNextLine(token: record.token, after: tail, in: root)
            file = AppendingFile(descriptor: descriptor, at: size, path: path)
            (start, self.segment, self.record) = (tail, segment, head)
            do { try file.append(line.dropLast(ending.count - 1)) } catch {
                abandon(in: root)
                throw error
            }
        }

        mutating func append(_ change: HistoryRecord.Change) throws(FolioError) {
            let text: String
            do { text = try recordWriter.line(for: change.json) } catch {
                throw .invalidDocument(path: file.path, reason: "a history record cannot be written: \(error.message)")
            }
            if !isFirst { try file.append(CollectionOfOne(UInt8(ascii: ","))) }
            isFirst = false
            try file.append(text.utf8)
        }

        /// Ends the line, making it the history's newest record (unsettled until its
        /// transaction's commit point), and returns the tail after it.
        mutating func finish() throws(FolioError) -> Tail {
            try file.append(Array("]}\n".utf8))
            try file.flush()
            // Bytes past the line are what a crash cut short: never left after it.
            try file.truncate(at: file.end)
            let end = file.end
            try file.close()
            return Tail(segment: segment, size: end, lastToken: record.token, unsettled: record)
        }

        /// Takes the line out again, before `finish` (after it, `dropLast` does): the
        /// history ends where it did. What cannot be undone now is a line without its
        /// newline, which the next append writes over.
        mutating func abandon(in root: OpenFolder) {
            file.abandon()
            if segment != start.segment {
                try? root.removeFile(segmentPath(segment))
            } else if let descriptor = try? root.openFile(segmentPath(segment), flags: O_WRONLY) {
                _ = ftruncate(descriptor, off_t(start.size))
                close(descriptor)
            }
        }
    }

    /// Where the last line ending at `end` (just past its newline) starts; 0 for none.
    private static func lastLineStart(in bytes: [UInt8], end: Int) -> Int {
        end > 0 ? (bytes[..<(end - 1)].lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1 : 0
    }

    /// Whether the newest segment still ends where `tail` says and is still the newest: no
    /// other process appended or rewrote it since this one last did (else the tail is to be
    /// read again). A full segment's next record begins the next one, named by its token.
    static func isCurrent(_ tail: Tail, in root: OpenFolder) throws(FolioError) -> Bool {
        guard try (root.status(of: segmentPath(tail.segment)).map { Int64($0.st_size) } ?? 0) == tail.size else {
            return false
        }
        let next = tail.lastToken + 1
        guard next - tail.segment >= segmentLength else { return true }
        return try root.status(of: segmentPath(next)) == nil
    }

    /// Takes the newest record out again: its transaction did not land.
    static func dropLast(of tail: Tail, in root: OpenFolder) throws(FolioError) -> Tail {
        guard let record = tail.unsettled else { return tail }
        let path = segmentPath(tail.segment)
        let bytes = try root.readFile(path, limit: JSONReader.absoluteMaximumSize).bytes
        let lineEnd = Int(min(tail.size, Int64(bytes.count)))
        let start = lastLineStart(in: bytes, end: lineEnd)
        let descriptor = try root.openFile(path, flags: O_WRONLY)
        defer { close(descriptor) }
        guard ftruncate(descriptor, off_t(start)) == 0 else {
            throw .fileSystem(path: root.pathOf(path), operation: "truncate", reason: String(cString: strerror(errno)))
        }
        return Tail(segment: tail.segment, size: Int64(start), lastToken: record.token - 1)
    }

    /// Removes the oldest segments while the others still hold `limit` records.
    static func trim(keeping limit: Int, tail: Tail, in root: OpenFolder) throws(FolioError) {
        let firsts = try segments(in: root)
        for (first, next) in zip(firsts, firsts.dropFirst()) where tail.lastToken - (next - 1) >= Int64(limit) {
            try root.removeFile(segmentPath(first))
        }
    }

    /// Every record after `token`, oldest first; `reachesBack` is `false` when records
    /// after it were deleted (by `deleteHistory` or the cap), so some are missing.
    static func records(after token: Int64, in root: OpenFolder) throws(FolioError) -> (
        records: [HistoryRecord], reachesBack: Bool
    ) {
        let firsts = try segments(in: root)
        guard let oldest = firsts.first else { return ([], true) }
        // No record is past the largest token: a later one (a user's typed token) asks for nothing.
        guard token < largestToken else { return ([], true) }
        let start = firsts.lastIndex { $0 <= token + 1 } ?? 0
        var records: [HistoryRecord] = []
        for first in firsts[start...] {
            // The segment that holds `token` is read from its end back to it, when it can be.
            if first <= token, let recent = try recentRecords(segment: first, after: token, in: root) {
                records += recent
            } else {
                records += try read(segment: first, after: token, in: root)
            }
        }
        return (records, token + 1 >= oldest)
    }

    /// The records of one segment after `token`; a line cut short by a crash is passed over.
    /// A line's token is read from its start (`{"token":N,`, as records are written) and the
    /// line parsed only when it is wanted: a transaction of 10,000 documents is one long line.
    static func read(segment first: Int64, after token: Int64 = 0, in root: OpenFolder) throws(FolioError)
        -> [HistoryRecord]
    {
        var records: [HistoryRecord] = []
        try forEachRecord(segment: first, after: token, in: root) { records.append($0) }
        return records
    }

    /// A segment opened for reading, and its size then; nil when it is not there (removed by a
    /// trim since it was listed). The caller closes the descriptor.
    static func openSegment(_ first: Int64, in root: OpenFolder) throws(FolioError) -> (
        descriptor: Int32, size: Int64
    )? {
        let path = segmentPath(first)
        let descriptor: Int32
        do { descriptor = try root.openFile(path, flags: O_RDONLY) } catch {
            guard try root.status(of: path) != nil else { return nil }
            throw error
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let reason = FileBytes.systemError()
            close(descriptor)
            throw .fileSystem(path: root.pathOf(path), operation: "read", reason: reason)
        }
        return (descriptor, Int64(info.st_size))
    }

    /// Hands `body` the records of one segment after `token`, as `read` finds them, reading
    /// the file a megabyte at a time and each line as it comes (`StreamingObjectReader`): a
    /// line is never held whole, nor its changes as JSON, so reading costs one record's
    /// changes as `HistoryRecord.Change`s, and with `keepingChanges` false (a check of every
    /// record) not even those: their records reach `body` without changes.
    static func forEachRecord(
        segment first: Int64, after token: Int64 = 0, in root: OpenFolder, keepingChanges: Bool = true,
        _ body: (HistoryRecord) -> Void
    ) throws(FolioError) {
        let path = segmentPath(first)
        // Removed by a trim since the listing: its records are gone.
        guard let (descriptor, size) = try openSegment(first, in: root) else { return }
        defer { close(descriptor) }
        // The lines there when it was opened; what follows the last newline is a line cut short.
        var line = LineRead(after: token, keepingChanges: keepingChanges, path: path)
        var offset: Int64 = 0
        while offset < size {
            let count = Int(min(1 << 20, size - offset))
            let chunk = try FileSystem.read(descriptor, at: offset, count: count, path: root.pathOf(path))
            offset += Int64(count)
            var start = 0
            while start < chunk.count {
                let end = chunk[start...].firstIndex(of: UInt8(ascii: "\n"))
                line.take(chunk[start..<(end ?? chunk.count)])
                guard let end else { break }
                start = end + 1
                guard let record = line.end() else { continue }
                guard let record = record else {
                    throw damaged(
                        root, path, "line \(line.number) is not a history record this version of Folio can read")
                }
                body(record)
            }
        }
    }

    /// One line of a segment being read: its first bytes, until they tell whether it is wanted
    /// (its token), then either passed over or parsed as they come.
    private struct LineRead {
        let after: Int64
        let keepingChanges: Bool
        let path: String
        /// The line's number in the segment, from 1, once it has ended.
        private(set) var number = 0
        /// The line's first bytes, while its token is not yet known.
        private var start: [UInt8] = []
        private var skipping = false
        private var parse: Parse?

        /// A line's parse: the reader and what its elements gave.
        final class Parse {
            var reader: StreamingObjectReader?
            var changes: [HistoryRecord.Change] = []
            var unreadable = false
        }

        /// Enough of a line's start to hold `{"token":N,` for any token.
        private static let startLength = 32

        init(after: Int64, keepingChanges: Bool, path: String) {
            (self.after, self.keepingChanges, self.path) = (after, keepingChanges, path)
        }

        /// Takes the next bytes of the line.
        mutating func take(_ bytes: ArraySlice<UInt8>) {
            if skipping || bytes.isEmpty { return }
            if let parse {
                feed(bytes, to: parse)
                return
            }
            let taken = min(bytes.count, Self.startLength - start.count)
            start += bytes.prefix(taken)
            if start.count >= Self.startLength { decide(then: bytes.dropFirst(taken)) }
        }

        /// Ends the line: `nil` when it is passed over (empty, or at or before `after`), else
        /// the record or, when it is not one this version can read, `.some(nil)`.
        mutating func end() -> HistoryRecord?? {
            number += 1
            defer { (start, skipping, parse) = ([], false, nil) }
            if parse == nil, !skipping, !start.isEmpty { decide(then: []) }
            guard let parse, !skipping else { return nil }
            guard !parse.unreadable, let reader = parse.reader, let head = try? reader.finish(),
                let record = HistoryRecord(head: .object(head), changes: parse.changes)
            else { return .some(nil) }
            return .some(record)
        }

        /// Decides from the line's start whether it is wanted, and parses it if so.
        private mutating func decide(then rest: ArraySlice<UInt8>) {
            if let leading = HistoryLog.leadingToken(of: start[...]), leading <= after {
                skipping = true
                return
            }
            let parse = Parse()
            let keeping = keepingChanges
            parse.reader = try? StreamingObjectReader(
                maximumDepth: HistoryLog.recordReader.maximumDepth, streaming: "changes", file: path
            ) { [unowned parse] element in
                guard !parse.unreadable else { return }
                guard let change = HistoryRecord.Change(json: element) else {
                    parse.unreadable = true
                    return
                }
                if keeping { parse.changes.append(change) }
            }
            if parse.reader == nil { parse.unreadable = true }
            self.parse = parse
            feed(start[...], to: parse)
            feed(rest, to: parse)
        }

        private func feed(_ bytes: ArraySlice<UInt8>, to parse: Parse) {
            guard !parse.unreadable, !bytes.isEmpty, let reader = parse.reader else { return }
            do { try bytes.withUnsafeBufferPointer { try reader.feed($0) } } catch { parse.unreadable = true }
        }
    }

    /// The token a line starts with, or `nil` when it does not start as Folio writes records.
    static func leadingToken(of line: ArraySlice<UInt8>) -> Int64? {
        let prefix = Array(#"{"token":"#.utf8)
        guard line.starts(with: prefix) else { return nil }
        var value: Int64 = 0
        var digits = 0
        for byte in line.dropFirst(prefix.count) {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), digits < 18 else {
                return digits > 0 && byte == UInt8(ascii: ",") ? value : nil
            }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            digits += 1
        }
        return nil
    }

    /// Rewrites the history without the records `remove` picks. A segment is named by its
    /// first record, so a fetch after a deleted token can tell it no longer reaches back;
    /// the newest segment stays, empty if need be and named by the next token, so tokens
    /// go on from where they were.
    static func delete(where remove: (HistoryRecord) -> Bool, tail: Tail, in root: OpenFolder) throws(FolioError)
        -> Tail
    {
        var tail = tail
        for first in try segments(in: root) {
            let records = try read(segment: first, in: root)
            let kept = records.filter { !remove($0) }
            guard kept.count != records.count else { continue }
            let path = segmentPath(first)
            let isNewest = first == tail.segment
            if kept.isEmpty, !isNewest {
                try root.removeFile(path)
                continue
            }
            var bytes: [UInt8] = []
            for record in kept { bytes += try lineBytes(of: record, path: path) }
            let name = kept.first?.token ?? tail.lastToken + 1
            let temporary = path + ".\(getpid()).tmp"
            try root.removeFile(temporary)
            _ = try root.createFile(temporary, bytes: bytes, sync: false)
            try root.rename(temporary, to: segmentPath(name))
            if name != first { try root.removeFile(path) }
            if isNewest {
                tail.segment = name
                tail.size = Int64(bytes.count)
                tail.unsettled = nil
            }
        }
        return tail
    }

    /// A record's line, with its newline.
    private static func lineBytes(of record: HistoryRecord, path: String) throws(FolioError) -> [UInt8] {
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
        try root.makeFolders(folder)
        try root.removeFile(identifierFile)  // unreadable: replaced
        _ = try root.createFile(identifierFile, bytes: Array((id + "\n").utf8), sync: false)
        return id
    }
}
