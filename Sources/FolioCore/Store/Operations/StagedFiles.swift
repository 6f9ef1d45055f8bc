import Foundation

/// The files an import staged beside their targets, in the order staged: where each goes,
/// its stamp and hash, and its entry in the cache file being written.
///
/// Kept in 80 bytes a file: a path's entity and blob property are the same for most files,
/// so they are numbered once (`kinds`) rather than held as strings by each. A million
/// documents would otherwise keep 112 MB here.
struct StagedFiles {
    /// One staged file.
    struct File {
        var path: DocumentPath
        var stamp: FileStamp
        /// The document's content hash; 0 for a blob.
        var contentHash: UInt64
        /// The document's entry in the cache file (see `DocumentCache.Writer.restamp`), if any.
        var cacheEntry: Int?
    }

    private struct Compact {
        var id: UUID
        var day: Day
        var kind: Int32
        var cacheEntry: Int32
        var stamp: FileStamp
        var contentHash: UInt64
    }

    private var files: [Compact] = []
    /// The entities and blob properties of the paths, each pair once.
    private var kinds: [(entity: String, blobProperty: String?)] = []

    var count: Int { files.count }
    var isEmpty: Bool { files.isEmpty }
    var indices: Range<Int> { files.indices }

    mutating func append(_ file: File) {
        let kind =
            kinds.firstIndex { $0.entity == file.path.entity && $0.blobProperty == file.path.blobProperty }
            ?? {
                kinds.append((file.path.entity, file.path.blobProperty))
                return kinds.count - 1
            }()
        files.append(
            Compact(
                id: file.path.id, day: file.path.day, kind: Int32(kind),
                cacheEntry: file.cacheEntry.map { Int32(truncatingIfNeeded: $0) } ?? -1, stamp: file.stamp,
                contentHash: file.contentHash))
    }

    subscript(position: Int) -> File {
        let file = files[position]
        let kind = kinds[Int(file.kind)]
        return File(
            path: DocumentPath(validEntity: kind.entity, day: file.day, id: file.id, blobProperty: kind.blobProperty),
            stamp: file.stamp, contentHash: file.contentHash,
            cacheEntry: file.cacheEntry >= 0 ? Int(file.cacheEntry) : nil)
    }

    /// Gives the file at `position` the stamp it has once moved into place.
    mutating func restamp(_ position: Int, _ stamp: FileStamp) { files[position].stamp = stamp }

    /// Every file, in the order staged.
    var all: LazyMapSequence<Range<Int>, File> { files.indices.lazy.map { self[$0] } }
}
