/// The models a descriptor selects, made a batch at a time as they are read: what
/// `fetch(_:batchSize:)` returns, as SwiftData's `FetchResultsCollection`.
///
/// The documents are selected when the fetch runs; each model is made the first time
/// its batch is reached, and the collection keeps the batches it made. A document deleted
/// after the fetch, or whose `"$entity"` was edited to another class, reads as a placeholder
/// (see `ModelContext.model(for:)`).
public struct FetchResultsCollection<Model: PersistentModel>: RandomAccessCollection {
    /// The selected models' identities, in the fetch's order.
    let identifiers: [PersistentIdentifier]
    /// How many models each trip to the store makes.
    public let batchSize: Int
    private let batches: Batches

    /// The models made so far, by batch; a class so that reading through a `let` collection fills it.
    private final class Batches {
        let context: ModelContext
        var made: [Int: [Model]] = [:]
        init(context: ModelContext) { self.context = context }
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
        if let models = batches.made[batch] { return models[position - batch * batchSize] }
        let range = (batch * batchSize)..<Swift.min((batch + 1) * batchSize, identifiers.count)
        let context = batches.context
        // `model(for:)` gives the registered or stored model, or a placeholder of the entity's
        // class. A document whose "$entity" was edited since the fetch, to a class that is not a
        // `Model`, is no longer one of the fetched models: it reads as a placeholder, as a
        // deleted one does, rather than trap.
        let models = identifiers[range].map { identifier in
            context.model(for: identifier) as? Model ?? context.placeholder(of: Model.self, for: identifier)
        }
        batches.made[batch] = models
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
