import Glibc

extension OpenFolder {
    /// Removes the folder at `relative` and everything in it, reached as every path here is:
    /// beneath this folder, a link removed and never followed. One already gone is fine.
    func removeTree(_ relative: String) throws(FolioError) {
        guard let info = try status(of: relative) else { return }
        guard FileSystem.isDirectory(info) else { return try removeFile(relative) }
        for name in try list(relative) { try removeTree(relative + "/" + name) }
        try removeFolder(relative)
    }
}
