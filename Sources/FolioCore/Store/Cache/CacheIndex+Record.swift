// CacheIndex: one document's record read by its position, and its content read and checked.

import FolioJSON
import Foundation
import Glibc

extension CacheIndex {
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

        /// Appends the record of the document at `path` to `bytes`, in the layout `init` reads.
        static func append(
            _ path: DocumentPath, contentLength: Int, stamp: FileStamp, contentHash: UInt64, contentStart: Int,
            isDeleted: Bool, contentChecksum: UInt64, to bytes: inout [UInt8]
        ) {
            func append<T: FixedWidthInteger>(_ value: T) {
                withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
            }
            withUnsafeBytes(of: path.id.uuid) { bytes.append(contentsOf: $0) }
            append(path.orderKey.day)
            append(UInt32(contentLength))
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: FileStamp.encodedSize))
            bytes.withUnsafeMutableBytes { stamp.encode(into: UnsafeMutableRawBufferPointer(rebasing: $0[start...])) }
            append(contentHash)
            append(UInt64(contentStart))
            append(UInt32(isDeleted ? 1 : 0))
            append(UInt32(0))
            append(contentChecksum)
        }

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
}
