// HistoryLog: segments trimmed to the limit, and records deleted.

import CFolioSystem
import FolioJSON
import Foundation
import Glibc

extension HistoryLog {
    /// Removes the oldest segments while the others still hold `limit` records.
    static func trim(keeping limit: Int, tail: Tail, in root: OpenFolder) throws(FolioError) {
        let firsts = try segments(in: root)
        for (first, next) in zip(firsts, firsts.dropFirst()) where tail.lastToken - (next - 1) >= Int64(limit) {
            try root.removeFile(segmentPath(first))
        }
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
}
