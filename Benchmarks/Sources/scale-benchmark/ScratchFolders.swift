import BenchmarkSupport
import Foundation
import Glibc

/// A new folder under the temporary directory for every store and file the benchmark
/// makes (`/tmp/folio-scale-bench-<pid>-<n>-<purpose>`), all removed together at the end.
///
/// Nothing is deleted before then: on this ext4 (no journal), creating files right after
/// deleting many is 5-12 times slower for minutes, which would slow whatever came next.
final class ScratchFolders {
    private let prefix = FileManager.default.temporaryDirectory.path + "/folio-scale-bench-\(getpid())-"
    private(set) var folders: [String] = []

    /// A folder that did not exist before, and that nothing else uses.
    func fresh(purpose: String) throws -> String {
        let folder = prefix + String(folders.count + 1) + "-" + purpose
        guard mkdir(folder, 0o755) == 0 else {
            throw BenchmarkFailure("could not create \(folder): \(String(cString: strerror(errno)))")
        }
        folders.append(folder)
        return folder
    }

    /// Deletes every folder handed out.
    func removeAll() throws {
        for folder in folders { try FileManager.default.removeItem(atPath: folder) }
        folders.removeAll()
    }
}

/// Progress on standard error, with the time since the benchmark started.
enum ProgressLog {
    /// Set when first used, at the start of `main`.
    static let start = ContinuousClock.now

    static func note(_ text: String) {
        let elapsed = Format.seconds(start.duration(to: .now))
        FileHandle.standardError.write(Data("[\(Format.decimal(elapsed, places: 0)) s] \(text)\n".utf8))
    }
}
