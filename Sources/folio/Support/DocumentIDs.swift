import Folio
import Foundation

/// Every document id of a store, with its path: what an id prefix given to a command is
/// looked up in, as git looks up an abbreviated commit hash among all of a repository's
/// objects.
///
/// Gathered from each entity folder of the store (from its cache file and a walk when the
/// store serves one command, as `folio query` does: no document is read for it), soft-deleted
/// documents included, for `get` and `restore` take them.
struct DocumentIDs {
    /// An id as a 128-bit number, its first digit highest: the order of ids as text.
    struct Key: Comparable, Hashable {
        var high: UInt64
        var low: UInt64

        init(high: UInt64, low: UInt64) { (self.high, self.low) = (high, low) }

        init(_ id: UUID) {
            let bytes = withUnsafeBytes(of: id.uuid) { Array($0) }
            high = bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) }
            low = bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
        }

        static func < (lhs: Key, rhs: Key) -> Bool { (lhs.high, lhs.low) < (rhs.high, rhs.low) }

        /// How many leading hexadecimal digits two ids share: 32 when they are the same.
        func sharedDigits(with other: Key) -> Int {
            if high != other.high { return (high ^ other.high).leadingZeroBitCount / 4 }
            return 16 + (low ^ other.low).leadingZeroBitCount / 4
        }
    }

    /// The documents, in the order of their ids.
    private(set) var documents: [(key: Key, path: DocumentPath)] = []

    /// The ids of every document of `store`.
    init(of store: DocumentStore) {
        var found: [(key: Key, path: DocumentPath)] = []
        for folder in Self.entityFolders(of: store) {
            let start = found.count
            // A folder read from its cache file that turns out unusable is read again whole.
            _ = store.forEachDocument(inFolder: folder, members: [], startingOver: { found.removeSubrange(start...) }) {
                path, _ in found.append((Key(path.id), path))
            }
        }
        documents = found.sorted { ($0.key, $0.path) < ($1.key, $1.path) }
    }

    /// The names at the store's root that can be entity folders: each entity's documents
    /// live under `<Entity>/`, and nothing else there is named as an identifier.
    private static func entityFolders(of store: DocumentStore) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: store.root)) ?? []
        return names.filter { DocumentPath.isIdentifier($0) }.sorted()
    }

    /// The documents whose ids start with `prefix`, in the order of their ids.
    func documents(startingWith prefix: IDPrefix) -> ArraySlice<(key: Key, path: DocumentPath)> {
        let range = prefix.range
        let start = firstIndex { $0 >= range.lowerBound }
        let end = firstIndex { $0 > range.upperBound }
        return documents[start..<end]
    }

    /// The index of the first document whose id is in `belongs`, or the end: ids are in order.
    private func firstIndex(where belongs: (Key) -> Bool) -> Int {
        var (low, high) = (0, documents.count)
        while low < high {
            let middle = (low + high) / 2
            if belongs(documents[middle].key) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
