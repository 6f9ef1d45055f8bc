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
    private let descriptor: Int32
    private let footer: DocumentCache.Footer
    /// Where the index part ends in the file.
    private let end: Int
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
    private static func read(_ descriptor: Int32, at offset: Int, count: Int) -> [UInt8]? {
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
                pairs <= UInt64(end / Self.pairSize), let bytes = reader.next(Int(pairs) * Self.pairSize)
            else { return nil }
            let index = String(decoding: name, as: UTF8.self)
            if keepingIndexes?.contains(index) ?? true { match.pairs[index] = Array(bytes) }
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

    /// A reader of the index part past its two counts, at the first record; `nil` when
    /// those cannot be read.
    private func recordsReader() -> Reader? {
        var reader = Reader(descriptor: descriptor, offset: footer.indexStart, end: end)
        return reader.next(16) == nil ? nil : reader
    }

    /// Hands `body` the key and compact content of each record `wanted` takes (by
    /// position), in the file's own order, a megabyte at a time, each checked against its
    /// hash; `false` as soon as one cannot be read or does not hold. Where each content lies
    /// is gathered by going through the records again (`match` checked them as a whole, on
    /// this same open file), once the walk `match` was given is gone: kept from the match,
    /// its 40 bytes a document came on top of the walk's 56.
    func readContents(
        where wanted: (Int) -> Bool, _ body: (DocumentPath.OrderKey, UnsafeRawBufferPointer) -> Void
    ) -> Bool {
        guard var reader = recordsReader() else { return false }
        var contents: [(key: DocumentPath.OrderKey, start: Int, length: Int, checksum: UInt64)] = []
        for position in 0..<count {
            guard let bytes = reader.next(Self.recordSize) else { return false }
            guard wanted(position) else { continue }
            let record = bytes.withUnsafeBytes(Record.init)
            guard DocumentPath.OrderKey.day(record.key.day) != nil else { return false }
            contents.append((record.key, record.contentStart, record.contentLength, record.contentChecksum))
        }
        // The entries are not in store order: read in store order, nearly every content
        // took a read of its own (ten times the time at 200,000).
        contents.sort { $0.start < $1.start }
        var window: [UInt8] = []
        var windowStart = 0
        for (key, start, length, checksum) in contents {
            guard start >= 0, length <= footer.entriesEnd, start <= footer.entriesEnd - length else { return false }
            if start < windowStart || start + length > windowStart + window.count {
                guard
                    let read = Self.read(
                        descriptor, at: start, count: min(max(length, 1 << 20), footer.entriesEnd - start))
                else { return false }
                (window, windowStart) = (read, start)
            }
            let holds = window.withUnsafeBytes { raw in
                let content = UnsafeRawBufferPointer(
                    rebasing: raw[(start - windowStart)..<(start - windowStart + length)])
                guard ContentHash.of(content) == checksum else { return false }
                body(key, content)
                return true
            }
            guard holds else { return false }
        }
        return true
    }

    /// One document as the index part describes it.
    struct Record {
        var key: DocumentPath.OrderKey
        var stamp: FileStamp
        var contentHash: UInt64
        var contentStart: Int
        var contentLength: Int
        var isDeleted: Bool
        var contentChecksum: UInt64

        /// A record from its `recordSize` bytes.
        init(_ raw: UnsafeRawBufferPointer) {
            func word(_ offset: Int) -> UInt64 {
                UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            }
            func half(_ offset: Int) -> UInt32 {
                UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            }
            key = DocumentPath.OrderKey(
                day: half(16), high: UInt64(bigEndian: raw.loadUnaligned(as: UInt64.self)),
                low: UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
            contentLength = Int(half(20))
            stamp = FileStamp(encoded: UnsafeRawBufferPointer(rebasing: raw[Self.stampOffset...]))
            (contentHash, contentStart) = (word(64), Int(clamping: word(72)))
            (isDeleted, contentChecksum) = (half(80) & 1 != 0, word(88))
        }

        /// Where a record's stamp lies (`FileStamp.encodedSize` bytes).
        static let stampOffset = 24

        /// The document's path in `folder`; `nil` for a day no calendar has.
        func path(in folder: String) -> DocumentPath? {
            key.parts.map { DocumentPath(validEntity: folder, day: $0.day, id: $0.id, blobProperty: nil) }
        }
    }

    /// The record at `position`, read again from the file `match` checked; `nil` when it
    /// cannot be read.
    func record(at position: Int) -> Record? {
        guard position < count,
            let bytes = Self.read(
                descriptor, at: footer.indexStart + 16 + position * Self.recordSize, count: Self.recordSize)
        else { return nil }
        return bytes.withUnsafeBytes(Record.init)
    }

    /// The position of the record whose key is `key`, found by halving (a read of a record
    /// each time); `nil` when no record has it or one cannot be read.
    func position(of key: DocumentPath.OrderKey) -> Int? {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            guard let record = record(at: middle) else { return nil }
            if record.key == key { return middle }
            if record.key < key { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// A record's content, read from the cache file and checked against its hash; `nil`
    /// when it cannot be read or does not hold.
    func content(of record: Record) -> JSONObject? {
        guard record.contentLength <= JSONReader.absoluteMaximumSize,
            let bytes = Self.read(descriptor, at: record.contentStart, count: record.contentLength),
            ContentHash.of(bytes) == record.contentChecksum
        else { return nil }
        return bytes.withUnsafeBytes { CompactJSON.decode($0) }?.objectValue
    }

    /// The index part written after a folder's entries: records and keys gathered as the
    /// entries are appended, sorted when the part is made.
    struct Builder {
        /// The records in the order added, one after the other.
        private var records: [UInt8] = []
        private var orderKeys: [DocumentPath.OrderKey] = []
        /// How each document's keys in the indexes written are read.
        private let reading: QueryIndexes.KeyReading
        private var keys: [[(hash: UInt64, entry: UInt32)]]
        /// Whether a document's members could not be read, so its keys are unknown, or more
        /// documents came than `limit`: the part is then not written at all, rather than leave
        /// a document out of an index.
        private(set) var failed = false
        /// The most documents gathered before giving up, so the memory they take stays bounded.
        private let limit: Int

        /// A builder of the indexes `entity` declares (none for an entity the schema does not
        /// know), giving up past `limit` documents.
        init(entity: QuerySchema.Entity?, limit: Int = Int(UInt32.max)) {
            self.limit = min(limit, Int(UInt32.max))
            reading = QueryIndexes.KeyReading(entity)
            keys = Array(repeating: [], count: reading.declared.count)
        }

        /// A builder that gave up, holding nothing.
        private init(failed builder: Builder) {
            (reading, limit) = (builder.reading, builder.limit)
            keys = []
            failed = true
        }

        /// Adds a document whose compact content starts at `contentStart` in the cache file.
        mutating func add(
            _ path: DocumentPath, stamp: FileStamp, contentHash: UInt64, contentStart: Int, compact: [UInt8]
        ) {
            guard !failed, orderKeys.count < limit,
                let members = compact.withUnsafeBytes({ CompactJSON.members(reading.needed, of: $0) })
            else {
                if !failed { self = Builder(failed: self) }
                return
            }
            let entry = UInt32(orderKeys.count)
            let orderKey = path.orderKey
            func append<T: FixedWidthInteger>(_ value: T) {
                withUnsafeBytes(of: value.littleEndian) { records.append(contentsOf: $0) }
            }
            withUnsafeBytes(of: path.id.uuid) { records.append(contentsOf: $0) }
            append(orderKey.day)
            append(UInt32(compact.count))
            let start = records.count
            records.append(contentsOf: repeatElement(0, count: FileStamp.encodedSize))
            records.withUnsafeMutableBytes { stamp.encode(into: UnsafeMutableRawBufferPointer(rebasing: $0[start...])) }
            append(contentHash)
            append(UInt64(contentStart))
            append(UInt32(QueryIndexes.KeyReading.isDeleted(members) ? 1 : 0))
            append(UInt32(0))
            append(ContentHash.of(compact))
            orderKeys.append(orderKey)
            for index in reading.declared.indices {
                keys[index].append((QueryValue.stableHash(of: reading.key(index, of: members)), entry))
            }
        }

        /// Gives the `entry`th document added the stamp its file has now (see
        /// `DocumentCache.Writer.restamp`).
        mutating func restamp(_ entry: Int, _ stamp: FileStamp) {
            guard !failed, entry < orderKeys.count else { return }
            let start = entry * CacheIndex.recordSize + Record.stampOffset
            records.withUnsafeMutableBytes { stamp.encode(into: UnsafeMutableRawBufferPointer(rebasing: $0[start...])) }
        }

        /// The index part's bytes.
        func bytes() -> [UInt8] {
            let order = orderKeys.indices.sorted { orderKeys[$0] < orderKeys[$1] }
            var position = [UInt32](repeating: 0, count: order.count)
            for (sorted, entry) in order.enumerated() { position[entry] = UInt32(sorted) }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(16 + records.count + keys.count * order.count * CacheIndex.pairSize)
            func append<T: FixedWidthInteger>(_ value: T) {
                withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
            }
            append(UInt64(order.count))
            append(UInt64(reading.declared.count))
            for entry in order {
                let start = entry * CacheIndex.recordSize
                bytes.append(contentsOf: records[start..<(start + CacheIndex.recordSize)])
            }
            for (index, properties) in reading.declared.enumerated() {
                let name = CacheIndex.indexName(of: properties)
                append(UInt64(name.utf8.count))
                bytes.append(contentsOf: name.utf8)
                let pairs = keys[index].map { ($0.hash, position[Int($0.entry)]) }.sorted {
                    ($0.0, $0.1) < ($1.0, $1.1)
                }
                append(UInt64(pairs.count))
                for (hash, entry) in pairs {
                    append(hash)
                    append(entry)
                }
            }
            return bytes
        }
    }
}
