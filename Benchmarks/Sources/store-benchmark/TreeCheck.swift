import BenchmarkSupport
import Foundation

/// Proves, outside the clock, that a write row did the whole job: every document
/// is at its path with exactly its canonical bytes, and nothing else is in the layout.
enum TreeCheck {
    static func verify(root: String, sample: StoreSample, row: StoreRow) throws {
        let walk = try StatWalk(root: root)
        guard walk.files == sample.count else {
            throw BenchmarkFailure("\(row.title) left \(walk.files) files in the layout, not \(sample.count)")
        }
        for (path, bytes) in zip(sample.paths, sample.bytes) {
            guard let data = FileManager.default.contents(atPath: root + "/" + path), data.elementsEqual(bytes) else {
                throw BenchmarkFailure("\(row.title) did not write \(path) with its canonical bytes")
            }
        }
    }
}
