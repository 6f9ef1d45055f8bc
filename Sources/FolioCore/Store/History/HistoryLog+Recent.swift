import FolioJSON
import Glibc

extension HistoryLog {
    /// The largest end of a segment `recentRecords` reads; past it, the segment is read from
    /// its start, a megabyte at a time.
    static let recentWindowLimit: Int64 = 16 << 20

    /// The size up to which `recentRecords` leaves a segment to be read whole: reading it
    /// from its start costs no more (256 records of one document each are about 100 KB).
    static let recentMinimumSize: Int64 = 256 * 1024

    /// The records of the segment named `first` after `token`, for a token the segment holds,
    /// read from the segment's end back to the first line after `token` only: the end, 64 KB
    /// at first, four times more each time that is not enough. A refresh asks for the few
    /// records after its catalog's token, while the segment's older lines can hold an
    /// import's record of megabytes, which reading the segment from its start went through
    /// at every refresh.
    ///
    /// `nil` when this cannot tell: a line that does not start as Folio writes records (the
    /// tokens of the lines before it are unknown) or that is no record, or no such line
    /// within `recentWindowLimit`; and for a segment of at most `minimumSize` bytes, which
    /// costs no more read whole. `read(segment:after:in:)` then reads the segment whole,
    /// and says what is wrong with it. As there, what follows the last newline is a line cut
    /// short, passed over. Tokens rise through a segment (`tail` refuses one that does not):
    /// a line whose token is at most `token` + 1 has none after `token` before it.
    static func recentRecords(
        segment first: Int64, after token: Int64, in root: OpenFolder, minimumSize: Int64 = recentMinimumSize
    ) throws(FolioError) -> [HistoryRecord]? {
        let path = segmentPath(first)
        // Removed by a trim since the listing: its records are gone.
        guard let (descriptor, size) = try openSegment(first, in: root) else { return [] }
        defer { close(descriptor) }
        guard size > minimumSize else { return nil }
        var window: Int64 = 64 * 1024
        while true {
            let low = max(0, size - window)
            let bytes = try FileSystem.read(descriptor, at: low, count: Int(size - low), path: root.pathOf(path))
            guard let lastNewline = bytes.lastIndex(of: UInt8(ascii: "\n")) else {
                if low == 0 { return [] }  // no whole line
                guard window < recentWindowLimit else { return nil }
                window *= 4
                continue
            }
            // Lines from the last back, each ending just before `end`, until the wanted ones' start.
            var end = lastNewline
            var wanted: Int?
            while wanted == nil {
                let previous = bytes[..<end].lastIndex(of: UInt8(ascii: "\n"))
                guard previous != nil || low == 0 else { break }  // the line starts before the window
                let start = previous.map { $0 + 1 } ?? 0
                if start < end {
                    guard let leading = leadingToken(of: bytes[start..<end]) else { return nil }
                    if leading <= token {
                        wanted = end + 1
                    } else if leading == token + 1 {
                        wanted = start
                    }
                }
                if wanted == nil {
                    guard let previous else {
                        wanted = 0  // every line is after `token`
                        break
                    }
                    end = previous
                }
            }
            guard let wanted else {
                guard window < recentWindowLimit, low > 0 else { return nil }
                window *= 4
                continue
            }
            var records: [HistoryRecord] = []
            for line in bytes[min(wanted, lastNewline)..<lastNewline].split(separator: UInt8(ascii: "\n")) {
                if let leading = leadingToken(of: line), leading <= token { continue }
                // One that is no record is told, with its line number, by the whole read.
                guard let value = try? recordReader.read(Array(line), file: path),
                    let record = HistoryRecord(json: value)
                else { return nil }
                records.append(record)
            }
            return records
        }
    }
}
