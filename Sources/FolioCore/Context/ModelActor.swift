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
    /// The executor that runs the actor's work and holds its context.
    ///
    /// Actors returning the same executor run one at a time on it, sharing its context.
    nonisolated var modelExecutor: any ModelExecutor { get }
}

extension ModelActor {
    /// The actor's executor, made from its `modelExecutor`, as in SwiftData.
    ///
    /// So the actor's jobs run on its model executor, and actors sharing one take turns.
    /// The executor must be a serial one (a `SerialModelExecutor`, as
    /// `DefaultSerialModelExecutor` is): an actor's jobs run one at a time.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        if let standard = modelExecutor as? DefaultSerialModelExecutor {
            return standard.asUnownedSerialExecutor()
        }
        guard let serial = modelExecutor as? any SerialExecutor else {
            preconditionFailure(
                "a model actor's modelExecutor must be a SerialModelExecutor, as DefaultSerialModelExecutor is")
        }
        return serial.asUnownedSerialExecutor()
    }

    /// The context of the actor's executor: the actor's own, or the one its executor's
    /// actors share.
    public var modelContext: ModelContext { modelExecutor.modelContext }

    /// The model with this identity, from the actor's context or its store, if it is
    /// there and of this type: `self[id, as: Trip.self]`, as in SwiftData.
    public subscript<Model: PersistentModel>(id: PersistentIdentifier, as type: Model.Type) -> Model? {
        modelContext.existingModel(for: id) as? Model
    }
}
