/// What runs a model actor's work, and the context that work uses: SwiftData's `ModelExecutor`.
///
/// An executor as Swift's concurrency means it (an `Executor`), so that an actor whose
/// `modelExecutor` it is runs its jobs there: every actor sharing one executor shares its
/// context, and they take turns on it.
public protocol ModelExecutor: Executor, AnyObject {
    /// The context the actor's work uses.
    var modelContext: ModelContext { get }
}

/// A model executor that runs one job at a time: SwiftData's `SerialModelExecutor`.
///
/// What a `ModelActor`'s `unownedExecutor` is made from, so that actors sharing one never
/// run at once, and the context they share is never used from two threads at once.
public protocol SerialModelExecutor: ModelExecutor, SerialExecutor {}
