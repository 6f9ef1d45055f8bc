import BenchmarkSupport
import FolioJSON
import Foundation
import Glibc
import StoreFloor

/// The least work any migration that keeps one JSON file per document can do: read
/// each file, parse it, make the same edit, write the canonical bytes to a staging
/// folder, make them durable as Folio's `.full` commit does (one `syncfs`), rename each
/// over its old file, and make the renames durable (another `syncfs`). The paths are
/// given, so no tree is walked; nothing is checked, cached or journaled.
enum MigrationFloor {
    static func migrate(root: String, paths: [String]) throws {
        let staging = root + "/.floor-staging"
        guard mkdir(staging, 0o755) == 0 else { throw failure("create", staging) }
        let reader = JSONReader()
        let writer = JSONWriter()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        for (index, path) in paths.enumerated() {
            let source = root + "/" + path
            let descriptor = open(source, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw failure("open", source) }
            var bytes: [UInt8] = []
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                guard count >= 0 else { throw failure("read", source) }
                if count == 0 { break }
                bytes.append(contentsOf: buffer[0..<count])
            }
            close(descriptor)
            guard var content = try reader.read(bytes).objectValue else {
                throw BenchmarkFailure("\(source) is not an object")
            }
            _ = content.renameMember("colorHex", to: "color")
            content["category"] = "General"
            content["$version"] = "2.0.0"
            let output = try writer.write(.object(content))
            let staged = staging + "/\(index)"
            let out = open(staged, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard out >= 0 else { throw failure("create", staged) }
            let written = output.withUnsafeBytes { write(out, $0.baseAddress, $0.count) }
            guard written == output.count, close(out) == 0 else { throw failure("write", staged) }
        }
        try sync(root)
        for (index, path) in paths.enumerated() where rename(staging + "/\(index)", root + "/" + path) != 0 {
            throw failure("rename into", path)
        }
        try sync(root)
        guard rmdir(staging) == 0 else { throw failure("remove", staging) }
    }

    private static func sync(_ root: String) throws {
        let failed = store_floor_syncfs(root)
        guard failed == 0 else {
            throw BenchmarkFailure("could not syncfs \(root): \(String(cString: strerror(failed)))")
        }
    }

    private static func failure(_ operation: String, _ path: String) -> BenchmarkFailure {
        BenchmarkFailure("could not \(operation) \(path): \(String(cString: strerror(errno)))")
    }
}
