import Glibc

/// A folder held open, so the files in it are named relative to it; closed when the last
/// reference to it goes.
///
/// A commit writes and renames thousands of files in a few hundred day folders;
/// naming each relative to its open folder spares the kernel a walk of the whole
/// path on every call, which is most of the cost of those calls. Nothing here follows
/// a symbolic link in the names it is given. Names reach the kernel through
/// `withCString`, which lends a string's own bytes; passing a `String` where C wants a
/// `char *` copies it into a new array on every call. A class rather than a `~Copyable`
/// struct, so that a transaction can keep the folders it staged into in a list until it
/// renames in them.
final class OpenFolder {
    /// The folder's path, for error messages and for what is not done relative to it.
    let path: String
    private let descriptor: Int32

    /// Opens the folder at `path`, or returns `nil` when nothing is there; refuses a
    /// symbolic link or anything but a folder.
    init?(ifPresentAt path: String) throws(FolioError) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            if errno == ELOOP || errno == ENOTDIR { throw .unsafePath(path: path, reason: "is not a folder") }
            throw .fileSystem(path: path, operation: "open the folder", reason: FileBytes.systemError())
        }
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    private func failure(_ name: String, _ operation: String) -> FolioError {
        .fileSystem(path: path + "/" + name, operation: operation, reason: FileBytes.systemError())
    }

    /// `lstat` of `name`, or `nil` when nothing is there.
    func status(of name: String) throws(FolioError) -> stat? {
        var info = stat()
        if name.withCString({ fstatat(descriptor, $0, &info, AT_SYMLINK_NOFOLLOW) }) == 0 { return info }
        if errno == ENOENT { return nil }
        throw failure(name, "inspect")
    }

    /// Writes `name` whole with these bytes, replacing a regular file already there, and
    /// returns its stamp. Only for names nobody else writes (a transaction's staged files).
    func replaceFile(named name: String, bytes: [UInt8], sync: Bool = false) throws(FolioError) -> FileStamp {
        let file = name.withCString { openat(descriptor, $0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644) }
        guard file >= 0 else {
            if errno == ELOOP { throw .unsafePath(path: path + "/" + name, reason: "is a symbolic link") }
            throw failure(name, "create")
        }
        return try FileSystem.finishWriting(file, bytes: bytes, sync: sync, path: path + "/" + name)
    }

    /// Renames `source` to `destination` within this folder; nothing when `source` is not
    /// there (already moved, after a crash part way through).
    func renameIfPresent(_ source: String, to destination: String) throws(FolioError) {
        let renamed = source.withCString { source in destination.withCString { renameat(descriptor, source, descriptor, $0) } }
        if renamed == 0 { return }
        if errno == ENOENT, try status(of: source) == nil { return }
        throw failure(destination, "move \(source) into place at")
    }

    /// Renames `source` to `destination` within this folder.
    func rename(_ source: String, to destination: String) throws(FolioError) {
        let renamed = source.withCString { source in destination.withCString { renameat(descriptor, source, descriptor, $0) } }
        guard renamed == 0 else { throw failure(destination, "move \(source) into place at") }
    }

    /// Makes the folder's entries (a rename into it) durable.
    func sync() throws(FolioError) {
        guard fsync(descriptor) == 0 else { throw .fileSystem(path: path, operation: "sync the folder", reason: FileBytes.systemError()) }
    }

    /// Removes `name`; a file already gone is fine.
    func removeFile(named name: String) throws(FolioError) {
        guard name.withCString({ unlinkat(descriptor, $0, 0) }) == 0 || errno == ENOENT else { throw failure(name, "remove") }
    }
}
