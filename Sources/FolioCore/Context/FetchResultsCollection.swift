/// The models a descriptor selects, made a batch at a time as they are read: what
/// `fetch(_:batchSize:)` returns, as SwiftData's `FetchResultsCollection`.
///
/// The documents are selected when the fetch runs; each model is made the first time
/// its batch is reached. The collection keeps the last few batches it reached
/// (`keptBatches`): a read through many models holds a window of them, not all. A model of
/// a batch let go is released unless something else holds it (the app, or its unsaved
/// changes); read again, it is the same model if it lives, else made anew. A document deleted
/// after the fetch, or whose `"$entity"` was edited to another class, reads as a placeholder
/// (see `ModelContext.model(for:)`).
public struct FetchResultsCollection<Model: PersistentModel>: RandomAccessCollection {
    /// The selected models' identities, in the fetch's order.
    let identifiers: [PersistentIdentifier]
    /// How many models each trip to the store makes.
    public let batchSize: Int
    private let batches: Batches

    /// How many batches the collection keeps made at once.
    static var keptBatches: Int { 3 }

    /// The batches made and kept, the oldest reached first; a class so that reading through
    /// a `let` collection fills it.
    private final class Batches {
        let context: ModelContext
        var made: [(batch: Int, models: [Model], registered: [PersistentIdentifier])] = []
        init(context: ModelContext) { self.context = context }

        /// The models of a batch kept, marked as reached last.
        func models(of batch: Int) -> [Model]? {
            guard let index = made.firstIndex(where: { $0.batch == batch }) else { return nil }
            if index != made.count - 1 { made.append(made.remove(at: index)) }
            return made[made.count - 1].models
        }

        /// Keeps a batch just made, and lets the oldest go past `keptBatches`: its models
        /// leave the context, as `enumerate` lets its batches go, unless held elsewhere.
        func keep(_ models: [Model], of batch: Int, registered: [PersistentIdentifier]) {
            made.append((batch, models, registered))
            guard made.count > FetchResultsCollection.keptBatches else { return }
            context.letGo(removeOldest())
        }

        /// Takes the oldest batch out, returning the models it registered. Its own function,
        /// so that no reference to the batch's models outlives the call: `letGo` keeps those
        /// something still holds.
        private func removeOldest() -> [PersistentIdentifier] { made.removeFirst().registered }
    }

    init(identifiers: [PersistentIdentifier], batchSize: Int, context: ModelContext) {
        self.identifiers = identifiers
        self.batchSize = Swift.max(batchSize, 1)
        batches = Batches(context: context)
    }

    /// The position of the first model: always 0.
    public var startIndex: Int { 0 }
    /// The position past the last model: the number of models fetched.
    public var endIndex: Int { identifiers.count }

    /// The model at a position, made with the rest of its batch the first time the batch is
    /// reached; a position outside `startIndex..<endIndex` stops the program.
    public subscript(position: Int) -> Model {
        precondition(
            identifiers.indices.contains(position),
            "index \(position) is outside the \(identifiers.count) fetched models")
        let batch = position / batchSize
        if let models = batches.models(of: batch) { return models[position - batch * batchSize] }
        let range = (batch * batchSize)..<Swift.min((batch + 1) * batchSize, identifiers.count)
        let context = batches.context
        let registered = identifiers[range].filter { context.registered[$0] == nil }
        // `model(for:)` gives the registered or stored model, or a placeholder of the entity's
        // class. A document whose "$entity" was edited since the fetch, to a class that is not a
        // `Model`, is no longer one of the fetched models: it reads as a placeholder, as a
        // deleted one does, rather than trap.
        let models = identifiers[range].map { identifier in
            context.model(for: identifier) as? Model ?? context.placeholder(of: Model.self, for: identifier)
        }
        batches.keep(models, of: batch, registered: registered)
        return models[position - range.lowerBound]
    }
}

extension ModelContext {
    /// The models a descriptor selects, made `batchSize` at a time as the collection is
    /// read, as SwiftData's `fetch(_:batchSize:)`: for going through many models without
    /// making them all at once. See also `enumerate(_:batchSize:block:)`.
    ///
    /// - Throws: a `FolioError`, as `fetch(_:)` does: `.misuse` for a model the container does not
    ///   know or a predicate that cannot run; a document's `.unreadableJSON`, `.invalidDocument` or
    ///   `.invalidValue` when the configuration does not skip unreadable documents; `.fileSystem`,
    ///   `.unsafePath`, `.invalidStore` or `.locked` when a folder cannot be read.
    public func fetch<Model: PersistentModel>(_ descriptor: FetchDescriptor<Model>, batchSize: Int) throws
        -> FetchResultsCollection<Model>
    {
        FetchResultsCollection(identifiers: try fetchIdentifiers(descriptor), batchSize: batchSize, context: self)
    }

    /// The identities of the models a descriptor selects, as SwiftData's
    /// `fetchIdentifiers(_:batchSize:)`: what `fetchIdentifiers(_:)` gives, all at once.
    ///
    /// So that apps' batched identity fetches compile: identities cost no model to make, so
    /// there is nothing to make a batch at a time, and `batchSize` changes nothing. An array
    /// rather than SwiftData's collection of them, read the same way (count, index, loop).
    public func fetchIdentifiers<Model: PersistentModel>(_ descriptor: FetchDescriptor<Model>, batchSize: Int) throws
        -> [PersistentIdentifier]
    {
        try fetchIdentifiers(descriptor)
    }
}
