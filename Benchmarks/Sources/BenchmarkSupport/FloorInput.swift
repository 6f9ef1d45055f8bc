import Glibc
import StoreFloor

/// Paths and bytes laid out for the C write floor: NUL-terminated relative paths
/// back to back, and the documents' bytes back to back, each with its offsets.
package struct FloorInput {
    package let count: Int
    private let paths: [CChar]
    private let pathOffsets: [Int]
    private let bytes: [UInt8]
    /// `count + 1` offsets: document `i` is `bytes[byteOffsets[i] ..< byteOffsets[i + 1]]`.
    private let byteOffsets: [Int]

    package init(paths: [String], bytes documents: [[UInt8]]) {
        count = paths.count
        var names: [CChar] = []
        var pathOffsets: [Int] = []
        for path in paths {
            pathOffsets.append(names.count)
            names.append(contentsOf: path.utf8CString)
        }
        var bytes: [UInt8] = []
        var byteOffsets = [0]
        bytes.reserveCapacity(documents.reduce(0) { $0 + $1.count })
        for document in documents {
            bytes.append(contentsOf: document)
            byteOffsets.append(bytes.count)
        }
        self.paths = names
        self.pathOffsets = pathOffsets
        self.bytes = bytes
        self.byteOffsets = byteOffsets
    }

    /// Writes every file below `root` (temporary file and rename each), then with
    /// `sync` one `syncfs`.
    package func write(root: String, sync: Bool) throws {
        let failure = store_floor_write(root, paths, pathOffsets, bytes, byteOffsets, count, sync ? 1 : 0)
        guard failure == 0 else {
            throw BenchmarkFailure("the C floor could not write below \(root): \(String(cString: strerror(failure)))")
        }
    }
}
