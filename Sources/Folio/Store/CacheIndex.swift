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
///   (`YYYYMMDD`), the stamp's nanoseconds, size, seconds and inode, the file's content
///   hash, where its compact content starts in the cache file and how long it is, flags
///   (bit 0: soft-deleted), and the content's own hash;
/// - per index: its properties joined by `,` (length first), then pairs of a key's
///   `QueryValue.stableHash` and a record's position, sorted.
///
/// The part has its own checksum in the cache file's footer, and each document's content
/// its own hash, so neither the part nor a document is trusted unchecked, and the rest of
/// the file (a hundred megabytes at 200,000 documents) is never read.
final class CacheIndex {
    static let recordSize = 80
    /// The index part's bytes.
    private let bytes: [UInt8]
    /// The cache file, held open to read contents from.
    private let descriptor: Int32
    let count: Int
    /// Each index's pairs: where they start in `bytes`, and how many.
    private let indexes: [[String]: (start: Int, count: Int)]
    static let pairSize = 12

    private init(bytes: [UInt8], descriptor: Int32, count: Int, indexes: [[String]: (start: Int, count: Int)]) {
        (self.bytes, self.descriptor, self.count, self.indexes) = (bytes, descriptor, count, indexes)
    }

    deinit { close(descriptor) }

    /// The index part of an entity folder's cache file, or `nil` when there is no usable one
    /// (no file, an older format, no index part, a checksum that does not hold).
    static func read(folder entityFolder: String, from root: OpenFolder) -> CacheIndex? {
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
            footer.indexStart <= size - 8 - DocumentCache.Footer.size,
            let bytes = read(
                descriptor, at: footer.indexStart, count: size - 8 - DocumentCache.Footer.size - footer.indexStart),
            ContentHash.of(bytes) == footer.indexChecksum,
            let parsed = parse(bytes, fileSize: size)
        else {
            close(descriptor)
            return nil
        }
        return CacheIndex(bytes: bytes, descriptor: descriptor, count: parsed.count, indexes: parsed.indexes)
    }

    private static func parse(_ bytes: [UInt8], fileSize: Int) -> (count: Int, indexes: [[String]: (Int, Int)])? {
        guard bytes.count >= 16 else { return nil }
        let count = Int(clamping: number(bytes, at: 0))
        let indexCount = Int(clamping: number(bytes, at: 8))
        guard count <= (bytes.count - 16) / recordSize else { return nil }
        var offset = 16 + count * recordSize
        var indexes: [[String]: (Int, Int)] = [:]
        for _ in 0..<indexCount {
            guard offset + 8 <= bytes.count else { return nil }
            let nameLength = Int(clamping: number(bytes, at: offset))
            guard nameLength <= bytes.count - offset - 16 else { return nil }
            let name = String(decoding: bytes[(offset + 8)..<(offset + 8 + nameLength)], as: UTF8.self)
            offset += 8 + nameLength
            let pairs = Int(clamping: number(bytes, at: offset))
            guard pairs <= (bytes.count - offset - 8) / pairSize else { return nil }
            indexes[name.split(separator: ",").map(String.init)] = (offset + 8, pairs)
            offset += 8 + pairs * pairSize
        }
        guard offset == bytes.count else { return nil }
        return (count, indexes)
    }

    private static func number(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
    }

    private static func read(_ descriptor: Int32, at offset: Int, count: Int) -> [UInt8]? {
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = 0
            while initialized < count {
                let read = pread(
                    descriptor, buffer.baseAddress! + initialized, count - initialized, offset + initialized)
                if read < 0, errno == EINTR { continue }
                guard read > 0 else {
                    failed = true
                    return
                }
                initialized += read
            }
        }
        return failed ? nil : bytes
    }

    /// One document as the index part describes it.
    struct Record {
        var day: Day
        var id: UUID
        var stamp: FileStamp
        var contentHash: UInt64
        var contentStart: Int
        var contentLength: Int
        var isDeleted: Bool
        var contentChecksum: UInt64

        /// The document's path in `folder`.
        func path(in folder: String) -> DocumentPath {
            DocumentPath(validEntity: folder, day: day, id: id, blobProperty: nil)
        }
    }

    /// The store-order key of the record at `position` (records are sorted by it).
    func orderKey(at position: Int) -> DocumentPath.OrderKey {
        bytes.withUnsafeBytes { raw in
            let base = 16 + position * Self.recordSize
            return DocumentPath.OrderKey(
                day: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: base + 16, as: UInt32.self)),
                high: UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: base, as: UInt64.self)),
                low: UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: base + 8, as: UInt64.self)))
        }
    }

    /// The stamp the file of the record at `position` had.
    func stamp(at position: Int) -> FileStamp {
        bytes.withUnsafeBytes { raw in
            let base = 16 + position * Self.recordSize
            return FileStamp(
                size: Int64(littleEndian: raw.loadUnaligned(fromByteOffset: base + 24, as: Int64.self)),
                modifiedSeconds: Int64(littleEndian: raw.loadUnaligned(fromByteOffset: base + 32, as: Int64.self)),
                modifiedNanoseconds: Int64(
                    UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: base + 20, as: UInt32.self))),
                inode: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: base + 40, as: UInt64.self)))
        }
    }

    /// The day and the soft-deleted flag of the record at `position`, for a tally; `nil`
    /// for a day no calendar has.
    func dayAndDeletion(at position: Int) -> (day: Day, isDeleted: Bool)? {
        let dayKey = Int(orderKey(at: position).day)
        guard let day = Day(year: dayKey / 10000, month: dayKey / 100 % 100, day: dayKey % 100) else { return nil }
        let flags = bytes.withUnsafeBytes {
            UInt32(
                littleEndian: $0.loadUnaligned(fromByteOffset: 16 + position * Self.recordSize + 68, as: UInt32.self))
        }
        return (day, flags & 1 != 0)
    }

    /// The record at `position`; `nil` for a day no calendar has (a damaged part the checksum missed).
    func record(at position: Int) -> Record? {
        guard let (day, isDeleted) = dayAndDeletion(at: position) else { return nil }
        return bytes.withUnsafeBytes { raw in
            let base = 16 + position * Self.recordSize
            func word(_ offset: Int) -> UInt64 {
                UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: base + offset, as: UInt64.self))
            }
            let length = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: base + 64, as: UInt32.self))
            return Record(
                day: day, id: UUID(uuid: raw.loadUnaligned(fromByteOffset: base, as: uuid_t.self)),
                stamp: stamp(at: position), contentHash: word(48), contentStart: Int(clamping: word(56)),
                contentLength: Int(length), isDeleted: isDeleted, contentChecksum: word(72))
        }
    }

    /// How a walk of the folder compares with the records.
    struct Match {
        /// Per record, whether the walk found its file with the stamp the record has.
        var unchanged: [Bool]
        /// Walked files that are new or changed since the cache file was written.
        var changed: [TreeListing.Entry]

        /// How many documents the folder has.
        var documents: Int { unchanged.count(where: { $0 }) + changed.count }
    }

    /// Matches one folder's walk against the records, both in store order, without a hash
    /// map; `nil` when more files changed than the store waits for before it rewrites the
    /// cache file (see `DocumentStore.foldersToCache`: a load then reads them once for all,
    /// where each reader of this part would read them again), or when one identity is in two
    /// files, an issue a load reports.
    func match(_ documents: [TreeListing.Entry]) -> Match? {
        var match = Match(unchanged: [Bool](repeating: false, count: count), changed: [])
        var position = 0
        for next in QueryIndexes.storeOrder(of: documents.lazy.map(\.path)) {
            let found = documents[next]
            let key = found.path.orderKey
            while position < count, orderKey(at: position) < key { position += 1 }
            if position < count, orderKey(at: position) == key, stamp(at: position) == found.stamp {
                match.unchanged[position] = true
                position += 1
            } else {
                match.changed.append(found)
            }
        }
        guard match.changed.count <= max(256, count / 100) else { return nil }
        if !match.changed.isEmpty {
            // The records never hold one identity twice, so a second file of one is new.
            let ids = Set(match.changed.map(\.path.id))
            guard ids.count == match.changed.count, documents.count(where: { ids.contains($0.path.id) }) == ids.count
            else { return nil }
        }
        return match
    }

    /// Whether the file has an index on exactly these properties.
    func hasIndex(on properties: [String]) -> Bool { indexes[properties] != nil }

    /// The positions of the records whose key on `properties` hashes as `key` does, in
    /// store order: every document holding the key, and perhaps a few that do not.
    func positions(on properties: [String], key: [QueryValue]) -> [Int] {
        guard let (start, count) = indexes[properties] else { return [] }
        let hash = QueryValue.stableHash(of: key)
        return bytes.withUnsafeBytes { raw in
            func hashAt(_ pair: Int) -> UInt64 {
                UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: start + pair * Self.pairSize, as: UInt64.self))
            }
            let first = (0..<count).partitioningIndex { hashAt($0) >= hash }
            var positions: [Int] = []
            var pair = first
            while pair < count, hashAt(pair) == hash {
                let position = UInt32(
                    littleEndian: raw.loadUnaligned(fromByteOffset: start + pair * Self.pairSize + 8, as: UInt32.self))
                positions.append(Int(position))
                pair += 1
            }
            return positions.filter { $0 < self.count }.sorted()
        }
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
        /// The indexes written: each one's properties and their schema.
        private let declared: [([String], [QuerySchema.Property?])]
        /// The members read of each document: the soft-delete mark, then every indexed property.
        private let needed: [String]
        private let slot: [String: Int]
        private var keys: [[(hash: UInt64, entry: UInt32)]]
        /// Whether a document's members could not be read, so its keys are unknown: the
        /// part is then not written at all, rather than leave the document out of an index.
        private(set) var failed = false

        /// A builder of the indexes `entity` declares (none for an entity the schema does not know).
        init(entity: QuerySchema.Entity?) {
            let declared = entity.map(QueryIndexes.declaredIndexes) ?? []
            self.declared = declared.map { ($0, $0.map { entity?.property(named: $0) }) }
            needed = [ModelDocument.deletedKey] + Array(Set(declared.joined())).sorted()
            slot = Dictionary(uniqueKeysWithValues: needed.enumerated().map { ($1, $0) })
            keys = Array(repeating: [], count: declared.count)
        }

        /// Adds a document whose compact content starts at `contentStart` in the cache file.
        mutating func add(
            _ path: DocumentPath, stamp: FileStamp, contentHash: UInt64, contentStart: Int, compact: [UInt8]
        ) {
            guard !failed, let members = compact.withUnsafeBytes({ CompactJSON.members(needed, of: $0) }),
                records.count / CacheIndex.recordSize < Int(UInt32.max)
            else {
                failed = true
                return
            }
            let entry = UInt32(orderKeys.count)
            let orderKey = path.orderKey
            func append<T: FixedWidthInteger>(_ value: T) {
                withUnsafeBytes(of: value.littleEndian) { records.append(contentsOf: $0) }
            }
            withUnsafeBytes(of: path.id.uuid) { records.append(contentsOf: $0) }
            append(orderKey.day)
            append(UInt32(truncatingIfNeeded: stamp.modifiedNanoseconds))
            append(stamp.size)
            append(stamp.modifiedSeconds)
            append(stamp.inode)
            append(contentHash)
            append(UInt64(contentStart))
            append(UInt32(compact.count))
            append(UInt32(members[0] != nil ? 1 : 0))
            append(ContentHash.of(compact))
            orderKeys.append(orderKey)
            for (index, (properties, kinds)) in declared.enumerated() {
                let key = QueryIndexes.key(properties, kinds: kinds) { members[slot[$0]!] }
                keys[index].append((QueryValue.stableHash(of: key), entry))
            }
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
            append(UInt64(declared.count))
            for entry in order {
                let start = entry * CacheIndex.recordSize
                bytes.append(contentsOf: records[start..<(start + CacheIndex.recordSize)])
            }
            for (index, (properties, _)) in declared.enumerated() {
                let name = properties.joined(separator: ",")
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
