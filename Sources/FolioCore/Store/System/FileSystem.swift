import FolioJSON
import Glibc

/// The POSIX calls Folio makes on paths that are not below a store's folder (the folder
/// itself, as the user named it), and what `OpenFolder` shares, each failing with a
/// `FolioError` that names the path. Files inside a store are reached through `OpenFolder` only.
///
/// The store writes with its own calls rather than `Data.write(options: .atomic)`,
/// which on Linux fsyncs the file but not its folder and leaves temporary files
/// behind on a crash.
enum FileSystem {
    private static func failure(_ path: String, _ operation: String) -> FolioError {
        .fileSystem(path: path, operation: operation, reason: FileBytes.systemError())
    }

    /// `lstat`, or `nil` when nothing is there.
    static func status(_ path: String) throws(FolioError) -> stat? {
        var info = stat()
        if lstat(path, &info) == 0 { return info }
        if errno == ENOENT || errno == ENOTDIR { return nil }
        throw failure(path, "inspect")
    }

    static func isRegularFile(_ info: stat) -> Bool { info.st_mode & S_IFMT == S_IFREG }
    static func isDirectory(_ info: stat) -> Bool { info.st_mode & S_IFMT == S_IFDIR }
    static func isSymbolicLink(_ info: stat) -> Bool { info.st_mode & S_IFMT == S_IFLNK }

    /// Writes the bytes to a file just opened for writing, closes it and returns its stamp;
    /// `sync` fsyncs it before closing.
    /// `path` names the file in errors, and is only built for one.
    static func finishWriting(_ descriptor: Int32, bytes: [UInt8], sync: Bool, path: @autoclosure () -> String)
        throws(FolioError) -> FileStamp
    {
        var closed = false
        defer { if !closed { close(descriptor) } }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(path(), "write")
            }
            written += count
        }
        if sync, fsync(descriptor) != 0 { throw failure(path(), "sync") }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure(path(), "inspect") }
        closed = true
        // close() can report a deferred write error (NFS, a full disk on some file systems).
        guard close(descriptor) == 0 else { throw failure(path(), "write") }
        return FileStamp(info)
    }

    /// `count` bytes of an open file from `offset`, read in place (`pread`, which leaves the
    /// descriptor's position alone). `path` names the file in errors, and is only built for one.
    static func read(_ descriptor: Int32, at offset: Int64, count: Int, path: @autoclosure () -> String)
        throws(FolioError) -> [UInt8]
    {
        var failure: FolioError?
        // Left uninitialized, not zeroed first: zeroing would cost as much as the read.
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = 0
            while initialized < count {
                let read = pread(
                    descriptor, buffer.baseAddress! + initialized, count - initialized,
                    off_t(offset) + off_t(initialized))
                if read < 0, errno == EINTR { continue }
                guard read > 0 else {
                    failure = .fileSystem(
                        path: path(), operation: "read",
                        reason: read == 0 ? "it became shorter" : FileBytes.systemError())
                    return
                }
                initialized += read
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Creates the folder at `path` as the user named it (a new store's folder) and its
    /// missing parents; a folder already there is fine, anything else in the way is not.
    static func makeFolders(atPath path: String) throws(FolioError) {
        if mkdir(path, 0o755) == 0 { return }
        if errno == ENOENT, let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")), slash != path.utf8.startIndex {
            try makeFolders(atPath: String(path[..<slash]))
            if mkdir(path, 0o755) == 0 { return }
        }
        guard errno == EEXIST else { throw failure(path, "create the folder") }
        var info = stat()  // followed: a link to a folder is the user's own way to name it
        guard stat(path, &info) == 0, isDirectory(info) else {
            throw .unsafePath(path: path, reason: "is in the way of a folder Folio needs (not a folder itself)")
        }
    }

    /// The current wall-clock time, as file systems stamp files.
    static func now() -> timespec {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return time
    }
}
