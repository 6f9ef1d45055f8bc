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
