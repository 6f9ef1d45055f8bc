import BenchmarkSupport
import Glibc
import StoreFloor

/// The C stat walk of a tree: the floor of change detection, and `du` for the report.
struct StatWalk {
    /// Documents found (regular files in day folders).
    let files: Int
    /// Their sizes together.
    let fileBytes: Int
    /// The disk space they take, from `st_blocks`.
    let fileBytesOnDisk: Int
    /// Entity, year, month and day folders.
    let folders: Int
    let folderBytesOnDisk: Int

    init(root: String) throws {
        var totals = store_floor_walk_totals()
        let failure = store_floor_stat_walk(root, &totals)
        guard failure == 0 else {
            throw BenchmarkFailure("the C stat walk failed in \(root): \(String(cString: strerror(failure)))")
        }
        files = Int(totals.files)
        fileBytes = Int(totals.file_bytes)
        fileBytesOnDisk = Int(totals.file_bytes_on_disk)
        folders = Int(totals.folders)
        folderBytesOnDisk = Int(totals.folder_bytes_on_disk)
    }
}
