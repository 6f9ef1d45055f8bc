import CFolioSystem
import Dispatch
import Glibc
import Synchronization

/// The watcher's thread and what it shares with the `StoreWatcher`: apart from it, so that the
/// running thread holds this and not the watcher, whose `deinit` can then stop it.
final class WatchLoop: Sendable {
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
