import CFolioSystem
import Glibc

/// A folder held open, and every path below it reached through it without following a
/// symbolic link or leaving it: the one way the store touches its files.
///
/// A store is a folder other people's repositories can contain, so every name in it may
/// be hostile: a `.folio/journal` that links to the user's documents, a year folder that
/// links elsewhere. Each path given here is relative to this folder and is resolved by the
/// kernel beneath it, component by component, refusing any link on the way
/// (`folio_open_beneath`); what happens to the last component (`unlinkat`, `renameat`,
/// `mkdirat`) is done relative to its parent, opened the same way. A path never goes
/// through a string lookup of the whole path, so nothing can be swapped in between a
/// check and a use. A link found on the way is an `unsafePath` error that names it.
///
/// Holding the folder open also spares the kernel a walk from `/` for every file, which is
/// most of the cost of a commit that writes thousands of them. Names reach the kernel
/// through `withCString`, which lends a string's own bytes. A class rather than a
/// `~Copyable` struct, so that a transaction can keep the folders it staged into in a list
/// until it renames in them.
final class OpenFolder: Sendable {
    /// The folder's path, for messages only: nothing is opened by it after `init`.
    let path: String
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    /// Opens a store's own folder at `path`, as the user named it (links in the path to
    /// the store are the user's choice and are followed; none below it ever is).
    convenience init(root path: String) throws(FolioError) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { throw .invalidStore(path: path, reason: "no such folder") }
            throw .fileSystem(path: path, operation: "open the store folder", reason: FileBytes.systemError())
        }
        self.init(path: path, descriptor: descriptor)
    }

    deinit { close(descriptor) }

    /// The full path of `relative`, for messages.
    func pathOf(_ relative: String) -> String {
        relative.isEmpty ? path : path + "/" + relative
    }

    private func failure(_ relative: String, _ operation: String) -> FolioError {
        .fileSystem(path: pathOf(relative), operation: operation, reason: FileBytes.systemError())
    }

    /// The error for a resolution of `relative` that failed with `ELOOP`, `EXDEV` or
    /// `ENOTDIR`: it names the link (or the file where a folder was expected) on the way.
    private func refusal(_ relative: String, _ operation: String) -> FolioError {
        let error = errno
        if error == EXDEV { return .unsafePath(path: pathOf(relative), reason: "leaves the store's folder") }
        // Find the first component that is not a real folder: every shorter prefix was
        // already checked to be one, so each lookup here follows no link.
        var prefix = ""
        for component in relative.split(separator: "/", omittingEmptySubsequences: false) {
            prefix = prefix.isEmpty ? String(component) : prefix + "/" + component
            var info = stat()
            guard prefix.withCString({ fstatat(descriptor, $0, &info, AT_SYMLINK_NOFOLLOW) }) == 0 else { break }
            if FileSystem.isSymbolicLink(info) {
                return .unsafePath(path: pathOf(prefix), reason: "is a symbolic link")
            }
            if prefix.utf8.count < relative.utf8.count, !FileSystem.isDirectory(info) {
                return .unsafePath(path: pathOf(prefix), reason: "is a file where Folio needs a folder")
            }
        }
        errno = error
        return failure(relative, operation)
    }

    /// Opens `relative` beneath this folder; `-1` with `errno` set on failure.
    private func openDescriptor(_ relative: String, _ flags: Int32, mode: mode_t = 0) -> Int32 {
        if relative.isEmpty { return openat(descriptor, ".", flags | O_CLOEXEC, mode) }
        return relative.withCString { folio_open_beneath(descriptor, $0, flags, mode) }
    }

    /// Splits `relative` at its last `/` and opens the folder before it (`self` for a bare name).
    private func parent(of relative: String, _ operation: String) throws(FolioError) -> (
        folder: OpenFolder, name: String
    )? {
        guard let slash = relative.utf8.lastIndex(of: UInt8(ascii: "/")) else { return (self, relative) }
        guard let folder = try folder(at: String(relative[..<slash])) else { return nil }
        return (folder, String(relative[relative.utf8.index(after: slash)...]))
    }

    /// Calls `body` with the folder's descriptor, for walks that work on raw descriptors
    /// (`TreeListing`); `body` must not close it or keep it. Reading the folder through it
    /// moves a read position every copy of the descriptor shares: walk a `folder(at: "")`
    /// of its own.
    func withDescriptor<T>(_ body: (Int32) throws(FolioError) -> T) throws(FolioError) -> T {
        try body(descriptor)
    }

    // MARK: Folders

    /// The folder at `relative` (this one for `""`), or `nil` when nothing is there; a link
    /// on the way or a file in its place is refused.
    func folder(at relative: String) throws(FolioError) -> OpenFolder? {
        let opened = openDescriptor(relative, O_RDONLY | O_DIRECTORY)
        guard opened >= 0 else {
            if errno == ENOENT { return nil }
            if errno == ELOOP || errno == EXDEV || errno == ENOTDIR { throw refusal(relative, "open the folder") }
            throw failure(relative, "open the folder")
        }
        return OpenFolder(path: pathOf(relative), descriptor: opened)
    }

    /// The folder at `relative`, created with its missing parents; anything but a real
    /// folder on the way is refused.
    @discardableResult
    func makeFolders(_ relative: String) throws(FolioError) -> OpenFolder {
        if let existing = try folder(at: relative) { return existing }  // the common case: one call
        guard let (parent, name) = try parent(of: relative, "create the folder") else {
            let slash = relative.utf8.lastIndex(of: UInt8(ascii: "/"))!
            try makeFolders(String(relative[..<slash]))
            return try makeFolders(relative)
        }
        if name.withCString({ mkdirat(parent.descriptor, $0, 0o755) }) != 0, errno != EEXIST {
            throw failure(relative, "create the folder")
        }
        guard let made = try folder(at: relative) else { throw failure(relative, "create the folder") }
        return made
    }

    /// The names in the folder at `relative` (this one for `""`), without `.` and `..`.
    func list(_ relative: String = "") throws(FolioError) -> [String] {
        let opened = openDescriptor(relative, O_RDONLY | O_DIRECTORY)
        guard opened >= 0 else {
            if errno == ELOOP || errno == EXDEV || errno == ENOTDIR { throw refusal(relative, "list") }
            throw failure(relative, "list")
        }
        guard let directory = fdopendir(opened) else {
            close(opened)
            throw failure(relative, "list")
        }
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

    /// Removes the empty folder at `relative`; one already gone is fine.
    func removeFolder(_ relative: String) throws(FolioError) {
        guard let (parent, name) = try parent(of: relative, "remove the folder") else { return }
        guard name.withCString({ unlinkat(parent.descriptor, $0, AT_REMOVEDIR) }) == 0 || errno == ENOENT else {
            throw failure(relative, "remove the folder")
        }
    }

    /// Why nothing can be written in this folder (a read-only file system, no permission),
    /// or `nil` when something can.
    func whyNotWritable() -> String? {
        faccessat(descriptor, ".", W_OK, AT_EACCESS) == 0 ? nil : FileBytes.systemError()
    }

    /// Makes this folder's entries (a rename into it) durable.
    func sync() throws(FolioError) {
        guard fsync(descriptor) == 0 else { throw failure("", "sync the folder") }
    }

    /// Makes everything written to the file system holding this folder durable with one call.
    func syncFileSystem() throws(FolioError) {
        guard folio_syncfs(descriptor) == 0 else { throw failure("", "sync the file system of") }
    }

    /// Whether the folder itself was removed since it was opened (its last link is gone, as
    /// when `rm -r` took it): nothing can be made in it any more.
    var isRemoved: Bool {
        var info = stat()
        return fstat(descriptor, &info) == 0 && info.st_nlink == 0
    }

    // MARK: Files

    /// What is at `relative`, as `lstat` sees it (a link is reported, not followed), or
    /// `nil` when nothing is there.
    func status(of relative: String) throws(FolioError) -> stat? {
        var info = stat()
        if !relative.utf8.contains(UInt8(ascii: "/")) {  // one name: nothing on the way to follow
            if relative.withCString({ fstatat(descriptor, $0, &info, AT_SYMLINK_NOFOLLOW) }) == 0 { return info }
            if errno == ENOENT { return nil }
            throw failure(relative, "inspect")
        }
        let opened = openDescriptor(relative, FOLIO_O_PATH | O_NOFOLLOW)
        guard opened >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            if errno == ELOOP || errno == EXDEV { throw refusal(relative, "inspect") }
            throw failure(relative, "inspect")
        }
        defer { close(opened) }
        guard fstat(opened, &info) == 0 else { throw failure(relative, "inspect") }
        return info
    }

    /// A regular file's bytes and stamp, taken from the same open file so they agree.
    /// Anything but a regular file is refused without blocking on it (see `openFile`).
    func readFile(_ relative: String, limit: Int) throws(FolioError) -> (bytes: [UInt8], stamp: FileStamp) {
        let opened = openDescriptor(relative, O_RDONLY | O_NONBLOCK)
        guard opened >= 0 else {
            if errno == ELOOP || errno == EXDEV || errno == ENOTDIR { throw refusal(relative, "open") }
            throw failure(relative, "open")
        }
        defer { close(opened) }
        var info = stat()
        guard fstat(opened, &info) == 0 else { throw failure(relative, "inspect") }
        guard FileSystem.isRegularFile(info) else { throw notRegular(relative, info) }
        do {
            let bytes = try FileBytes.read(
                descriptor: opened, expectedSize: Int(info.st_size), limit: limit, path: pathOf(relative))
            return (bytes, FileStamp(info))
        } catch {
            throw .unreadableJSON(error)
        }
    }

    /// Creates a new file at `relative` with these bytes, failing if anything is already
    /// there, and returns its stamp; `sync` fsyncs it before closing.
    @discardableResult
    func createFile(_ relative: String, bytes: [UInt8], sync: Bool) throws(FolioError) -> FileStamp {
        try write(relative, bytes: bytes, sync: sync, flags: O_WRONLY | O_CREAT | O_EXCL)
    }

    /// Writes the file at `relative` whole with these bytes, replacing a regular file already
    /// there, and returns its stamp. Only for names nobody else writes (a transaction's
    /// staged files), since the old content is gone before the new is complete.
    func replaceFile(_ relative: String, bytes: [UInt8], sync: Bool = false) throws(FolioError) -> FileStamp {
        try write(relative, bytes: bytes, sync: sync, flags: O_WRONLY | O_CREAT | O_TRUNC)
    }

    /// Opens the regular file at `relative` with `openat`'s `flags` and `mode` (narrowed by
    /// the umask) and returns its descriptor, for the caller to close. Special files are
    /// refused without blocking on them: `O_NONBLOCK` makes a FIFO put in a file's place
    /// fail instead of waiting for a reader or writer.
    func openFile(_ relative: String, flags: Int32, mode: mode_t = 0o644) throws(FolioError) -> Int32 {
        let opened = openDescriptor(relative, flags | O_NONBLOCK, mode: mode)
        guard opened >= 0 else {
            if errno == ELOOP || errno == EXDEV || errno == ENOTDIR { throw refusal(relative, "create") }
            throw failure(relative, "create")
        }
        var info = stat()
        guard fstat(opened, &info) == 0 else {
            close(opened)
            throw failure(relative, "inspect")
        }
        guard FileSystem.isRegularFile(info) else {
            close(opened)
            throw notRegular(relative, info)
        }
        return opened
    }

    /// The error for a special file (a FIFO, a socket, a device) or a folder where Folio
    /// needs a regular file: it says what is there, and that Folio leaves it alone.
    private func notRegular(_ relative: String, _ info: stat) -> FolioError {
        .unsafePath(
            path: pathOf(relative), reason: "is \(FileBytes.kind(of: info)), not a regular file",
            hint: "remove it, or put back the file it stands in for (git restore); Folio opens only regular files"
                + " and folders in a store, without waiting on anything else")
    }

    private func write(_ relative: String, bytes: [UInt8], sync: Bool, flags: Int32) throws(FolioError) -> FileStamp {
        let opened = try openFile(relative, flags: flags)
        return try FileSystem.finishWriting(opened, bytes: bytes, sync: sync, path: pathOf(relative))
    }

    /// Renames `source` to `destination`, both relative to this folder. Neither is followed
    /// if it is a link: a link at `destination` is replaced, never written through.
    func rename(_ source: String, to destination: String) throws(FolioError) {
        guard try renameIfPresent(source, to: destination) else {
            errno = ENOENT
            throw failure(destination, "move \(source) into place at")
        }
    }

    /// Renames `source` to `destination` and returns `true`, or returns `false` when `source`
    /// is not there (already moved, after a crash part way through).
    @discardableResult
    func renameIfPresent(_ source: String, to destination: String) throws(FolioError) -> Bool {
        guard let (from, sourceName) = try parent(of: source, "move"),
            let (to, destinationName) = try parent(of: destination, "move")
        else {
            return false
        }
        let renamed = sourceName.withCString { sourceName in
            destinationName.withCString { renameat(from.descriptor, sourceName, to.descriptor, $0) }
        }
        if renamed == 0 { return true }
        if errno == ENOENT, try status(of: source) == nil { return false }
        throw failure(destination, "move \(source) into place at")
    }

    /// Renames a file written at `source` into place at `destination` and returns its stamp
    /// there, or `nil` when `source` is not there (already moved, after a crash part way).
    ///
    /// A rename sets the file's change time, so the stamp taken when it was written no longer
    /// matches it; it is taken again, and kept only if it shows the same file (see
    /// `FileStamp.isSameFile(renamedAs:)`), else the written one stands and costs a read.
    func moveIntoPlace(_ source: String, to destination: String, written: FileStamp) throws(FolioError)
        -> FileStamp?
    {
        guard try renameIfPresent(source, to: destination) else { return nil }
        return stamp(of: destination, movedWith: written)
    }

    /// The stamp of the file at `relative`, just moved into place with the stamp `written`
    /// (see `moveIntoPlace`).
    func stamp(of relative: String, movedWith written: FileStamp) -> FileStamp {
        guard let info = try? status(of: relative), FileSystem.isRegularFile(info) else { return written }
        let moved = FileStamp(info)
        return written.isSameFile(renamedAs: moved) ? moved : written
    }

    /// Removes the file (or link, never what it points to) at `relative`; one already gone is fine.
    func removeFile(_ relative: String) throws(FolioError) {
        guard let (parent, name) = try parent(of: relative, "remove") else { return }
        guard name.withCString({ unlinkat(parent.descriptor, $0, 0) }) == 0 || errno == ENOENT else {
            throw failure(relative, "remove")
        }
    }
}
