import CFolioSystem
import Dispatch
import Glibc
import Synchronization

/// What changed in a store's tree between two reports of a `StoreWatcher`.
///
/// Paths, not kinds of change: whether a file was created, rewritten, renamed or removed, the
/// caller learns by looking (a refresh stats each path), which also settles several changes to
/// one file within one report.
package struct WatchedChanges: Sendable, Equatable {
    /// The files that changed, relative to the store: `Trip/2026/11/26/<UUID>.json`, `folio.json`.
    /// Any other name that is not hidden is reported too (a stray file, a symbolic link put in
    /// the tree): the caller's walk decides what it is. Folders are never listed themselves.
    package var paths: Set<String> = []
    /// Whether changes were missed, so the caller must refresh the whole store: the kernel's
    /// queue overflowed, a folder left the tree with files nobody listed, or a folder could not
    /// be watched (see `StoreWatcher.watchesWholeTree`).
    package var overflowed = false

    /// Whether there is nothing to report.
    package var isEmpty: Bool { paths.isEmpty && !overflowed }
}

/// Watches a store's tree with Linux's inotify and reports which files changed, a burst at a time.
///
/// Every folder of the tree is watched but hidden ones (`.folio`, `.git`), whose events the
/// store has no use for; hidden file names (a commit's `.<name>.staged`) are passed over too,
/// so an atomic write is reported once, by the name it is renamed to. Each folder is opened
/// through `OpenFolder`, which refuses any symbolic link, and its watch is added through
/// `/proc/self/fd/<descriptor>`: the kernel resolves that to the very folder opened, so no path
/// can be swapped for a link in between. A link in the tree is reported by its own path when it
/// appears, and never watched or followed.
///
/// A thread of its own blocks in `poll` on the inotify descriptor and a pipe that `stop` writes
/// to; the poll's timeout serves only the debounce. After the first event it waits until
/// `debounce` passes without another, but never longer than `maximumDelay` after the first,
/// and then calls `onChange` once with everything gathered, on that thread. Events that
/// queued while `onChange` ran count from when it began, since none can say when it came: a
/// caller slower than `maximumDelay` is handed the next burst as soon as it returns, so a
/// sustained burst is reported in batches as large as the caller's pace needs. An event costs
/// its decoding and one insertion into a set; only a folder that appears costs a walk (it may
/// hold files made before its watch existed, which are reported), and a folder that moves a
/// scan of the watches.
///
/// Watches are a per-user kernel resource (`fs.inotify.max_user_watches`). When the limit is
/// reached the watcher goes on with what it watches: the report says `overflowed`, and
/// `watchesWholeTree` turns false, after which the caller must poll (refresh now and then) to
/// see changes in the folders left out. The same holds for a folder that cannot be opened.
///
/// `onChange` runs on the watcher's thread and should hand its work off quickly: events queue
/// in the kernel meanwhile, and past its queue's limit become one `overflowed`. It must not hold
/// the watcher strongly (a cycle that only `stop` breaks); it may call `stop`.
package final class StoreWatcher: Sendable {
    private let loop: WatchLoop

    /// Starts watching the store held open by `folder`; throws when inotify cannot be set up
    /// (too many inotify instances or open files) or the store's own folder cannot be watched.
    ///
    /// The defaults report a single change 15 ms after it, and a burst that goes on (an
    /// editor saving file after file, a long checkout) every 30 ms while it lasts, so that a
    /// live result keeps up with it; a caller pays a refresh per report (100 ms, the earlier
    /// maximum, left each change of such a burst about 50 ms late before any refresh began).
    init(
        folder: OpenFolder, debounce: Duration = .milliseconds(15), maximumDelay: Duration = .milliseconds(30),
        onChange: @escaping @Sendable (WatchedChanges) -> Void
    ) throws(FolioError) {
        let inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard inotify >= 0 else {
            let reason =
                errno == EMFILE
                ? "the limit of inotify instances (fs.inotify.max_user_instances) or of open files is reached"
                : FileBytes.systemError()
            throw .fileSystem(path: folder.path, operation: "watch the store folder", reason: reason)
        }
        var tree = WatchedTree(inotify: inotify, root: folder)
        do throws(FolioError) {
            // The store's own folder must be watched, or the watcher would watch nothing; below
            // it a folder that cannot be is left out and reported as missed (`watchesWholeTree`).
            guard try tree.watchFolder(at: "") != nil else {
                throw FolioError.invalidStore(path: folder.path, reason: "the store's folder is gone")
            }
        } catch {
            close(inotify)
            throw error
        }
        tree.watchTree(at: "", report: false)
        // What the first walk missed is told by `watchesWholeTree`, not by a first report.
        tree.changes = WatchedChanges()

        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            close(inotify)
            throw .fileSystem(path: folder.path, operation: "watch the store folder", reason: FileBytes.systemError())
        }
        // No `pipe2` in Glibc's module: the flags follow at once (a process started by another
        // thread in between would inherit the pipe, which does it no harm).
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        loop = WatchLoop(
            tree: tree, wake: (ends[0], ends[1]), debounce: debounce, maximumDelay: maximumDelay, onChange: onChange)
        guard loop.start() else {
            let reason = FileBytes.systemError()
            close(inotify)
            throw .fileSystem(path: folder.path, operation: "start the thread that watches", reason: reason)
        }
    }

    deinit { loop.stop() }

    /// The name of every watcher's thread, as `/proc/<pid>/task/<tid>/comm` shows it (at most 15 bytes).
    package static let threadName = "folio-watch"

    /// Whether every folder of the tree is watched: false once one could not be (the kernel's
    /// limit of watches, a folder that cannot be opened), until an overflow's rescan watches all
    /// again. While false, changes in the folders left out are not reported: poll instead.
    package var watchesWholeTree: Bool { loop.complete.load(ordering: .relaxed) }

    /// Stops watching: wakes the thread, which closes the inotify descriptor and ends, and waits
    /// for it, so `onChange` is never called once this returns. Called again, or from inside
    /// `onChange` (where it returns at once and the call under way is the last), it does no harm.
    package func stop() { loop.stop() }
}

/// The watcher's thread and what it shares with the `StoreWatcher`: apart from it, so that the
/// running thread holds this and not the watcher, whose `deinit` can then stop it.
private final class WatchLoop: Sendable {
    /// Whether the thread is asked to stop, and who joins it.
    struct Control {
        var stopped = false
        var thread: pthread_t?
        /// Whether the thread's end is taken care of: joined by `stop`, or detached by the thread
        /// itself when it ended first (a failure, or `stop` called from `onChange`).
        var claimed = false
    }

    let inotify: Int32
    let wake: (read: Int32, write: Int32)
    let debounce: Duration
    let maximumDelay: Duration
    let onChange: @Sendable (WatchedChanges) -> Void
    /// The watches `StoreWatcher.init` made, taken by the thread when it starts, which from then
    /// on is the only one to touch them and so needs no lock per event.
    let handoff: Mutex<WatchedTree?>
    let control = Mutex(Control())
    /// Held by a `stop` from outside while it joins the thread, so that a second one waits for
    /// the thread's end too; true once joined.
    let joining = Mutex(false)
    /// `WatchedTree.complete`, for `StoreWatcher.watchesWholeTree`.
    let complete = Atomic(true)

    /// Room for a hundred events and more per `read` (one takes 16 bytes and its name, at
    /// most 272): a burst takes a few reads more, which costs less than 64 KB held by every
    /// container for its life.
    static let bufferSize = 16 * 1024

    init(
        tree: WatchedTree, wake: (read: Int32, write: Int32), debounce: Duration, maximumDelay: Duration,
        onChange: @escaping @Sendable (WatchedChanges) -> Void
    ) {
        self.inotify = tree.inotify
        self.wake = wake
        self.debounce = debounce
        self.maximumDelay = maximumDelay
        self.onChange = onChange
        self.complete.store(tree.complete, ordering: .relaxed)
        self.handoff = Mutex(tree)
    }

    deinit {
        close(wake.read)
        close(wake.write)
    }

    /// Starts the thread, which holds this loop until it ends; false (with `errno`) when it cannot.
    func start() -> Bool {
        let context = Unmanaged.passRetained(self).toOpaque()
        // The handle is stored under the lock the thread takes before it first calls `onChange`,
        // so a `stop` from `onChange` always knows it is on this thread.
        let result = control.withLock { control in
            var thread = pthread_t()
            let result = pthread_create(
                &thread, nil,
                { context in
                    Unmanaged<WatchLoop>.fromOpaque(context!).takeRetainedValue().run()
                    return nil
                }, context)
            if result == 0 { control.thread = thread }
            return result
        }
        guard result == 0 else {
            Unmanaged<WatchLoop>.fromOpaque(context).release()
            errno = result
            return false
        }
        return true
    }

    /// See `StoreWatcher.stop`.
    func stop() {
        let (first, onLoopThread) = control.withLock { control in
            defer { control.stopped = true }
            return (!control.stopped, control.thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false)
        }
        if first {
            var byte: UInt8 = 1
            _ = write(wake.write, &byte, 1)
        }
        // From `onChange` the thread cannot be joined, by itself: it ends when `onChange` returns,
        // and detaches itself. Nor may it take `joining`, which another `stop` may hold while it
        // waits for this very thread.
        guard !onLoopThread else { return }
        joining.withLock { joined in
            guard !joined else { return }
            let thread = control.withLock { control -> pthread_t? in
                guard !control.claimed else { return nil }  // it ended already, and detached itself
                control.claimed = true
                return control.thread
            }
            if let thread { pthread_join(thread, nil) }
            joined = true
        }
    }

    /// The thread: waits for events, gathers them and reports them, until `stop`.
    private func run() {
        // Named so that a person (`top -H`, a debugger) and a test can tell the watchers' threads.
        _ = folio_name_thread(StoreWatcher.threadName)
        var tree = handoff.withLock { $0.take() }!  // put there by `init`, taken only here
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.bufferSize, alignment: 16)
        var descriptors = [
            pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
        ]
        // The first and the latest event not yet reported; none while nothing waits.
        var first: ContinuousClock.Instant?
        var latest = ContinuousClock.now
        while true {
            let timeout = first.map { Self.milliseconds(until: min(latest + debounce, $0 + maximumDelay)) } ?? -1
            if poll(&descriptors, 2, timeout) < 0 {
                if errno == EINTR { continue }
                fail(&tree)
                break
            }
            // Only `stop` writes to the pipe.
            if descriptors[1].revents != 0 { break }
            if descriptors[0].revents != 0 {
                guard descriptors[0].revents & Int16(POLLIN) != 0, let relevant = readEvents(into: &tree, buffer) else {
                    fail(&tree)
                    break
                }
                if relevant {
                    latest = .now
                    if first == nil { first = latest }
                }
                complete.store(tree.complete, ordering: .relaxed)
            }
            if let start = first, ContinuousClock.now >= min(latest + debounce, start + maximumDelay) {
                first = nil
                tree.settleMoves()
                complete.store(tree.complete, ordering: .relaxed)
                let changes = tree.takeChanges()
                let began = ContinuousClock.now
                if !changes.isEmpty, !report(changes) { break }
                // What queued while `onChange` ran may have waited since it began: read it at
                // once and count its delay from then, so that a caller slower than
                // `maximumDelay` (a burst's refresh) is handed the next burst as soon as it
                // returns, not `maximumDelay` later. Nothing queued: the poll waits as before.
                guard let relevant = readEvents(into: &tree, buffer) else {
                    fail(&tree)
                    break
                }
                if relevant {
                    latest = .now
                    first = began
                }
                complete.store(tree.complete, ordering: .relaxed)
            }
        }
        buffer.deallocate()
        // Closing an inotify descriptor waits for the kernel to let go of every watch (an
        // RCU grace period: 7 to 20 ms measured), which `stop`, joining this thread, and so a
        // container's deinit would wait for too. Nothing needs it done by then: no watch
        // reports once this loop is left.
        let descriptor = inotify
        DispatchQueue.global(qos: .utility).async { close(descriptor) }
        let detach = control.withLock { control in
            defer { control.claimed = true }
            return !control.claimed
        }
        if detach { pthread_detach(pthread_self()) }
    }

    /// Calls `onChange` unless the watcher was stopped; false when it was. A `stop` that comes
    /// after the check waits for the call to return, as it joins this thread.
    private func report(_ changes: WatchedChanges) -> Bool {
        guard control.withLock({ !$0.stopped }) else { return false }
        onChange(changes)
        return true
    }

    /// The inotify descriptor failed (not expected): whatever happens from now on is unseen, so
    /// the caller is told to refresh and the watcher ends, not watching the whole tree any more.
    private func fail(_ tree: inout WatchedTree) {
        tree.complete = false
        complete.store(false, ordering: .relaxed)
        var changes = tree.takeChanges()
        changes.overflowed = true
        _ = report(changes)
    }

    /// Reads every event queued into `tree`; returns whether any is to be reported, or `nil`
    /// when the descriptor failed.
    private func readEvents(into tree: inout WatchedTree, _ buffer: UnsafeMutableRawBufferPointer) -> Bool? {
        let header = MemoryLayout<inotify_event>.size  // wd, mask, cookie, len; then the name, NUL-padded
        var relevant = false
        while true {
            let count = read(inotify, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                if errno != EAGAIN { return nil }
                break
            }
            if count == 0 { break }
            var offset = 0
            while offset + header <= count {
                let length = Int(buffer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let nameStart = offset + header
                let name = UnsafeRawBufferPointer(rebasing: buffer[nameStart..<min(nameStart + length, count)])
                if tree.take(
                    watch: buffer.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                    mask: buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                    cookie: buffer.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self), name: name)
                {
                    relevant = true
                }
                offset = nameStart + length
            }
        }
        // After an overflow every folder is visited again once the queue is drained, so that
        // folders whose creation was lost get their watches.
        if tree.rescanNeeded { tree.rescan() }
        return relevant
    }

    /// The poll timeout until `deadline`, rounded up so the poll does not wake just before it.
    private static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { return 0 }
        let (seconds, attoseconds) = remaining.components
        guard seconds < Int64(Int32.max / 1000) else { return Int32.max }
        return Int32(seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }
}

/// The watched folders by watch descriptor and the changes not yet reported: the state of the
/// watcher's thread (and of `StoreWatcher.init` before it starts).
private struct WatchedTree: Sendable {
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
