// CacheIndex: the cache file's entries read front to back, and the records' contents told
// apart from them, for a scan that tests the entries while the folder is walked.

import FolioJSON
import Foundation

extension CacheIndex {
    /// What a pass over contents saw, their order aside: how many, and a sum of each one's
    /// start, length and hash, mixed. The entries streamed and the records read give the
    /// same digest when every record's content was streamed with the bytes its hash vouches
    /// for; a damaged byte, a record pointing elsewhere or an entry missing would have to
    /// cancel out in a sum of 64-bit mixes to pass unseen.
    struct ContentsDigest: Equatable {
        private(set) var count = 0
        private var sum: UInt64 = 0

        mutating func add(start: Int, length: Int, checksum: UInt64) {
            count += 1
            sum &+= Self.mix(Self.mix(UInt64(start) &+ UInt64(length) &<< 40) ^ checksum)
        }

        /// SplitMix64's finalizer: every bit of the word moves about half of the result's.
        private static func mix(_ word: UInt64) -> UInt64 {
            var word = (word ^ (word &>> 30)) &* 0xBF58_476D_1CE4_E5B9
            word = (word ^ (word &>> 27)) &* 0x94D0_49BB_1331_11EB
            return word ^ (word &>> 31)
        }
    }

    /// Hands `body` every entry of the cache file in the file's own order, a megabyte read at
    /// a time: where its compact content starts, its document's id and the content. The digest of what
    /// was handed (each content hashed as read), or `nil` when the entries cannot be read, are
    /// not this folder's, or are not as many as the records: the answer is then left to a
    /// load, which reads the files.
    func streamEntries(_ body: (Int, UUID, UnsafeRawBufferPointer) -> Void) -> ContentsDigest? {
        let (end, name) = (footer.entriesEnd, Array(folder.utf8))
        // The name's length, the name, the year, month and day, the UUID, the file's hash and
        // the content's length: all an entry has before its content.
        let headerSize = 10 + name.count + 10 + 2 + 16 + 8 + 10
        var window = FileWindow(descriptor: descriptor, end: end)
        var digest = ContentsDigest()
        var offset = DocumentCache.magic.count
        var entry: (id: UUID, start: Int, length: Int)?
        guard
            window.reading(
                at: offset, count: min(10, end - offset),
                { bytes in
                    var cursor = CompactJSON.Cursor(bytes: bytes)
                    guard cursor.varint() != nil else { return false }
                    offset += cursor.offset
                    return true
                })
        else { return nil }
        while offset < end, digest.count < count {
            entry = nil
            let header = window.reading(at: offset, count: min(headerSize, end - offset)) { bytes in
                var cursor = CompactJSON.Cursor(bytes: bytes)
                guard let length = cursor.length(), let entity = cursor.rawBytes(length), entity.elementsEqual(name),
                    let year = cursor.varint(), let month = cursor.byte(), let dayOfMonth = cursor.byte(),
                    Day(year: Int(clamping: year), month: Int(month), day: Int(dayOfMonth)) != nil,
                    let uuid = cursor.rawBytes(16), cursor.uint64() != nil, let contentLength = cursor.varint(),
                    contentLength <= UInt64(end)
                else { return false }
                entry = (UUID(uuid: uuid.loadUnaligned(as: uuid_t.self)), offset + cursor.offset, Int(contentLength))
                return true
            }
            guard header, let (id, start, length) = entry, length <= end - start else { return nil }
            let read = window.reading(at: start, count: length) { content in
                digest.add(start: start, length: length, checksum: ContentHash.of(content))
                body(start, id, content)
                return true
            }
            guard read else { return nil }
            offset = start + length
        }
        return offset == end && digest.count == count ? digest : nil
    }

    /// Hands `body` each record with its position, reading the records a megabyte at a time
    /// (`match` checked them as a whole, on this same open file); the digest of their
    /// contents (see `ContentsDigest`), or `nil` when one cannot be read.
    @discardableResult
    func forEachRecord(_ body: (Int, Record) -> Void) -> ContentsDigest? {
        var window = FileWindow(descriptor: descriptor, end: end)
        var digest = ContentsDigest()
        let first = footer.indexStart + 16
        for position in 0..<count {
            let read = window.reading(at: first + position * Self.recordSize, count: Self.recordSize) { bytes in
                let record = Record(bytes)
                digest.add(start: record.contentStart, length: record.contentLength, checksum: record.contentChecksum)
                body(position, record)
                return true
            }
            guard read else { return nil }
        }
        return digest
    }
}

/// A part of a file read into memory a megabyte or more at a time, for readers that go
/// front to back: a range already in memory costs no read.
struct FileWindow {
    let descriptor: Int32
    /// Where reading must stop.
    let end: Int
    private var bytes: [UInt8] = []
    private var start = 0

    init(descriptor: Int32, end: Int) { (self.descriptor, self.end) = (descriptor, end) }

    /// Hands `body` the `count` bytes at `offset`, read unless they are in memory already;
    /// `false` when they lie past `end`, cannot be read, or `body` says so.
    mutating func reading(at offset: Int, count: Int, _ body: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        guard offset >= 0, count >= 0, offset <= end - count else { return false }
        if offset < start || offset + count > start + bytes.count {
            guard let read = CacheIndex.read(descriptor, at: offset, count: min(max(count, 1 << 20), end - offset))
            else { return false }
            (bytes, start) = (read, offset)
        }
        return bytes.withUnsafeBytes {
            body(UnsafeRawBufferPointer(rebasing: $0[(offset - start)..<(offset - start + count)]))
        }
    }
}
