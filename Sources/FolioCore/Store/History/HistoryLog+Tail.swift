// HistoryLog: the tail (where the next record goes) found, appended to and taken back.

import CFolioSystem
import FolioJSON
import Foundation
import Glibc

extension HistoryLog {
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
        // Blocks grow as the line does: an import's last line runs to tens of megabytes
        // (hundreds at a million documents), and every command reads back to its start.
        var block: Int64 = 64 * 1024
        var end: Int64?  // just past the last whole line's newline
        var position = min(limit ?? Int64(info.st_size), Int64(info.st_size))
        while position > 0 {
            let start = max(0, position - block)
            let bytes = try read(descriptor, start..<position, path: path)
            var searched = bytes.count
            while let index = lastNewline(in: bytes, before: searched) {
                let offset = start + Int64(index)
                if let end { return (offset + 1)..<(end - 1) }
                end = offset + 1
                searched = index
            }
            position = start
            block = min(block * 2, 4 * 1024 * 1024)
        }
        return end.map { 0..<($0 - 1) }
    }

    /// Where the last newline among the first `count` bytes is (`memrchr`, not a loop of
    /// checked subscripts: every command reads back over an import's long line).
    private static func lastNewline(in bytes: [UInt8], before count: Int) -> Int? {
        guard count > 0 else { return nil }
        return bytes.withUnsafeBytes { buffer in
            folio_last_byte(buffer.baseAddress!, Int32(UInt8(ascii: "\n")), count).map {
                buffer.baseAddress!.distance(to: UnsafeRawPointer($0))
            }
        }
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
        if tail.size == 0 { try root.makeLocalStateFolders(folder) }  // a first record, or a new store's
        var (segment, size) = (tail.segment, tail.size)
        if token - tail.segment >= segmentLength { (segment, size) = (token, 0) }
        // A segment with lines is never made again: one removed since its tail was read (the
        // store being deleted) would come back as a hole of zeros before the new line.
        let descriptor = try root.openFile(segmentPath(segment), flags: size == 0 ? O_WRONLY | O_CREAT : O_WRONLY)
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
}
