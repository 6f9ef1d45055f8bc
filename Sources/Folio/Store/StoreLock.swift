import FolioJSON
import Glibc

/// The store's `.folio/lock`: one writer at a time across processes, readers beside each other.
///
/// An `flock` on an open file: the kernel releases it when the process dies, so a
/// crashed writer never leaves the store locked. Writers take it exclusively for a
/// whole commit; readers take it shared while they look at the tree, so they never
/// see half a transaction.
final class StoreLock: Sendable {
    enum Mode { case shared, exclusive }

    let path: String
    private let descriptor: Int32
    /// How long to wait for another process before giving up.
    let timeoutSeconds: Double

    init(path: String, timeoutSeconds: Double = 60) throws(FolioError) {
        self.path = path
        self.timeoutSeconds = timeoutSeconds
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else {
            throw .fileSystem(path: path, operation: "open the lock file", reason: FileBytes.systemError())
        }
    }

    deinit { close(descriptor) }

    /// Runs `body` holding the lock.
    func withLock<T>(_ mode: Mode, _ body: () throws(FolioError) -> T) throws(FolioError) -> T {
        try acquire(mode)
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    private func acquire(_ mode: Mode) throws(FolioError) {
        let operation = (mode == .exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB
        let start = FileSystem.now()
        var pause: useconds_t = 200
        while flock(descriptor, operation) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw .fileSystem(path: path, operation: "lock", reason: FileBytes.systemError())
            }
            let now = FileSystem.now()
            let waited = Double(now.tv_sec - start.tv_sec) + Double(now.tv_nsec - start.tv_nsec) / 1e9
            if waited > timeoutSeconds { throw .locked(path: path, waitedSeconds: waited) }
            usleep(pause)
            pause = min(pause * 2, 2_000)
        }
    }
}
