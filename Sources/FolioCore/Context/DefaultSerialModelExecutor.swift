import Dispatch

/// The executor `@ModelActor` gives an actor: a serial queue of its own, and the actor's
/// context, as SwiftData's `DefaultSerialModelExecutor`.
///
/// Jobs run one at a time, in the order they came, on a dispatch queue made for this
/// executor alone. Apps share one executor between several actors
/// (`nonisolated var modelExecutor: any ModelExecutor { Shared.writer }`) so that they
/// exclude each other: their methods then never overlap, and the one context is never
/// used from two threads at once.
///
/// `@unchecked Sendable` because a `ModelContext` is not: the context is read only by jobs
/// of the actors this executor runs, one at a time (`ModelActor.modelContext`).
public final class DefaultSerialModelExecutor: SerialModelExecutor, @unchecked Sendable {
    /// The context the work of this executor's actors uses.
    public let modelContext: ModelContext
    /// Where the jobs run, one after another.
    private let queue = DispatchQueue(label: "Folio.DefaultSerialModelExecutor")

    /// An executor running its actors' work on a queue of its own, with this context.
    public init(modelContext: ModelContext) {
        self.modelContext = modelContext
    }

    /// Runs a job of one of this executor's actors after the jobs before it.
    ///
    /// The queue's block keeps neither the job's actor nor this executor, so an actor let go
    /// right after its last call is released at once, and its context with it.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// This executor as an actor's `unownedExecutor` returns it.
    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Traps unless the caller runs on this executor's queue: how `assumeIsolated` and
    /// `preconditionIsolated` tell, from synchronous code, that it runs on the actor.
    public func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}
