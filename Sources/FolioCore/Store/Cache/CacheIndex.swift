import FolioJSON
import Foundation
import Glibc

/// The index part of a folder's cache file, read without the rest of the file: every
/// document in store order with the stamp its file had and where its content lies, and
/// each declared index's keys. With it a query on one key is answered from the file and a
/// walk of the folder, without loading the folder (see `DocumentStore.answerFromCache`).
///
/// Fixed-width little-endian numbers, so a document is found by position:
/// - two counts: documents and indexes;
/// - a record of `recordSize` bytes per document, sorted by day then UUID: UUID, day
///   (`YYYYMMDD`), the compact content's length, the file's stamp (size, modification and
///   change times, inode, device), the file's content hash, where its compact content starts
///   in the cache file, flags (bit 0: soft-deleted) and the content's own hash;
/// - per index: its properties joined by `,` (length first), then pairs of a key's
///   `QueryValue.stableHash` and a record's position, sorted.
///
/// The part is read once, a chunk at a time, as a walk is matched against it (`match`), and
/// checked against its own checksum in the cache file's footer; a document's content is
/// checked against its own hash when read. So nothing is trusted unchecked, the rest of the
/// file (a hundred megabytes at 200,000 documents) is never read, and the records (16 MB
/// there) are never all in memory.
///
/// `Sendable`: only constants, and reads with `pread`, which share no file offset.
final class CacheIndex: Sendable {
    static let recordSize = 96
    static let pairSize = 12
    /// How the part names an index: its properties joined by `,`.
    static func indexName(of properties: [String]) -> String { properties.joined(separator: ",") }

    /// The entity folder the cache file describes.
    let folder: String
    /// The cache file, held open to read records and contents from.
    let descriptor: Int32
    let footer: DocumentCache.Footer
    /// Where the index part ends in the file.
    let end: Int
    /// How many documents the part has records of.
    let count: Int
    private let indexCount: Int
    /// The cache file's modification time: a record whose file changed no earlier is not
    /// trusted (see `DocumentCache.Writer.finish`).
    private let written: Int64

    private init(
        folder: String, descriptor: Int32, footer: DocumentCache.Footer, end: Int, count: Int, indexCount: Int,
        written: Int64
    ) {
        (self.folder, self.descriptor, self.footer, self.end, self.count, self.indexCount) =
            (folder, descriptor, footer, end, count, indexCount)
        self.written = written
    }

    deinit { close(descriptor) }

    /// The index part of an entity folder's cache file, its counts read, or `nil` when there
    /// is none (no file, an older format, no index part, counts the part cannot hold).
    static func open(folder entityFolder: String, from root: OpenFolder) -> CacheIndex? {
        guard
            let descriptor = try? root.openFile(DocumentCache.fileName(of: entityFolder), flags: O_RDONLY)
        else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0, let size = Int(exactly: info.st_size),
            size >= DocumentCache.magic.count + DocumentCache.Footer.size + 8,
            read(descriptor, at: 0, count: DocumentCache.magic.count) == DocumentCache.magic,
            let footerBytes = read(
                descriptor, at: size - 8 - DocumentCache.Footer.size, count: DocumentCache.Footer.size),
            let footer = DocumentCache.Footer(footerBytes), footer.indexStart > 0,
            footer.indexStart + 16 <= size - 8 - DocumentCache.Footer.size,
            let counts = read(descriptor, at: footer.indexStart, count: 16)
        else {
            close(descriptor)
            return nil
        }
        let end = size - 8 - DocumentCache.Footer.size
        let count = Int(clamping: number(counts[...], at: 0))
        guard count <= (end - footer.indexStart - 16) / recordSize else {
            close(descriptor)
            return nil
        }
        return CacheIndex(
            folder: entityFolder, descriptor: descriptor, footer: footer, end: end, count: count,
            indexCount: Int(clamping: number(counts[...], at: 8)), written: FileStamp(info).modified)
    }

    private static func number(_ bytes: ArraySlice<UInt8>, at offset: Int) -> UInt64 {
        bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
    }

    /// `count` bytes of the file from `offset`, or `nil` when they cannot be read (the part
    /// is then not used, and nothing is reported: the folder is loaded instead).
    static func read(_ descriptor: Int32, at offset: Int, count: Int) -> [UInt8]? {
        try? FileSystem.read(descriptor, at: Int64(offset), count: count, path: "")
    }

    /// The part read front to back a chunk at a time, every byte added to its checksum as it
    /// is read (chunks are whole 8-byte words, as `ContentHash.Running` needs, but the last).
    private struct Reader {
        let descriptor: Int32
        var offset: Int
        let end: Int
        var buffer: [UInt8] = []
        var position = 0
        var checksum = ContentHash.Running()
        static let chunk = 1 << 20

        /// The next `count` bytes, or `nil` past the part's end or when they cannot be read.
        mutating func next(_ count: Int) -> ArraySlice<UInt8>? {
            if buffer.count - position < count {
                let wanted = min(end - offset, (max(count - (buffer.count - position), Self.chunk) + 7) / 8 * 8)
                guard wanted >= count - (buffer.count - position),
                    let read = CacheIndex.read(descriptor, at: offset, count: wanted)
                else { return nil }
                read.withUnsafeBytes { checksum.add($0) }
                offset += wanted
                buffer = Array(buffer[position...]) + read
                position = 0
            }
            defer { position += count }
            return buffer[position..<(position + count)]
        }

        var isAtEnd: Bool { offset == end && position == buffer.count }
    }

    /// How a walk of the folder compares with the records.
    struct Match {
        /// Per record, whether the walk found its file with the stamp the record has.
        var unchanged: [Bool]
        /// Per record, its day as `YYYYMMDD` and whether it is soft-deleted.
        var days: [UInt32]
        var deleted: [Bool]
        /// Walked files that are new or changed since the cache file was written.
        var changed: [TreeListing.Entry] = []
        /// The pairs of each index kept (by its properties joined by `,`), as the part has them.
        var pairs: [String: [UInt8]] = [:]

        /// How many documents the folder has.
        var documents: Int { unchanged.count(where: { $0 }) + changed.count }

        /// The day of the record at `position`; `nil` for a day no calendar has.
        func day(at position: Int) -> Day? { DocumentPath.OrderKey.day(days[position]) }

        /// The positions of the records whose key hashes as `key` does in the index on
        /// `properties`, in store order: every document holding the key, and perhaps a few
        /// that do not; `nil` when that index was not kept.
        func positions(of key: [QueryValue], on properties: [String]) -> [Int]? {
            guard let pairs = pairs[CacheIndex.indexName(of: properties)] else { return nil }
            let hash = QueryValue.stableHash(of: key)
            let count = pairs.count / CacheIndex.pairSize
            return pairs.withUnsafeBytes { raw in
                func hashAt(_ pair: Int) -> UInt64 {
                    UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: pair * CacheIndex.pairSize, as: UInt64.self))
                }
                var positions: [Int] = []
                var pair = (0..<count).partitioningIndex { hashAt($0) >= hash }
                while pair < count, hashAt(pair) == hash {
                    let position = UInt32(
                        littleEndian: raw.loadUnaligned(
                            fromByteOffset: pair * CacheIndex.pairSize + 8, as: UInt32.self))
                    if Int(position) < days.count { positions.append(Int(position)) }
                    pair += 1
                }
                return positions.sorted()
            }
        }
    }

    /// Matches one folder's walk against the records, both in store order, reading the part
    /// once and keeping the pairs of the indexes named in `keepingIndexes` (see `indexName`;
    /// `nil`: every index), 12 bytes a document each; `nil` when the part does not hold (its
    /// checksum, its shape), when more files
    /// changed than the store waits for before it rewrites the cache file (see
    /// `DocumentStore.foldersToCache`: a load then reads them once for all, where each reader
    /// of this part would read them again), or when one identity is in two files, an issue
    /// a load reports.
    func match(
        _ documents: [TreeListing.KeyedEntry], keepingIndexes: Set<String>?
    ) -> Match? {
        guard var reader = recordsReader() else { return nil }
        var match = Match(
            unchanged: [Bool](repeating: false, count: count), days: [UInt32](repeating: 0, count: count),
            deleted: [Bool](repeating: false, count: count))
        // The walk's order by position, not its entries sorted: a million of them sorted
        // took a buffer of half a million.
        guard documents.count < Int(UInt32.max) else { return nil }
        var walked = Array(0..<UInt32(documents.count))
        walked.sort { documents[Int($0)].key < documents[Int($1)].key }
        let limit = max(256, count / 100)
        /// Notes a walked file as changed; `false` past the limit (checked as they come, so a
        /// folder whose files all changed is not listed whole first).
        func changed(_ position: UInt32) -> Bool {
            let found = documents[Int(position)]
            guard match.changed.count < limit, let (day, id) = found.key.parts else { return false }
            match.changed.append(
                TreeListing.Entry(
                    path: DocumentPath(validEntity: folder, day: day, id: id, blobProperty: nil), stamp: found.stamp))
            return true
        }
        var next = 0
        for position in 0..<count {
            guard let bytes = reader.next(Self.recordSize) else { return nil }
            let record = bytes.withUnsafeBytes(Record.init)
            match.days[position] = record.key.day
            match.deleted[position] = record.isDeleted
            let (key, stamp) = (record.key, record.stamp)
            while next < walked.count, documents[Int(walked[next])].key < key {
                guard changed(walked[next]) else { return nil }
                next += 1
            }
            if next < walked.count, documents[Int(walked[next])].key == key {
                if documents[Int(walked[next])].stamp == stamp, stamp.changed < written {
                    match.unchanged[position] = true
                } else {
                    guard changed(walked[next]) else { return nil }
                }
                next += 1
            }
        }
        for rest in walked[next...] {
            guard changed(rest) else { return nil }
        }
        for _ in 0..<indexCount {
            guard let nameLength = reader.next(8).map({ Self.number($0, at: 0) }), nameLength <= end,
                let name = reader.next(Int(nameLength)), let pairs = reader.next(8).map({ Self.number($0, at: 0) }),
                pairs <= UInt64(end / Self.pairSize)
            else { return nil }
            let index = String(decoding: name, as: UTF8.self)
            let keeps = keepingIndexes?.contains(index) ?? true
            var kept: [UInt8] = []
            if keeps { kept.reserveCapacity(Int(pairs) * Self.pairSize) }
            // A chunk at a time: a million documents' pairs are 12 MB an index, which read
            // whole were held twice over beside the walk, even for an index not kept.
            var remaining = Int(pairs) * Self.pairSize
            while remaining > 0 {
                let size = min(remaining, Reader.chunk)
                guard let bytes = reader.next(size) else { return nil }
                if keeps { kept += bytes }
                remaining -= size
            }
            if keeps { match.pairs[index] = kept }
        }
        guard reader.isAtEnd, reader.checksum.value == footer.indexChecksum else { return nil }
        if !match.changed.isEmpty {
            // The records never hold one identity twice, so a second file of one is new.
            let ids = Set(match.changed.map(\.path.orderKey.identity))
            guard ids.count == match.changed.count,
                documents.count(where: { ids.contains($0.key.identity) }) == ids.count
            else { return nil }
        }
        return match
    }

    /// The names of the indexes the part holds (see `indexName`), read from their headers
    /// alone, past the records and each index's pairs: what tells, before a walk, whether
    /// an index can serve a query. Not checked against the part's checksum (`match` checks
    /// it): a wrong answer only sends the query the longer way. `nil` when the headers
    /// cannot be read.
    func indexNames() -> Set<String>? {
        var offset = footer.indexStart + 16 + count * Self.recordSize
        var names: Set<String> = []
        for _ in 0..<indexCount {
            guard offset <= end - 16, let length = Self.read(descriptor, at: offset, count: 8),
                case let nameLength = Self.number(length[...], at: 0), nameLength <= UInt64(end - offset - 16),
                let header = Self.read(descriptor, at: offset + 8, count: Int(nameLength) + 8)
            else { return nil }
            let pairs = Self.number(header[Int(nameLength)...], at: 0)
            guard pairs <= UInt64(end / Self.pairSize) else { return nil }
            names.insert(String(decoding: header[..<Int(nameLength)], as: UTF8.self))
            offset += 16 + Int(nameLength) + Int(pairs) * Self.pairSize
        }
        return names
    }

    /// A reader of the index part past its two counts, at the first record; `nil` when
    /// those cannot be read.
    private func recordsReader() -> Reader? {
        var reader = Reader(descriptor: descriptor, offset: footer.indexStart, end: end)
        return reader.next(16) == nil ? nil : reader
    }

    /// Hands `body` the position, key and compact content of each record `wanted` takes (by
    /// position), in the file's own order, a megabyte at a time, each checked against its
    /// hash; `false` as soon as one cannot be read or does not hold. Where each content lies
    /// is gathered by going through the records again (`match` checked them as a whole, on
    /// this same open file), once the walk `match` was given is gone: kept from the match,
    /// its 40 bytes a document came on top of the walk's 56.
    func readContents(
        where wanted: (Int) -> Bool, _ body: (Int, DocumentPath.OrderKey, UnsafeRawBufferPointer) -> Void
    ) -> Bool {
        guard var reader = recordsReader() else { return false }
        var contents: [(position: Int, key: DocumentPath.OrderKey, start: Int, length: Int, checksum: UInt64)] = []
        for position in 0..<count {
            guard let bytes = reader.next(Self.recordSize) else { return false }
            guard wanted(position) else { continue }
            let record = bytes.withUnsafeBytes(Record.init)
            guard DocumentPath.OrderKey.day(record.key.day) != nil else { return false }
            contents.append((position, record.key, record.contentStart, record.contentLength, record.contentChecksum))
        }
        // The entries are not in store order: read in store order, nearly every content
        // took a read of its own (ten times the time at 200,000).
        contents.sort { $0.start < $1.start }
        var window = FileWindow(descriptor: descriptor, end: footer.entriesEnd)
        for (position, key, start, length, checksum) in contents {
            let holds = window.reading(at: start, count: length) { content in
                guard ContentHash.of(content) == checksum else { return false }
                body(position, key, content)
                return true
            }
            guard holds else { return false }
        }
        return true
    }
}
