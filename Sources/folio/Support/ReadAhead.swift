import FolioCore
import Foundation

/// Values made on a second thread a few batches ahead of the thread that takes them: an
/// import reads and checks its next records while the ones before them are written.
///
/// `make` runs on that thread from the first `next` until it returns `nil` or throws, or
/// until `finish`; whatever it captures is that thread's alone meanwhile, and the caller's
/// again once `next` has returned `nil` or thrown, or `finish` has returned. The values come
/// out in the order made, and what `make` throws comes out after the values made before it,
/// just as calling `make` in place of `next` would give them.
final class ReadAhead<Element>: @unchecked Sendable {
    private let make: () throws(FolioError) -> Element?
    private let batchSize: Int
    private let depth: Int
    /// Guards `batches`, `end` and `isStopped`, and signals each change of them.
    private let condition = NSCondition()
    private var batches: [[Element]] = []
    /// How the maker ended: `nil` while it may still make values.
    private var end: Result<Void, FolioError>?
    private var isStopped = false
    /// The taker's own: the batch it is taking from, and where.
    private var current: [Element] = []
    private var position = 0
    private var isStarted = false

    /// A read-ahead of at most `depth` batches of `batchSize` values, started by the first `next`.
    init(batchSize: Int = 64, depth: Int = 4, _ make: @escaping () throws(FolioError) -> Element?) {
        (self.make, self.batchSize, self.depth) = (make, batchSize, depth)
    }

    /// The next value `make` made; `nil` after the last, or what it threw.
    func next() throws(FolioError) -> Element? {
        if position < current.count {
            defer { position += 1 }
            return current[position]
        }
        if !isStarted { start() }
        condition.lock()
        while batches.isEmpty && end == nil { condition.wait() }
        guard batches.isEmpty else {
            current = batches.removeFirst()
            condition.broadcast()
            condition.unlock()
            position = 1
            return current[0]
        }
        let ended = end!
        condition.unlock()
        current = []
        try ended.get()
        return nil
    }

    /// Stops `make` after the value it is making, and waits until it has: what it captured
    /// is the caller's again. Values made and not taken are dropped.
    func finish() {
        condition.lock()
        isStopped = true
        condition.broadcast()
        while isStarted && end == nil { condition.wait() }
        batches = []
        condition.unlock()
    }

    private func start() {
        isStarted = true
        let thread = Thread { [self] in produce() }
        // A record is read by recursion as deep as its nesting: the main thread's stack, not a
        // secondary thread's half a megabyte.
        thread.stackSize = 8 << 20
        thread.start()
    }

    private func produce() {
        var batch: [Element] = []
        batch.reserveCapacity(batchSize)
        var ended: Result<Void, FolioError> = .success(())
        while true {
            let made: Element?
            do throws(FolioError) { made = try make() } catch {
                ended = .failure(error)
                break
            }
            guard let made else { break }
            batch.append(made)
            guard batch.count == batchSize else { continue }
            condition.lock()
            while batches.count >= depth && !isStopped { condition.wait() }
            let stopped = isStopped
            if !stopped { batches.append(batch) }
            condition.broadcast()
            condition.unlock()
            if stopped { break }
            batch.removeAll(keepingCapacity: true)
        }
        condition.lock()
        if !batch.isEmpty && !isStopped { batches.append(batch) }
        end = ended
        condition.broadcast()
        condition.unlock()
    }
}
