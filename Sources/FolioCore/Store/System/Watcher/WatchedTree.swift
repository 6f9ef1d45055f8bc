import CFolioSystem
import Glibc

/// The watched folders by watch descriptor and the changes not yet reported: the state of the
/// watcher's thread (and of `StoreWatcher.init` before it starts).
struct WatchedTree: Sendable {
    /// What each folder's watch reports. `IN_CLOSE_WRITE` stands for writes in place (an
    /// editor), once per file rather than per `write` as `IN_MODIFY` would; renames cover atomic
    /// writers. `IN_ATTRIB` catches `touch` and `chmod`, which change what a refresh sees (a
    /// file's stamp, or whether it can be read) without a write. `IN_EXCL_UNLINK` drops events
    /// of files already unlinked but still open. No `IN_DONT_FOLLOW`: the path given is the
    /// `/proc/self/fd` link to the opened folder, which must be followed (it names no path that
    /// could change); with the flag the kernel watches the link itself, or refuses it with
    /// `IN_ONLYDIR`.
    static let mask = UInt32(
        IN_CREATE | IN_DELETE | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF
            | IN_ATTRIB | IN_ONLYDIR | IN_EXCL_UNLINK)

    /// A folder moved away from `path` (`IN_MOVED_FROM`), whose arrival elsewhere in the tree
    /// (`IN_MOVED_TO` with the same cookie) is not seen yet, and the watches of its subtree.
    struct Move: Sendable {
        var path: String
        var watches: [Int32]
    }

    let inotify: Int32
    let root: OpenFolder
    /// Each watched folder's path relative to the store (`""` for the store's own).
    var folders: [Int32: String] = [:]
    var changes = WatchedChanges()
    /// Folders moved away, by cookie, settled when the changes are taken.
    var moves: [UInt32: Move] = [:]
    /// Whether the kernel's queue overflowed since the last rescan.
    var rescanNeeded = false
    /// Whether every folder could be watched (see `StoreWatcher.watchesWholeTree`).
    var complete = true

    init(inotify: Int32, root: OpenFolder) {
        self.inotify = inotify
        self.root = root
    }

    /// Takes in one event; returns whether it is one to report (and so to wait for the
    /// debounce). `name` is the NUL-padded name of the entry in the watched folder, if any.
    mutating func take(watch: Int32, mask: UInt32, cookie: UInt32, name: UnsafeRawBufferPointer) -> Bool {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            changes.overflowed = true
            rescanNeeded = true
            return true
        }
        guard let folder = folders[watch] else { return false }  // a watch already dropped
        if mask & UInt32(IN_IGNORED) != 0 {  // the folder is gone, or its watch was removed
            folders[watch] = nil
            return false
        }
        if mask & UInt32(IN_UNMOUNT) != 0 {
            changes.overflowed = true
            return true
        }
        // A folder's own removal or move is told by its parent's event, whose name says which;
        // only the store's own folder has none. Moved, it is still the store: paths are relative.
        if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
            guard folder.isEmpty, mask & UInt32(IN_DELETE_SELF) != 0 else { return false }
            changes.overflowed = true
            return true
        }
        // No name: an event on the folder itself (`chmod`). A hidden name is not the store's.
        guard let initial = name.first, initial != 0, initial != UInt8(ascii: ".") else { return false }
        let text = String(decoding: name.prefix { $0 != 0 }, as: UTF8.self)
        let path = folder.isEmpty ? text : folder + "/" + text
        guard mask & UInt32(IN_ISDIR) != 0 else {
            changes.paths.insert(path)
            return true
        }
        if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
            let former = mask & UInt32(IN_MOVED_TO) != 0 ? moves.removeValue(forKey: cookie)?.path : nil
            watchTree(at: path, report: true, formerly: former)
            return true
        }
        if mask & UInt32(IN_MOVED_FROM) != 0 {
            // Its watches move with it. Kept until its arrival is seen (next in the queue, when it
            // stays in the tree) or the changes are taken (it left: `settleMoves`).
            let prefix = path + "/"
            let watches = folders.compactMap { $0.value == path || $0.value.hasPrefix(prefix) ? $0.key : nil }
            moves[cookie] = Move(path: path, watches: watches)
            return true
        }
        // A folder removed was empty, its files reported as they were removed; a folder's
        // IN_ATTRIB changes no file.
        return false
    }

    /// Settles folders that moved away and were not seen arriving in the tree: they left it (or
    /// went under a hidden name). Their watches are removed, and as the files they held were
    /// never listed, the report says `overflowed`.
    mutating func settleMoves() {
        guard !moves.isEmpty else { return }
        for move in moves.values {
            for watch in move.watches where folders[watch] != nil {
                inotify_rm_watch(inotify, watch)
                folders[watch] = nil
            }
        }
        moves = [:]
        changes.overflowed = true
    }

    /// The changes gathered so far, leaving none.
    mutating func takeChanges() -> WatchedChanges {
        defer { changes = WatchedChanges() }
        return changes
    }

    /// Opens the folder at `relative` and adds its watch (or finds it, for a folder already
    /// watched, whose path is then updated), returning the folder to list; `nil` when nothing
    /// is there, or a link or a file is: never followed, nor missed. Throws when the folder
    /// cannot be opened or watched.
    mutating func watchFolder(at relative: String) throws(FolioError) -> OpenFolder? {
        let folder: OpenFolder
        do throws(FolioError) {
            guard let opened = try root.folder(at: relative) else { return nil }
            folder = opened
        } catch {
            if error.kind == .unsafePath { return nil }
            throw error
        }
        let inotify = self.inotify
        let (watch, error) = try folder.withDescriptor { descriptor in
            let watch = "/proc/self/fd/\(descriptor)".withCString { inotify_add_watch(inotify, $0, Self.mask) }
            return (watch, errno)
        }
        guard watch >= 0 else {
            let reason =
                switch error {
                case ENOSPC: "the limit of inotify watches (fs.inotify.max_user_watches) is reached"
                case ENOENT: "/proc is not mounted, and Folio adds watches through /proc/self/fd"
                default: String(cString: strerror(error))
                }
            throw .fileSystem(path: root.pathOf(relative), operation: "watch the folder", reason: reason)
        }
        folders[watch] = relative
        return folder
    }

    /// Watches the folder at `relative` and every folder below it but hidden ones, each one's
    /// watch added before it is listed so that nothing made meanwhile goes unseen. With
    /// `report`, the other entries found (files, links) are reported: they may have been made
    /// before the watch existed. `formerly` is the folder's path before a move in the tree,
    /// under which they are reported too, as gone from there. A folder that cannot be watched
    /// is left out and makes the report `overflowed`.
    mutating func watchTree(at relative: String, report: Bool, formerly: String? = nil) {
        var waiting = [relative]
        while let path = waiting.popLast() {
            let opened: OpenFolder?
            do throws(FolioError) {
                opened = try watchFolder(at: path)
            } catch {
                complete = false
                changes.overflowed = true
                continue
            }
            guard let folder = opened else { continue }
            let listed = Self.forEachEntry(in: folder) { name, isFolder in
                guard name.first != UInt8(ascii: "."), isFolder || report else { return }
                let text = String(decoding: name, as: UTF8.self)
                let child = path.isEmpty ? text : path + "/" + text
                if isFolder {
                    waiting.append(child)
                    return
                }
                changes.paths.insert(child)
                // The same place below the folder, under its former path (`relative` ends where a
                // name does, so dropping its bytes leaves whole characters).
                if let formerly {
                    changes.paths.insert(formerly + Substring(child.utf8.dropFirst(relative.utf8.count)))
                }
            }
            if !listed {
                complete = false
                changes.overflowed = true
            }
        }
    }

    /// Visits the whole tree again after the kernel's queue overflowed: folders whose creation
    /// was lost get their watches, every watch its current path, and those of folders no
    /// longer in the tree are removed. The report already says `overflowed`.
    mutating func rescan() {
        rescanNeeded = false
        complete = true
        let before = folders
        folders = [:]
        watchTree(at: "", report: false)
        for watch in before.keys where folders[watch] == nil { inotify_rm_watch(inotify, watch) }
    }

    /// Calls `body` with each name in `folder` but `.` and `..` and whether it is a folder (a
    /// link is not), from the directory entry's type, so that listing a day folder stats none of
    /// its files. False when the folder cannot be read.
    static func forEachEntry(
        in folder: OpenFolder, _ body: (UnsafeBufferPointer<UInt8>, _ isFolder: Bool) -> Void
    ) -> Bool {
        // A descriptor of its own: a folder's read position is shared by every copy of one.
        guard let own = try? folder.withDescriptor({ openat($0, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) }),
            own >= 0
        else { return false }
        guard let directory = fdopendir(own) else {
            close(own)
            return false
        }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                let start = raw.baseAddress!.assumingMemoryBound(to: CChar.self)
                let name = UnsafeBufferPointer(
                    start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), count: strlen(start))
                if name.elementsEqual(".".utf8) || name.elementsEqual("..".utf8) { return }
                var isFolder = Int(entry.pointee.d_type) == DT_DIR
                if Int(entry.pointee.d_type) == DT_UNKNOWN {  // file systems that do not fill it in
                    var info = stat()
                    isFolder =
                        fstatat(dirfd(directory), start, &info, AT_SYMLINK_NOFOLLOW) == 0
                        && FileSystem.isDirectory(info)
                }
                body(name, isFolder)
            }
        }
        return true
    }
}
