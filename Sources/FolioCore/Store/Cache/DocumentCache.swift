import FolioJSON
import Foundation
import Glibc

/// `.folio/cache/<Folder>`: one file per entity folder with every verified document's stamp,
/// content hash and parsed content, so the first use of an entity after an open reads only
/// its files that changed since the cache was written, and no other entity's.
///
/// A binary file: a magic line, the history token the folder's entries reflect (plus one;
/// zero for none known), entries (path as entity, day and UUID bytes, hash, compact JSON),
/// their files' stamps in the same order (`FileStamp.encodedSize` bytes each), the index part (see
/// `CacheIndex`; left out by an import into a large folder), a footer (see `Footer`), and a
/// checksum of everything before it. The counts come after the entries so the file can be
/// written as they come (an import's, see `Writer`), and the stamps after them so that an
/// import can give the stamps its files have once moved into place.
/// The cache is never trusted: a missing, damaged or foreign file is ignored and rebuilt,
/// and an entry counts only when the file on disk still has exactly its stamp, a stamp
/// older than the cache file's own (see `Writer.finish`).
enum DocumentCache {
    /// The folder of the cache files, one per entity folder.
    static let folderName = ".folio/cache"
    static let magic = Array("FOLIO-CACHE 7\n".utf8)

    /// The fixed-size end of a cache file, before its checksum: where the entries end, how
    /// many there are, where the index part starts (0: none) and its own checksum, so a
    /// reader of the index part finds and checks it without reading the entries.
    struct Footer {
        static let size = 32
        var entriesEnd: Int
        var count: Int
        var indexStart: Int
        var indexChecksum: UInt64

        init(entriesEnd: Int, count: Int, indexStart: Int, indexChecksum: UInt64) {
            (self.entriesEnd, self.count, self.indexStart) = (entriesEnd, count, indexStart)
            self.indexChecksum = indexChecksum
        }

        init?(_ bytes: [UInt8]) {
            guard bytes.count == Self.size else { return nil }
            let words = (0..<4).map { index in
                bytes.withUnsafeBytes {
                    UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self))
                }
            }
            guard let entriesEnd = Int(exactly: words[0]), let count = Int(exactly: words[1]),
                let indexStart = Int(exactly: words[2])
            else { return nil }
            self.init(entriesEnd: entriesEnd, count: count, indexStart: indexStart, indexChecksum: words[3])
        }

        var bytes: [UInt8] {
            [UInt64(entriesEnd), UInt64(count), UInt64(indexStart), indexChecksum].flatMap { word in
                withUnsafeBytes(of: word.littleEndian) { Array($0) }
            }
        }
    }

    /// The cache file of an entity folder.
    static func fileName(of folder: String) -> String { folderName + "/" + folder }

    /// What a cache file holds.
    struct Loaded {
        var entries: [Catalog.Entry] = []
        /// The cache file's stamp, or `nil` when there was no usable cache.
        var stamp: FileStamp?
        /// The last history token whose changes the entries hold, if known.
        var historyToken: Int64?
        /// Whether the file has its index part (an import's into a large folder has none).
        var isIndexed = false
    }

    /// The entries an entity folder's cache file describes, their content left in the
    /// file's buffer, the stamp of the file and the history token it reflects; no entries
    /// and no stamp when there is no usable cache. A walk must still confirm every entry.
    static func load(folder entityFolder: String, from root: OpenFolder) -> Loaded {
        // Any failure to read the cache only costs reading the documents themselves.
        guard
            let (bytes, fileStamp) = try? root.readFile(
                fileName(of: entityFolder), limit: JSONReader.absoluteMaximumSize),
            bytes.count >= magic.count + Footer.size + 8
        else { return Loaded() }
        var historyToken: Int64?
        var isIndexed = false
        // The documents' compact bytes, copied out one after the other: what the entries keep
        // (models made from a fetch too, see `CompactDocument`), without the file's index
        // part and per-entry metadata, which were a quarter of the file and more.
        var contents: [UInt8] = []
        var ranges: [Range<Int>] = []
        let found: [Catalog.Entry]? = bytes.withUnsafeBytes { raw in
            let body = UnsafeRawBufferPointer(rebasing: raw[..<(raw.count - 8)])
            let checksum = raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self)
            guard ContentHash.of(body) == UInt64(littleEndian: checksum), body.starts(with: magic),
                let footer = Footer(Array(body[(body.count - Footer.size)...])),
                footer.entriesEnd > magic.count, footer.entriesEnd <= body.count - Footer.size,
                footer.count <= body.count
            else { return nil }
            isIndexed = footer.indexStart > 0
            var cursor = CompactJSON.Cursor(bytes: UnsafeRawBufferPointer(rebasing: body[..<footer.entriesEnd]))
            _ = cursor.rawBytes(magic.count)
            guard let token = cursor.varint() else { return nil }
            historyToken = token == 0 ? nil : Int64(bitPattern: token - 1)
            let stampSize = FileStamp.encodedSize
            guard footer.count <= (body.count - Footer.size - footer.entriesEnd) / stampSize else { return nil }
            var entries: [Catalog.Entry] = []
            entries.reserveCapacity(footer.count)
            ranges.reserveCapacity(footer.count)
            contents.reserveCapacity(footer.entriesEnd)  // a little more than the contents take
            // Each entry's content is set once the buffer it points into is complete.
            let placeholder = DocumentContent(parsed: [:])
            for number in 0..<footer.count {
                guard let entity = cursor.text(), entity == entityFolder,
                    let year = cursor.varint(), let month = cursor.byte(), let dayOfMonth = cursor.byte(),
                    let day = Day(year: Int(clamping: year), month: Int(month), day: Int(dayOfMonth)),
                    let uuid = cursor.rawBytes(16), let hash = cursor.uint64(), let length = cursor.length()
                else { return nil }
                guard let content = cursor.rawBytes(length) else { return nil }
                let stamp = FileStamp(
                    encoded: UnsafeRawBufferPointer(rebasing: body[(footer.entriesEnd + number * stampSize)...]))
                // A file changed in the cache file's own clock tick may change again unseen
                // (see `Writer.finish`): read again, as git does with a racily clean entry.
                guard stamp.changed < fileStamp.modified else { continue }
                let start = contents.count
                contents.append(contentsOf: content)
                let id = UUID(uuid: uuid.loadUnaligned(as: uuid_t.self))
                let path = DocumentPath(validEntity: entityFolder, day: day, id: id, blobProperty: nil)
                // Only verified entries are cached; the walk decides whether each still holds.
                entries.append(
                    Catalog.Entry(path: path, stamp: stamp, contentHash: hash, verified: true, content: placeholder))
                ranges.append(start..<(start + length))
            }
            return cursor.remaining == 0 ? entries : nil
        }
        guard var entries = found else { return Loaded() }
        let buffer = CacheBuffer(bytes: contents)
        for (position, range) in ranges.enumerated() {
            entries[position].content = DocumentContent(cached: buffer, range: range)
        }
        return Loaded(entries: entries, stamp: fileStamp, historyToken: historyToken, isIndexed: isIndexed)
    }

    /// One entity folder's verified entries as they were under the store's mutex, taken so
    /// that the cache file is written outside it: a body is a value, so the write reads no
    /// `DocumentContent` a fetch may be decoding meanwhile.
    struct Snapshot {
        /// The entity folder.
        var folder: String
        /// The catalog's revision of the folder when taken, recorded with the file written.
        var revision: UInt64
        var historyToken: Int64?
        /// The entity's query schema, for the file's index part.
        var indexing: QuerySchema.Entity?
        var entries: [(path: DocumentPath, stamp: FileStamp, contentHash: UInt64, body: StoredDocument.Body)]

        /// The verified entries of `folder` in `catalog`.
        init(_ catalog: Catalog, folder: String, historyToken: Int64?, indexing: QuerySchema.Entity?) {
            self.folder = folder
            revision = catalog.revision(of: folder)
            self.historyToken = historyToken
            self.indexing = indexing
            entries = catalog.entries(inFolder: folder).filter(\.verified).map {
                ($0.path, $0.stamp, $0.contentHash, $0.content.body)
            }
        }
    }

    /// Writes a snapshot of one entity folder, atomically (temporary file, then rename), and
    /// returns the new cache file's stamp; `nil` (nothing written) only when the file
    /// system's clock went back while it was written (see `Writer.finish`).
    static func write(_ snapshot: Snapshot, in root: OpenFolder) throws(FolioError) -> FileStamp? {
        var writer = try Writer(
            folder: snapshot.folder, historyToken: snapshot.historyToken,
            index: CacheIndex.Builder(entity: snapshot.indexing), in: root)
        do {
            // An entry changed within the file system's clock tick of the cache file's own
            // write (on a clock this process cannot see: another machine's, for a network
            // mount) is left out, so that `finish` takes the file.
            for entry in snapshot.entries where entry.stamp.changed < writer.startedAt {
                try writer.append(
                    entry.path, stamp: entry.stamp, contentHash: entry.contentHash, compact: entry.body.compactBytes)
            }
            return try writer.finish()
        } catch {
            writer.abandon()
            throw error
        }
    }

    /// A folder's cache file written entry by entry to a temporary file, which `finish`
    /// renames into place; `abandon` removes it. With an index builder, the index part is
    /// gathered as the entries come and written at the end.
    struct Writer {
        private var file: AppendingFile
        private let cache: OpenFolder
        private let entityFolder: String
        private let temporary: String
        private var index: CacheIndex.Builder?
        /// The entries' records, as the index part lays them out: their stamps are written
        /// after the entries, and the records in the index part.
        private let records: CacheIndex.RecordFile
        /// The latest change time among the entries' stamps.
        private var latestChange = Int64.min
        /// Why a record's stamp could not be changed, which `finish` reports.
        private var lostStamp: FolioError?
        /// The temporary file's change time when it was made: the file system's clock then,
        /// at the granularity it keeps.
        let startedAt: Int64

        /// A writer of `entityFolder`'s cache file, with the index part `index` gathers; past
        /// `recordsInMemory` bytes, the entries' records wait in a file (see `CacheIndex.RecordFile`).
        init(
            folder entityFolder: String, historyToken: Int64?, index: CacheIndex.Builder?, in root: OpenFolder,
            recordsInMemory: Int = CacheIndex.RecordFile.defaultMemoryBound
        ) throws(FolioError) {
            // A store written before the cache was split by folder has one cache file in its place.
            if let info = try root.status(of: folderName), FileSystem.isRegularFile(info) {
                try root.removeFile(folderName)
            }
            cache = try root.makeLocalStateFolders(folderName)
            self.entityFolder = entityFolder
            // Its own name per writer: an import writes one while the store may write another.
            temporary = "\(entityFolder).\(getpid()).\(UUID().uuidString.prefix(8)).tmp"
            self.index = index
            records = CacheIndex.RecordFile(
                spillingInto: cache, name: temporary + ".records", memoryBound: recordsInMemory)
            let descriptor = try cache.openFile(temporary, flags: O_WRONLY | O_CREAT | O_TRUNC)
            var info = stat()
            startedAt =
                fstat(descriptor, &info) == 0 ? FileStamp(info).changed : FileStamp.nanoseconds(FileSystem.now())
            file = AppendingFile(descriptor: descriptor, path: cache.pathOf(temporary), checksummed: true)
            var header = magic
            CompactJSON.appendVarint(historyToken.map { UInt64($0) + 1 } ?? 0, to: &header)
            try file.append(header)
        }

        /// Adds a verified document's entry: its path, its file's stamp and hash, its content
        /// in compact form; returns the entry's number, for `restamp`.
        @discardableResult
        mutating func append(_ path: DocumentPath, stamp: FileStamp, contentHash: UInt64, compact: [UInt8])
            throws(FolioError) -> Int
        {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(48 + compact.count)
            CompactJSON.appendVarint(UInt64(path.entity.utf8.count), to: &bytes)
            bytes.append(contentsOf: path.entity.utf8)
            CompactJSON.appendVarint(UInt64(path.day.year), to: &bytes)
            bytes.append(UInt8(path.day.month))
            bytes.append(UInt8(path.day.day))
            withUnsafeBytes(of: path.id.uuid) { bytes.append(contentsOf: $0) }
            withUnsafeBytes(of: contentHash.littleEndian) { bytes.append(contentsOf: $0) }
            CompactJSON.appendVarint(UInt64(compact.count), to: &bytes)
            let contentStart = Int(file.end) + bytes.count
            let isDeleted = index?.add(path, compact: compact) ?? false
            try records.append {
                CacheIndex.Record.append(
                    path, contentLength: compact.count, stamp: stamp, contentHash: contentHash,
                    contentStart: contentStart, isDeleted: isDeleted, contentChecksum: ContentHash.of(compact), to: &$0)
            }
            bytes.append(contentsOf: compact)
            try file.append(bytes)
            latestChange = max(latestChange, stamp.changed)
            return records.count - 1
        }

        /// Gives entry `entry` the stamp its file has now: an import's file, moved into place
        /// after its entry was written (the rename set its change time).
        mutating func restamp(_ entry: Int, _ stamp: FileStamp) {
            do {
                try records.restamp(entry, stamp)
                latestChange = max(latestChange, stamp.changed)
            } catch {
                lostStamp = lostStamp ?? error
            }
        }

        /// Ends the file with the stamps, the index part, the footer and the checksum, and
        /// renames it into place; returns its stamp.
        ///
        /// Returns `nil`, the file removed, when an entry's file changed no earlier than the
        /// cache file's last write, as the file system stamps both: another change in that
        /// clock tick would leave the stamp as recorded, so the entry cannot vouch for its
        /// content (git distrusts an index entry as new as the index file the same way). A
        /// caller that can leave entries out does so beforehand (`startedAt`).
        mutating func finish() throws(FolioError) -> FileStamp? {
            if let lostStamp { throw lostStamp }
            let entriesEnd = Int(file.end)
            // The stamps, taken from the records a few thousand at a time.
            for first in stride(from: 0, to: records.count, by: 4096) {
                let count = min(4096, records.count - first)
                let part = try records.read(first, count: count)
                for number in 0..<count {
                    let start = part.startIndex + number * CacheIndex.recordSize + CacheIndex.Record.stampOffset
                    try file.append(part[start..<(start + FileStamp.encodedSize)])
                }
            }
            let partStart = Int(file.end)
            var footer = Footer(entriesEnd: entriesEnd, count: records.count, indexStart: 0, indexChecksum: 0)
            if var index, !index.failed {
                self.index = nil
                footer.indexChecksum = try index.write(into: &file, records: records)
                footer.indexStart = partStart
            }
            try file.append(footer.bytes)
            try file.finishWithChecksum()
            let written = try file.close()
            guard latestChange < written.modified else {
                try? cache.removeFile(temporary)
                return nil
            }
            return try cache.moveIntoPlace(temporary, to: entityFolder, written: written) ?? written
        }

        /// Closes and removes the temporary file, after a failure; the error that matters is the caller's.
        mutating func abandon() {
            file.abandon()
            try? cache.removeFile(temporary)
        }
    }

    /// Removes every cache file, and the single cache file of stores written before the
    /// cache was split by folder; no cache is fine.
    static func discard(in root: OpenFolder) throws(FolioError) {
        guard let info = try root.status(of: folderName) else { return }
        guard FileSystem.isDirectory(info) else { return try root.removeFile(folderName) }
        for name in try root.list(folderName) { try root.removeFile(folderName + "/" + name) }
        try root.removeFolder(folderName)
    }
}

/// The bytes of a loaded cache file, shared by the catalog entries that point into it.
final class CacheBuffer: Sendable {
    let bytes: [UInt8]

    init(bytes: [UInt8]) { self.bytes = bytes }
}
