import Foundation
import Synchronization

/// Counts the arrivals of history transactions that other programs wrote into a container's
/// stores: SwiftData's `HistoryObserver` (iOS 27), fed by the container's file watcher.
///
/// It listens for `ModelContainer.remoteChange`, which the container posts when it finds its
/// stores changed on disk (another process's save, the `folio` tool, a hand edit, `git
/// pull`). Each time, on the actor it was made on, it reads the history after its
/// `historyTokens`, and when a new transaction touches one of `observedModels` (any model
/// when empty) and was written by one of `authors` (anyone when empty), it adds one to
/// `eventCounter`. It is `@Observable`: observe `eventCounter`, then fetch the history after
/// the tokens you kept, as SwiftData apps do.
///
/// ```swift
/// @MainActor func watchNotes(_ container: ModelContainer) throws -> HistoryObserver {
///     try HistoryObserver(observedModels: [Note.self], modelContainer: container)
/// }
/// ```
///
/// The container's own saves are not remote changes: observe them with `ResultsObserver` or
/// `ModelContext.didSave`. A store whose configuration does not watch files is seen after
/// `ModelContainer.refresh()`.
@Observable
public final class HistoryObserver: @unchecked Sendable {
    // Sendable by construction: everything but `updateSent` is touched only on `actor`,
    // where the initializer ran and every update runs.

    /// How many times the observer found relevant new transactions; 0 at first.
    public private(set) var eventCounter = 0
    /// Where the observer is in each store's history, by the store's identifier: the newest
    /// transaction it has looked at, relevant or not.
    public private(set) var historyTokens: [String: any HistoryToken]

    /// The models whose changes count (a class counts its subclasses' too); any when empty.
    @ObservationIgnored public let observedModels: [any PersistentModel.Type]
    /// The authors whose transactions count; any when empty.
    @ObservationIgnored public let authors: Set<String>
    /// The container whose stores the observer follows.
    @ObservationIgnored public let modelContainer: ModelContainer

    /// The entities whose documents' changes count, or `nil` for all.
    @ObservationIgnored private let entities: Set<String>?
    @ObservationIgnored private let actor: any Actor
    /// Whether an update is on its way to the actor: one at a time, which reads all that came before it.
    @ObservationIgnored private let updateSent = Mutex(false)
    @ObservationIgnored private var subscription: (any NSObjectProtocol)?

    /// An observer of the container's remote changes, on the actor it is made on.
    ///
    /// - Parameters:
    ///   - historyTokens: Where to start in each store's history, by store identifier (as
    ///     `historyTokens` gave them before); `nil` starts after the newest transaction of each.
    ///   - observedModels: The models whose changes count; all when empty.
    ///   - authors: The authors whose transactions count; all when empty.
    /// - Throws: `.misuse` when made off an actor, for a model the container does not hold, or
    ///   for a token that is not Folio's `DefaultHistoryToken`; `.damagedHistory`, `.fileSystem`
    ///   or `.unsafePath` when a store's history cannot be read.
    public init(
        historyTokens: [String: any HistoryToken]? = nil, observedModels: [any PersistentModel.Type] = [],
        authors: Set<String> = [], modelContainer: ModelContainer, isolation: isolated (any Actor)? = #isolation
    ) throws(FolioError) {
        guard let isolation else {
            throw .misuse(
                "a HistoryObserver counts on the actor it is made on (the main actor, a @ModelActor); make it on one")
        }
        actor = isolation
        self.observedModels = observedModels
        self.authors = authors
        self.modelContainer = modelContainer
        entities = try Self.entities(of: observedModels, in: modelContainer.schema)
        self.historyTokens = try Self.startingTokens(historyTokens, of: modelContainer.opened.stores)
        subscription = NotificationCenter.default.addObserver(
            forName: ModelContainer.remoteChange, object: modelContainer, queue: nil
        ) { [weak self] _ in self?.sendUpdate() }
    }

    deinit {
        if let subscription { NotificationCenter.default.removeObserver(subscription) }
    }

    /// Sends one update to the observer's actor, unless one is on its way.
    private nonisolated func sendUpdate() {
        guard
            updateSent.withLock({ sent in
                defer { sent = true }
                return !sent
            })
        else { return }
        let actor = actor
        Task.detached { await self.update(on: actor) }
    }

    /// Reads each store's history after its token, moves the tokens to the newest
    /// transactions, and counts one event when any of them is relevant. A history that no
    /// longer reaches back to a token (deleted, or past its cap) counts too: what changed is
    /// no longer known, so the app should look again.
    private func update(on actor: isolated any Actor) {
        updateSent.withLock { $0 = false }
        var tokens = historyTokens
        var relevant = false
        for store in modelContainer.opened.stores where store.historyLimit > 0 {
            do {
                let identifier = try store.historyIdentifier
                let since = (tokens[identifier] as? DefaultHistoryToken)?.transaction(in: identifier) ?? 0
                let (records, reachesBack) = try store.history(after: since)
                relevant = relevant || !reachesBack || records.contains(where: isRelevant)
                if let newest = records.last?.token {
                    tokens[identifier] = DefaultHistoryToken(store: identifier, transaction: newest)
                }
            } catch {
                // A history that cannot be read now is read at the next change; the tokens stay.
                continue
            }
        }
        historyTokens = tokens
        if relevant { eventCounter += 1 }
    }

    /// Whether a transaction was written by an author the observer counts and changed a
    /// model it observes.
    private func isRelevant(_ record: HistoryRecord) -> Bool {
        if !authors.isEmpty, !authors.contains(record.author ?? "") { return false }
        guard let entities else { return !record.changes.isEmpty }
        return record.changes.contains { entities.contains($0.entity) }
    }

    /// The entities of the observed models and of their subclasses in the schema, or `nil` for all.
    private static func entities(of models: [any PersistentModel.Type], in schema: Schema) throws(FolioError)
        -> Set<String>?
    {
        guard !models.isEmpty else { return nil }
        var names = Set<String>()
        for model in models {
            let name = model.schemaEntity.name
            guard schema.entitiesByName[name] != nil else {
                throw .misuse("the container's schema has no model \(name); observe the models it holds")
            }
            names.insert(name)
        }
        // A subclass's changes count for its superclass: its entity descends from an observed one.
        for entity in schema.entities {
            var ancestor = entity.superentityName
            while let name = ancestor, !names.contains(entity.name) {
                if names.contains(name) { names.insert(entity.name) }
                ancestor = schema.entitiesByName[name]?.superentityName
            }
        }
        return names
    }

    /// The tokens given, checked to be Folio's, or each store's newest transaction.
    private static func startingTokens(_ given: [String: any HistoryToken]?, of stores: [DocumentStore])
        throws(FolioError) -> [String: any HistoryToken]
    {
        if let given {
            for (store, token) in given where !(token is DefaultHistoryToken) {
                throw .misuse(
                    "the history token for store \(store) is a \(type(of: token)); Folio's stores take the DefaultHistoryToken their history gave"
                )
            }
            return given
        }
        var tokens: [String: any HistoryToken] = [:]
        for store in stores where store.historyLimit > 0 {
            tokens[try store.historyIdentifier] = DefaultHistoryToken(
                store: try store.historyIdentifier, transaction: try store.newestHistoryToken)
        }
        return tokens
    }
}
