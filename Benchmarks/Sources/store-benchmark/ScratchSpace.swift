import BenchmarkSupport
import Foundation
import Glibc

/// Fresh folders for the trees the rows write, each in a new temporary folder of its
/// own (`/tmp/folio-store-bench-<pid>-<n>`), all removed together at the very end.
///
/// Nothing is deleted while rows are timed: on this kind of ext4, creating files
/// right after deleting many is several times slower for minutes, which would
/// penalize whichever row came after a deletion.
final class ScratchSpace {
    private let prefix = FileManager.default.temporaryDirectory.path + "/folio-store-bench-\(getpid())-"
    private var folders: [String] = []

    /// The path of a store or tree that does not exist yet, in a parent folder nothing else uses.
    func freshTree() throws -> String {
        let folder = prefix + String(folders.count + 1)
        guard mkdir(folder, 0o755) == 0 else {
            throw BenchmarkFailure("could not create \(folder): \(String(cString: strerror(errno)))")
        }
        folders.append(folder)
        return folder + "/store"
    }

    /// Deletes every folder handed out.
    func removeAll() throws {
        for folder in folders { try FileManager.default.removeItem(atPath: folder) }
        folders.removeAll()
    }
}
