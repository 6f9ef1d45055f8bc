// CacheIndex: the index part gathered as a cache file's entries are written.

import FolioJSON
import Foundation
import Glibc

extension CacheIndex {
    /// The index part written after a folder's entries: records and keys gathered as the
    /// entries are appended, sorted when the part is written.
    ///
    /// The records wait in the cache writer's `RecordFile`; what stays in memory is each
    /// document's place in store order (24 bytes) and its key in each index (16).
    struct Builder {
        /// A document's place in store order (day, then UUID) and its entry number, in 24 bytes.
        private struct Placement: Comparable {
            var day: UInt32
            var entry: UInt32
            var high: UInt64
            var low: UInt64

            static func < (lhs: Placement, rhs: Placement) -> Bool {
                (lhs.day, lhs.high, lhs.low) < (rhs.day, rhs.high, rhs.low)
            }
        }

        private var placements: [Placement] = []
        /// How each document's keys in the indexes written are read.
        private let reading: QueryIndexes.KeyReading
        private var keys: [[(hash: UInt64, entry: UInt32)]]
        /// Whether a document's members could not be read, so its keys are unknown, or more
        /// documents came than `limit`: the part is then not written at all, rather than leave
        /// a document out of an index.
        private(set) var failed = false
        /// The most documents the part numbers.
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

        /// Adds the next document, with its compact content; returns whether it is
        /// soft-deleted, for its record.
        mutating func add(_ path: DocumentPath, compact: [UInt8]) -> Bool {
            guard !failed, placements.count < limit,
                let members = compact.withUnsafeBytes({ CompactJSON.members(reading.needed, of: $0) })
            else {
                if !failed { self = Builder(failed: self) }
                return false
            }
            let entry = UInt32(placements.count)
            let orderKey = path.orderKey
            placements.append(Placement(day: orderKey.day, entry: entry, high: orderKey.high, low: orderKey.low))
            for index in reading.declared.indices {
                keys[index].append((QueryValue.stableHash(of: reading.key(index, of: members)), entry))
            }
            return QueryIndexes.KeyReading.isDeleted(members)
        }

        /// Appends the index part to `file`, with the documents' `records` (in the order
        /// added); returns the part's checksum. Consumes what was gathered.
        mutating func write(into file: inout AppendingFile, records: RecordFile) throws(FolioError) -> UInt64 {
            var part = HashedPart()
            placements.sort()
            part.append(UInt64(placements.count))
            part.append(UInt64(reading.declared.count))
            // The records in store order, read back in runs of neighbours.
            var run = 0
            while run < placements.count {
                let first = Int(placements[run].entry)
                var length = 1
                while run + length < placements.count, length < 512,
                    Int(placements[run + length].entry) == first + length
                {
                    length += 1
                }
                part.pending += try records.read(first, count: length)
                try part.flush(into: &file)
                run += length
            }
            // Each index's pairs, their entry numbers turned into positions in store order.
            var position = [UInt32](repeating: 0, count: placements.count)
            for (sorted, placement) in placements.enumerated() { position[Int(placement.entry)] = UInt32(sorted) }
            placements = []
            for (index, properties) in reading.declared.enumerated() {
                let name = CacheIndex.indexName(of: properties)
                part.append(UInt64(name.utf8.count))
                part.pending += name.utf8
                var pairs = keys[index]
                keys[index] = []
                for pair in pairs.indices { pairs[pair].entry = position[Int(pairs[pair].entry)] }
                pairs.sort { ($0.hash, $0.entry) < ($1.hash, $1.entry) }
                part.append(UInt64(pairs.count))
                for (hash, entry) in pairs {
                    part.append(hash)
                    part.append(entry)
                    if part.pending.count >= HashedPart.chunk { try part.flush(into: &file) }
                }
            }
            return try part.finish(into: &file)
        }
    }

    /// Bytes on their way into a file, hashed as they go: the index part and its checksum.
    private struct HashedPart {
        var pending: [UInt8] = []
        private var checksum = ContentHash.Running()
        static let chunk = 1 << 20

        mutating func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { pending.append(contentsOf: $0) }
        }

        /// Writes what is pending once there is a chunk of it, up to its last whole 8-byte
        /// word (the running hash takes words until its last part).
        mutating func flush(into file: inout AppendingFile) throws(FolioError) {
            guard pending.count >= Self.chunk else { return }
            try write(pending.count / 8 * 8, into: &file)
        }

        /// Writes the rest and returns the checksum of everything written.
        mutating func finish(into file: inout AppendingFile) throws(FolioError) -> UInt64 {
            try write(pending.count, into: &file)
            return checksum.value
        }

        private mutating func write(_ count: Int, into file: inout AppendingFile) throws(FolioError) {
            pending.withUnsafeBytes { checksum.add(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            try file.append(pending[..<count])
            pending.removeFirst(count)
        }
    }
}
