import CFolioSystem
import FolioJSON
import Glibc

/// The POSIX calls the store makes, each failing with a `FolioError` that names the path.
///
/// The store writes with its own calls rather than `Data.write(options: .atomic)`,
/// which on Linux fsyncs the file but not its folder and leaves temporary files
/// behind on a crash. Nothing here follows a symbolic link.
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

    /// A regular file's bytes and stamp, taken from the same open file so they agree.
    static func readFile(_ path: String, limit: Int) throws(FolioError) -> (bytes: [UInt8], stamp: FileStamp) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            if errno == ELOOP { throw .unsafePath(path: path, reason: "is a symbolic link") }
            throw failure(path, "open")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure(path, "inspect") }
        guard isRegularFile(info) else { throw .unsafePath(path: path, reason: "is not a regular file") }
        do {
            let bytes = try FileBytes.read(descriptor: descriptor, expectedSize: Int(info.st_size), limit: limit, path: path)
            return (bytes, FileStamp(info))
        } catch {
            throw .unreadableJSON(error)
        }
    }

    /// Creates a new file with these bytes (failing if anything is already there) and
    /// returns its stamp; `sync` fsyncs it before closing.
    @discardableResult
    static func createFile(_ path: String, bytes: [UInt8], sync: Bool) throws(FolioError) -> FileStamp {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { throw failure(path, "create") }
        return try finishWriting(descriptor, bytes: bytes, sync: sync, path: path)
    }

    /// Writes the bytes to a file just opened for writing, closes it and returns its stamp;
    /// `sync` fsyncs it before closing.
    /// `path` names the file in errors, and is only built for one.
    static func finishWriting(_ descriptor: Int32, bytes: [UInt8], sync: Bool, path: @autoclosure () -> String) throws(FolioError) -> FileStamp {
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

    static func rename(_ source: String, to destination: String) throws(FolioError) {
        guard Glibc.rename(source, destination) == 0 else { throw failure(destination, "move \(source) into place at") }
    }

    /// Removes a file; a file already gone is fine.
    static func removeFile(_ path: String) throws(FolioError) {
        guard unlink(path) == 0 || errno == ENOENT else { throw failure(path, "remove") }
    }

    /// Removes an empty folder; one already gone is fine.
    static func removeDirectory(_ path: String) throws(FolioError) {
        guard rmdir(path) == 0 || errno == ENOENT else { throw failure(path, "remove the folder") }
    }

    /// Creates a folder and its missing parents below `root` (which must exist), refusing
    /// to pass through anything but real folders.
    static func makeDirectories(_ relative: String, under root: String) throws(FolioError) {
        if let info = try status(root + "/" + relative), isDirectory(info) { return }  // the common case: one call
        try makeDirectory(root + "/" + relative, stoppingAt: root.utf8.count, checkingExisting: true)
    }

    /// Creates a folder and its missing parents below `root`, leaving whatever is already
    /// at `relative` for the caller to check (as opening it with `O_DIRECTORY | O_NOFOLLOW`
    /// does): one call whether or not the folder exists, where `makeDirectories` takes two
    /// for a new one.
    static func makeDirectoryUnlessPresent(_ relative: String, under root: String) throws(FolioError) {
        try makeDirectory(root + "/" + relative, stoppingAt: root.utf8.count, checkingExisting: false)
    }

    /// Creates the folder at `path`, and first its parents when they are missing (but not
    /// the first `rootLength` bytes of the path): a new day folder in an existing month
    /// costs one call, not one per level.
    private static func makeDirectory(_ path: String, stoppingAt rootLength: Int, checkingExisting: Bool) throws(FolioError) {
        if mkdir(path, 0o755) == 0 { return }
        switch errno {
        case ENOENT:
            guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")), path.utf8.distance(from: path.utf8.startIndex, to: slash) > rootLength else {
                throw failure(path, "create the folder")
            }
            try makeDirectory(String(path[..<slash]), stoppingAt: rootLength, checkingExisting: true)
            if mkdir(path, 0o755) == 0 { return }
            guard errno == EEXIST else { throw failure(path, "create the folder") }
        case EEXIST:
            guard checkingExisting else { return }
        default:
            throw failure(path, "create the folder")
        }
        guard let info = try status(path), isDirectory(info) else {
            throw .unsafePath(path: path, reason: "is in the way of a folder Folio needs (not a folder itself)")
        }
    }

    /// The names in a folder, without `.` and `..`.
    static func list(_ path: String) throws(FolioError) -> [String] {
        guard let directory = opendir(path) else { throw failure(path, "list") }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// Fsyncs a folder, so the names created, renamed or removed in it are durable.
    static func syncDirectory(_ path: String) throws(FolioError) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(path, "open the folder") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw failure(path, "sync the folder") }
    }

    /// Makes everything written to the file system holding `path` durable with one call.
    static func syncFileSystem(containing path: String) throws(FolioError) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(path, "open the folder") }
        defer { close(descriptor) }
        guard folio_syncfs(descriptor) == 0 else { throw failure(path, "sync the file system of") }
    }

    /// The current wall-clock time, as file systems stamp files.
    static func now() -> timespec {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return time
    }
}
