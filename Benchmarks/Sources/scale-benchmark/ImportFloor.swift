import BenchmarkSupport
import Foundation
import Glibc
import StoreFloor

/// The C floor of row 9's `folio import`: the very files the import wrote, written again into
/// a new folder with plain system calls (`store_floor_write`: a temporary file and a rename
/// each, the folders made as needed) and made durable with one `syncfs`, as an import's
/// `.full` commit is.
///
/// The files are read back from the import's store a batch at a time, outside the clock, so
/// the benchmark never holds all of them: only the writes and the `syncfs` are timed.
struct ImportFloor {
    /// The store the import wrote, and the entity folder whose files are written again.
    let store: String
    let entity: String

    /// Files handed to the C loop at once.
    private static let batch = 10_000

    /// Writes the files below `destination` (a new folder) and returns the seconds it took.
    func measure(into destination: String) throws -> Double {
        let paths = try documentPaths()
        guard !paths.isEmpty else { throw BenchmarkFailure("\(store)/\(entity) holds no documents to write again") }
        let clock = ContinuousClock()
        var elapsed = Duration.zero
        for start in stride(from: 0, to: paths.count, by: Self.batch) {
            let slice = paths[start..<min(start + Self.batch, paths.count)]
            var bytes: [[UInt8]] = []
            bytes.reserveCapacity(slice.count)
            for path in slice {
                guard let data = FileManager.default.contents(atPath: store + "/" + path) else {
                    throw BenchmarkFailure("could not read \(store)/\(path)")
                }
                bytes.append([UInt8](data))
            }
            let input = FloorInput(paths: Array(slice), bytes: bytes)
            let began = clock.now
            try input.write(root: destination, sync: false)
            elapsed += began.duration(to: .now)
        }
        let began = clock.now
        let failure = store_floor_syncfs(destination)
        elapsed += began.duration(to: .now)
        guard failure == 0 else {
            throw BenchmarkFailure("syncfs of \(destination): \(String(cString: strerror(failure)))")
        }
        return Format.seconds(elapsed)
    }

    /// The entity's document files, relative to the store, in the order of their folders.
    private func documentPaths() throws -> [String] {
        guard let walk = FileManager.default.enumerator(atPath: store + "/" + entity) else {
            throw BenchmarkFailure("could not list \(store)/\(entity)")
        }
        var paths: [String] = []
        while let relative = walk.nextObject() as? String {
            guard relative.hasSuffix(".json"), !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") })
            else { continue }
            paths.append(entity + "/" + relative)
        }
        return paths.sorted()
    }
}
