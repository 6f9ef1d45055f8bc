// HistoryLog: records read from the segments, a line at a time.

import CFolioSystem
import FolioJSON
import Foundation
import Glibc

extension HistoryLog {
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
}
