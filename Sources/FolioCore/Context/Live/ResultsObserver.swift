import Foundation

/// The models a fetch selects, kept current as the store changes, without SwiftUI: what
/// `@Query` is to a view, for any other code. Named and shaped after SwiftData's
/// `ResultsObserver` (without sections).
///
/// It is `@Observable`: observe `results` (with `withObservationTracking`, or from SwiftUI),
/// and read `lastChange` for what the update changed, as offsets. It updates after every
/// save of any context of the container and every change the container's file watcher
/// finds on disk (another process, a hand edit, `git pull`), on the actor it was made on,
/// which must be the one that uses its context. An update tests only the documents that
/// changed and places them among the rows by their sort keys; a descriptor with a fetch
/// limit or offset, or a predicate or sort that runs on models, is fetched again instead.
///
/// The results are the stored models: unsaved changes of the context show once saved.
///
/// ```swift
/// @MainActor func showSessions(_ container: ModelContainer) throws {
///     let sessions = try ResultsObserver(
///         fetchDescriptor: FetchDescriptor<Note>(sortBy: [SortDescriptor(\.title)]),
///         modelContext: container.mainContext)
///     print(sessions.results.count)
/// }
/// ```
@Observable
public final class ResultsObserver<Element: PersistentModel & SendableMetatype>: @unchecked Sendable {
    // Sendable by construction: everything but the inbox is touched only on `actor`, where
    // the initializer ran and every update is sent.

    /// The selected models, in the descriptor's order; each is made when first read.
    public private(set) var results: FetchResultsCollection<Element>
    /// What the last update changed; empty until something changed.
    public private(set) var lastChange = ResultsChange()
    /// Why the last update failed (a document that cannot be read), or `nil`; the next
    /// update that succeeds clears it.
    public private(set) var error: FolioError?

    /// The fetch the results follow.
    @ObservationIgnored public let fetchDescriptor: FetchDescriptor<Element>
    /// The context whose models the results are.
    @ObservationIgnored public let modelContext: ModelContext
    @ObservationIgnored private let actor: any Actor
    /// The query kept current row by row, or `nil` when each update fetches again.
    @ObservationIgnored private let query: DocumentQuery?
    @ObservationIgnored private var rows: [LiveRow] = []
    /// The results' identities, in order, kept beside the rows.
    @ObservationIgnored private var identities: [UUID]
    @ObservationIgnored private var identifiers: [PersistentIdentifier] = []
    /// The entity whose folder holds the results' documents.
    @ObservationIgnored private let folder: String
    @ObservationIgnored private let inbox = ChangeInbox()
    @ObservationIgnored private var listenerKey = 0

    /// Results for a descriptor, in a context, updated on the actor this runs on.
    ///
    /// - Throws: `.misuse` when made off an actor, for a model the container does not know or a
    ///   predicate that cannot run; otherwise what the first fetch throws (`.fileSystem`,
    ///   `.unsafePath`, `.invalidStore`, `.locked`, or a document's error when unreadable
    ///   documents are not skipped).
    public init(
        fetchDescriptor: FetchDescriptor<Element>, modelContext: ModelContext,
        isolation: isolated (any Actor)? = #isolation
    ) throws(FolioError) {
        guard let isolation else {
            throw .misuse(
                "a ResultsObserver updates on the actor it is made on (the main actor, a @ModelActor); make it on one")
        }
        actor = isolation
        self.fetchDescriptor = fetchDescriptor
        self.modelContext = modelContext
        let plan = try modelContext.fetchPlan(for: fetchDescriptor)
        let entity = try modelContext.entity(of: Element.self)
        folder = entity.storageName
        if let query = plan.query, query.offset == 0, query.limit == nil,
            !modelContext.opened.store(of: entity.name).readsOtherDocuments(query)
        {
            self.query = query
            rows = try modelContext.opened.store(of: entity.name).liveRows(query)
            identities = rows.map(\.id)
        } else {
            self.query = nil
            do { identities = try modelContext.fetchIdentifiers(fetchDescriptor).map(\.id) } catch {
                throw error as? FolioError ?? .misuse("the fetch cannot run: \(error)")
            }
        }
        results = FetchResultsCollection(identifiers: [], batchSize: Self.batchSize, context: modelContext)
        identifiers = identities.map { PersistentIdentifier(entityName: folder, id: $0) }
        results = FetchResultsCollection(identifiers: identifiers, batchSize: Self.batchSize, context: modelContext)
        let (inbox, contextInbox) = (inbox, modelContext.inbox)
        listenerKey = modelContext.opened.listeners.add { [weak self] change in
            // The context's own listener may be told after this one: the update merges these
            // documents into its models whichever comes first, or its models would keep the
            // old values while the results say they changed.
            contextInbox.add(change.documents)
            // One update at a time is on its way: it takes whatever came before it runs, so a
            // burst of changes (another context saving in a loop) is not one job on the
            // observer's actor per change.
            if inbox.add(change.documents) { self?.sendUpdate() }
        }
    }

    /// Sends an update to the observer's actor, from the thread that made a change.
    private nonisolated func sendUpdate() {
        let actor = actor
        Task.detached { await self.update(on: actor) }
    }

    /// Results for models matching a predicate, in an order.
    ///
    /// - Throws: what `init(fetchDescriptor:modelContext:isolation:)` throws.
    public convenience init(
        filterBy predicate: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>] = [],
        modelContext: ModelContext, isolation: isolated (any Actor)? = #isolation
    ) throws(FolioError) {
        try self.init(
            fetchDescriptor: FetchDescriptor(predicate: predicate, sortBy: sortBy), modelContext: modelContext,
            isolation: isolation)
    }

    /// Results for a descriptor in a new context of the container.
    ///
    /// - Throws: what `init(fetchDescriptor:modelContext:isolation:)` throws.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element>, modelContainer: ModelContainer,
        isolation: isolated (any Actor)? = #isolation
    ) throws(FolioError) {
        try self.init(
            fetchDescriptor: fetchDescriptor, modelContext: ModelContext(modelContainer), isolation: isolation)
    }

    deinit { modelContext.opened.listeners.remove(listenerKey) }

    /// How many models the results make at a time as they are read.
    private static var batchSize: Int { 100 }

    /// Takes in the changes gathered since the last update was sent: the first change after
    /// an update took the inbox sends the next.
    private func update(on actor: isolated any Actor) {
        let documents = inbox.take()
        let touched = Set(documents.filter { $0.entityName == folder }.map(\.id))
        // A fetch run again may change for a related document too; a row kept by itself only for its own.
        guard query == nil ? !documents.isEmpty : !touched.isEmpty else { return }
        modelContext.mergeChanges()
        let change: ResultsChange
        do {
            if let query {
                change = try place(touched, query: query)
            } else {
                let next = try modelContext.fetchIdentifiers(fetchDescriptor).map(\.id)
                change = ResultsChange.between(identities, next, touched: touched)
                identities = next
                identifiers = next.map { PersistentIdentifier(entityName: folder, id: $0) }
            }
        } catch {
            self.error = error as? FolioError ?? .misuse("the fetch cannot run: \(error)")
            return
        }
        if self.error != nil { self.error = nil }
        guard !change.isEmpty else { return }
        results = FetchResultsCollection(identifiers: identifiers, batchSize: Self.batchSize, context: modelContext)
        lastChange = change
    }

    /// Takes the touched documents' rows out and puts back those the query still selects,
    /// each where its sort keys place it, and returns the change. The other rows are not
    /// looked at but to shift them: a change costs the work of the changed documents.
    private func place(_ touched: Set<UUID>, query: DocumentQuery) throws(FolioError) -> ResultsChange {
        let fresh = try modelContext.opened.store(of: query.entity).liveRows(query, among: touched)
        // Few identities are touched at a time: comparing each row with them is cheaper than hashing it.
        let few = Array(touched)
        var before: [UUID: Int] = [:]
        for (offset, id) in identities.enumerated() where few.contains(id) { before[id] = offset }
        for offset in before.values.sorted(by: >) {
            rows.remove(at: offset)
            identities.remove(at: offset)
            identifiers.remove(at: offset)
        }
        for row in fresh.values.sorted(by: { $0.precedes($1, under: query.sort) }) {
            let offset = place(of: row, sort: query.sort)
            rows.insert(row, at: offset)
            identities.insert(row.id, at: offset)
            identifiers.insert(PersistentIdentifier(entityName: folder, id: row.id), at: offset)
        }
        var after: [UUID: Int] = [:]
        if !fresh.isEmpty {
            for (offset, id) in identities.enumerated() where few.contains(id) && fresh[id] != nil {
                after[id] = offset
            }
        }
        return ResultsChange.placing(before: before, after: after)
    }

    /// Where a row goes among the rows, by a binary search on the query's order.
    private func place(of row: LiveRow, sort: [DocumentQuery.SortKey]) -> Int {
        var low = 0
        var high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if rows[middle].precedes(row, under: sort) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
