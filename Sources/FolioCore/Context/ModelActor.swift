/// What runs a model actor's work: the actor's own context, as SwiftData's `ModelExecutor`.
public protocol ModelExecutor: AnyObject, Sendable {
    /// The context the actor's work uses.
    var modelContext: ModelContext { get }
}

/// The executor `@ModelActor` gives an actor: it holds the actor's context.
///
/// `@unchecked Sendable` because a `ModelContext` is not: the actor keeps the executor
/// and reads the context only from its own isolation (`ModelActor.modelContext`), so
/// the context is never used from two places at once.
public final class DefaultSerialModelExecutor: ModelExecutor, @unchecked Sendable {
    public let modelContext: ModelContext

    public init(modelContext: ModelContext) {
        self.modelContext = modelContext
    }
}

/// An actor with a model context of its own, for work off the main actor: what
/// `@ModelActor` makes of an actor, as in SwiftData.
///
/// ```swift
/// @ModelActor
/// actor Importer {
///     func importTimers(_ names: [String]) throws {
///         for name in names { modelContext.insert(Timer(name: name, durationInSeconds: 60)) }
///         try modelContext.save()
///     }
/// }
/// ```
public protocol ModelActor: Actor {
    /// The container the actor's context reads and writes.
    nonisolated var modelContainer: ModelContainer { get }
    /// The executor holding the actor's context.
    nonisolated var modelExecutor: any ModelExecutor { get }
}

extension ModelActor {
    /// The actor's own context.
    public var modelContext: ModelContext { modelExecutor.modelContext }

    /// The model with this identity, from the actor's context or its store, if it is
    /// there and of this type: `self[id, as: Trip.self]`, as in SwiftData.
    public subscript<Model: PersistentModel>(id: PersistentIdentifier, as type: Model.Type) -> Model? {
        modelContext.existingModel(for: id) as? Model
    }
}
