import BenchmarkSupport
import Foundation
import Glibc

/// A new temporary folder for every measurement (`/tmp/folio-model-bench-<pid>-<n>`),
/// all removed together at the very end.
///
/// Nothing is deleted while anything is timed: on this kind of ext4, creating files
/// right after deleting many is several times slower for minutes, which would
/// penalize whichever side came after a deletion.
final class ScratchFolders {
    private let prefix = FileManager.default.temporaryDirectory.path + "/folio-model-bench-\(getpid())-"
    private var folders: [String] = []

    /// A folder that did not exist before, and that nothing else uses.
    func fresh() throws -> String {
        let folder = prefix + String(folders.count + 1)
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
