import FolioJSON
import Foundation
import Glibc

/// `.folio/cache`: every verified document's stamp, content hash and parsed content,
/// so reopening a store reads only the files that changed since it was written.
///
/// A binary file: a magic line, the history token the catalog reflects (plus one; zero
/// for none known), entries (path as entity, day and UUID bytes, stamp,
/// hash, compact JSON), and a checksum of everything before it. The cache is never trusted: a missing,
/// damaged or foreign cache is ignored and rebuilt, and an entry counts only when
/// the file on disk still has exactly its stamp.
enum DocumentCache {
    static let fileName = ".folio/cache"
    private static let magic = Array("FOLIO-CACHE 3\n".utf8)

    /// What a cache file holds.
    struct Loaded {
        var catalog = Catalog()
        /// The cache file's stamp, or `nil` when there was no usable cache.
        var stamp: FileStamp?
        /// The last history token whose changes the catalog holds, if known.
        var historyToken: Int64?
    }

    /// The catalog the cache describes, its content left in the cache's buffer, the stamp
    /// of the cache file it came from and the history token it reflects; an empty catalog
    /// and no stamp when there is no usable cache. A walk must still confirm every entry.
    static func load(from root: OpenFolder) -> Loaded {
        // Any failure to read the cache only costs reading the documents themselves.
        guard let (bytes, stamp) = try? root.readFile(fileName, limit: JSONReader.absoluteMaximumSize),
            bytes.count >= magic.count + 8
        else { return Loaded() }
        let buffer = CacheBuffer(bytes: bytes)
        var historyToken: Int64?
        let catalog: Catalog? = bytes.withUnsafeBytes { raw in
            let body = UnsafeRawBufferPointer(rebasing: raw[..<(raw.count - 8)])
            let checksum = raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self)
            guard ContentHash.of(body) == UInt64(littleEndian: checksum), body.starts(with: magic) else { return nil }
            var cursor = CompactJSON.Cursor(bytes: body)
            _ = cursor.rawBytes(magic.count)
            guard let token = cursor.varint(), let count = cursor.length() else { return nil }
            historyToken = token == 0 ? nil : Int64(bitPattern: token - 1)
            var catalog = Catalog()
            catalog.reserveCapacity(count)
            for _ in 0..<count {
                guard let entity = cursor.text(), DocumentPath.isIdentifier(entity),
                    let year = cursor.varint(), let month = cursor.byte(), let dayOfMonth = cursor.byte(),
                    let day = Day(year: Int(clamping: year), month: Int(month), day: Int(dayOfMonth)),
                    let uuid = cursor.rawBytes(16),
                    let size = cursor.varint(), let seconds = cursor.varint(),
                    let nanoseconds = cursor.varint(), let inode = cursor.varint(), let hash = cursor.uint64(),
                    let length = cursor.length()
                else { return nil }
                let start = cursor.offset
                guard cursor.rawBytes(length) != nil else { return nil }
                let stamp = FileStamp(
                    size: Int64(bitPattern: size), modifiedSeconds: Int64(bitPattern: seconds),
                    modifiedNanoseconds: Int64(bitPattern: nanoseconds), inode: inode)
                let id = UUID(uuid: uuid.loadUnaligned(as: uuid_t.self))
                let path = DocumentPath(validEntity: entity, day: day, id: id, blobProperty: nil)
                // Only verified entries are cached; the walk decides whether each still holds.
                catalog.insert(
                    Catalog.Entry(
                        path: path, stamp: stamp, contentHash: hash, verified: true,
                        content: .cached(buffer, start..<(start + length))))
            }
            return cursor.remaining == 0 ? catalog : nil
        }
        guard let catalog else { return Loaded() }
        return Loaded(catalog: catalog, stamp: stamp, historyToken: historyToken)
    }

    /// Writes the verified entries of a catalog, atomically (temporary file, then
    /// rename), and returns the new cache file's stamp.
    static func write(_ catalog: inout Catalog, historyToken: Int64?, in root: OpenFolder) throws(FolioError)
        -> FileStamp
    {
        var bytes = magic
        CompactJSON.appendVarint(historyToken.map { UInt64($0) + 1 } ?? 0, to: &bytes)
        let verified = catalog.entries.values.filter(\.verified)
        CompactJSON.appendVarint(UInt64(verified.count), to: &bytes)
        for entry in verified {
            let path = entry.path
            CompactJSON.appendVarint(UInt64(path.entity.utf8.count), to: &bytes)
            bytes.append(contentsOf: path.entity.utf8)
            CompactJSON.appendVarint(UInt64(path.day.year), to: &bytes)
            bytes.append(UInt8(path.day.month))
            bytes.append(UInt8(path.day.day))
            withUnsafeBytes(of: path.id.uuid) { bytes.append(contentsOf: $0) }
            for number in [
                UInt64(bitPattern: entry.stamp.size), UInt64(bitPattern: entry.stamp.modifiedSeconds),
                UInt64(bitPattern: entry.stamp.modifiedNanoseconds), entry.stamp.inode,
            ] {
                CompactJSON.appendVarint(number, to: &bytes)
            }
            withUnsafeBytes(of: entry.contentHash.littleEndian) { bytes.append(contentsOf: $0) }
            switch entry.content {
            case .cached(let buffer, let range):
                CompactJSON.appendVarint(UInt64(range.count), to: &bytes)
                buffer.bytes.withUnsafeBytes { bytes.append(contentsOf: $0[range]) }
            case .parsed(let object):
                var encoded: [UInt8] = []
                CompactJSON.encode(.object(object), into: &encoded)
                CompactJSON.appendVarint(UInt64(encoded.count), to: &bytes)
                bytes.append(contentsOf: encoded)
            }
        }
        let checksum = ContentHash.of(bytes)
        withUnsafeBytes(of: checksum.littleEndian) { bytes.append(contentsOf: $0) }

        let temporary = fileName + ".\(getpid()).tmp"
        try root.removeFile(temporary)
        do {
            let stamp = try root.createFile(temporary, bytes: bytes, sync: false)
            try root.rename(temporary, to: fileName)
            return stamp
        } catch {
            try? root.removeFile(temporary)  // no half-written cache left behind; the first error is the one to report
            throw error
        }
    }
}

/// The bytes of a loaded cache file, shared by the catalog entries that point into it.
final class CacheBuffer: Sendable {
    let bytes: [UInt8]

    init(bytes: [UInt8]) { self.bytes = bytes }

    func decodeObject(_ range: Range<Int>) -> JSONObject? {
        bytes.withUnsafeBytes { CompactJSON.decode(UnsafeRawBufferPointer(rebasing: $0[range])) }?.objectValue
    }
}
