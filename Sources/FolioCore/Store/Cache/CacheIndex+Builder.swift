// CacheIndex: the index part gathered as a cache file's entries are written.

import FolioJSON
import Foundation
import Glibc

extension CacheIndex {
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
