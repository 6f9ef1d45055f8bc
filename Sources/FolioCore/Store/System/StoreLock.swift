import FolioJSON
import Glibc
import Synchronization

/// The store's write lock: one writer at a time across threads and processes, readers
/// beside each other.
///
/// Two locks in one. Across processes, an `flock` on `.folio/lock`, which the kernel
/// releases when a process dies, so a crashed writer never leaves the store locked. Within
/// a process, a reader-writer lock: an `flock` belongs to the open file, not to a thread,
/// so a second thread's `LOCK_EX` on the same file would succeed at once, and one thread's
/// `LOCK_UN` would unlock for all. Every `DocumentStore` of one folder in a process shares
/// one `StoreLock` (found by the folder's device and inode, so two paths to one folder
/// share it too), which is why two containers on one folder in one process are safe.
///
/// Writers take it exclusively for a whole commit; readers take it shared while they
/// look at the tree, so they never see half a transaction. The process takes its shared
/// `flock` when its first reader arrives and gives it back when its last one leaves.
final class StoreLock: Sendable {
    enum Mode { case shared, exclusive }

    /// The lock file's path, for messages.
    let path: String
    /// The lock file, or `nil` when it cannot be opened because the store is read-only
    /// (a read-only mount or checkout): then reads take no file lock and writes are refused.
    private let descriptor: Int32?
    /// Why reads take no file lock, when they take none.
    let unlockedReason: String?
    /// How long to wait for another process, or another thread, before giving up.
    let timeoutSeconds: Double
    // A pthread lock is made for use from many threads; its memory never moves.
    private nonisolated(unsafe) let threads: UnsafeMutablePointer<pthread_rwlock_t>
    /// How many of this process's threads read under the shared `flock`.
    private let readers = Mutex(0)

    /// Which folder a lock belongs to.
    private struct FolderIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// A reference that does not keep its lock alive.
    private struct WeakLock: @unchecked Sendable {  // a weak reference to a Sendable class
        weak var lock: StoreLock?
    }

    /// The locks of the stores this process has open, by folder.
    private static let open = Mutex<[FolderIdentity: WeakLock]>([:])

    /// The lock of the store in `root`, shared with every other store of that folder the
    /// process has open. `timeoutSeconds` is taken from the first opener.
    static func forStore(in root: OpenFolder, timeoutSeconds: Double) throws(FolioError) -> StoreLock {
        guard let info = try root.status(of: ".") else {
            throw .fileSystem(path: root.path, operation: "inspect", reason: "the store's folder is gone")
        }
        let identity = FolderIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        return try open.withLock { locks throws(FolioError) in
            if let existing = locks[identity]?.lock { return existing }
            locks = locks.filter { $0.value.lock != nil }
            let lock = try StoreLock(root: root, timeoutSeconds: timeoutSeconds)
            locks[identity] = WeakLock(lock: lock)
            return lock
        }
    }

    private init(root: OpenFolder, timeoutSeconds: Double) throws(FolioError) {
        let relative = ".folio/lock"
        path = root.pathOf(relative)
        // Any Double a caller passes: not a number waits not at all, past a year (or infinity) a
        // year, so no conversion to whole seconds can trap.
        self.timeoutSeconds = timeoutSeconds.isNaN ? 0 : min(max(timeoutSeconds, 0), 365 * 86_400)
        var reason: String?
        do {
            descriptor = try root.openFile(relative, flags: O_RDWR | O_CREAT, mode: 0o644)
        } catch let error where error.kind == .fileSystem {
            // A read-only store can still be read: with the lock file opened for reading when
            // it is there (flock works on it), and without any file lock when it is not.
            let localState = try? root.folder(at: ".folio")
            guard let whyReadOnly = localState?.whyNotWritable() ?? root.whyNotWritable() else { throw error }
            if let readable = try? root.openFile(relative, flags: O_RDONLY) {
                descriptor = readable
            } else {
                descriptor = nil
                reason =
                    "the store is read-only (\(whyReadOnly)), so no lock was taken: a writer elsewhere could be seen part way through"
            }
        }
        unlockedReason = reason
        threads = .allocate(capacity: 1)
        pthread_rwlock_init(threads, nil)
    }

    deinit {
        if let descriptor { close(descriptor) }
        pthread_rwlock_destroy(threads)
        threads.deallocate()
    }

    /// Runs `body` holding the lock.
    func withLock<T>(_ mode: Mode, _ body: () throws(FolioError) -> T) throws(FolioError) -> T {
        let start = FileSystem.now()
        var deadline = start
        deadline.tv_sec += Int(timeoutSeconds)
        deadline.tv_nsec += Int((timeoutSeconds - timeoutSeconds.rounded(.down)) * 1e9)
        if deadline.tv_nsec >= 1_000_000_000 {
            deadline.tv_sec += 1
            deadline.tv_nsec -= 1_000_000_000
        }
        let taken =
            mode == .exclusive
            ? pthread_rwlock_timedwrlock(threads, &deadline) : pthread_rwlock_timedrdlock(threads, &deadline)
        guard taken == 0 else {
            if taken == ETIMEDOUT { throw .locked(path: path, waitedSeconds: timeoutSeconds) }
            throw .fileSystem(path: path, operation: "lock", reason: String(cString: strerror(taken)))
        }
        defer { pthread_rwlock_unlock(threads) }
        switch mode {
        case .exclusive:
            guard let descriptor else {
                throw .fileSystem(
                    path: path, operation: "lock the store for writing", reason: unlockedReason ?? "read-only")
            }
            try acquire(descriptor, LOCK_EX, since: start)
            defer { flock(descriptor, LOCK_UN) }
            return try body()
        case .shared:
            guard let descriptor else { return try body() }
            try readers.withLock { count throws(FolioError) in
                if count == 0 { try acquire(descriptor, LOCK_SH, since: start) }
                count += 1
            }
            defer {
                readers.withLock { count in
                    count -= 1
                    if count == 0 { flock(descriptor, LOCK_UN) }
                }
            }
            return try body()
        }
    }

    /// Takes the file lock, waiting for other processes up to the timeout (counted from `start`).
    private func acquire(_ descriptor: Int32, _ operation: Int32, since start: timespec) throws(FolioError) {
        var pause: useconds_t = 100
        while flock(descriptor, operation | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw .fileSystem(path: path, operation: "lock", reason: FileBytes.systemError())
            }
            let now = FileSystem.now()
            let waited = Double(now.tv_sec - start.tv_sec) + Double(now.tv_nsec - start.tv_nsec) / 1e9
            if waited > timeoutSeconds { throw .locked(path: path, waitedSeconds: waited) }
            usleep(pause)
            // Another process saving over and over leaves the lock free only between two of
            // its commits, a fraction of a millisecond each: polled every 2 ms, a refresh of its
            // saves missed tens of them. So the first second polls often; a longer wait backs off.
            if waited >= 1 { pause = min(pause * 2, 2_000) }
        }
    }
}
