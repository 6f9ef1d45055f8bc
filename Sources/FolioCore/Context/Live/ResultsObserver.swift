import Foundation

/// The models a fetch selects, kept current as the store changes, without SwiftUI: what
/// `@Query` is to a view, for any other code. SwiftData's `ResultsObserver` (iOS 27), with
/// its sections: `SectionTitle` is `Never` for results without sections, `String` for
/// results grouped by a `String` (or `String?`) property (see `sections`).
///
/// It is `@Observable`: observe `results` (with `withObservationTracking`, or from SwiftUI),
/// and read `lastChange` for what the update changed, as offsets. It updates after every
/// save of any context of the container and every change the container's file watcher
/// finds on disk (another process, a hand edit, `git pull`), on the actor it was made on,
/// which must be the one that uses its context and sets `filterBy` or `sortBy`. An update
/// tests only the documents that changed and places them among the rows by their sort keys;
/// a descriptor with a fetch limit or offset, or a predicate or sort that runs on models, is
/// fetched again instead.
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
public final class ResultsObserver<
    Element: PersistentModel & SendableMetatype, SectionTitle: Hashable & SendableMetatype
>:
    @unchecked Sendable
{
    // Sendable by construction: everything but the inbox is touched only on `actor`, where
    // the initializer ran and every update is sent.

    /// The selected models, in the descriptor's order; each is made when first read.
    public private(set) var results: FetchResultsCollection<Element>
    /// What the last update changed; empty until something changed.
    public private(set) var lastChange = ResultsChange()
    /// Why the last update failed (a document that cannot be read), or `nil`; the next
    /// update that succeeds clears it.
    public private(set) var error: FolioError?

    /// The fetch the results follow; `filterBy` and `sortBy` change it.
    @ObservationIgnored public private(set) var fetchDescriptor: FetchDescriptor<Element>
    /// The context whose models the results are.
    @ObservationIgnored public let modelContext: ModelContext
    /// The key path whose value names each model's section, or `nil` for results without sections.
    @ObservationIgnored public let sectionBy: PartialKeyPath<Element>?
    /// How the sections are made: each model's title, and the order that keeps a section's models together.
    @ObservationIgnored let sectioning: Sectioning?
    /// The order asked for, after the section's own (`sortBy`).
    @ObservationIgnored private var askedOrder: [SortDescriptor<Element>]?
    @ObservationIgnored private let actor: any Actor
    /// The query kept current row by row, or `nil` when each update fetches again.
    @ObservationIgnored private var query: DocumentQuery?
    @ObservationIgnored private var rows: [LiveRow] = []
    /// The results' identities, in order, kept beside the rows.
    @ObservationIgnored private var identities: [UUID] = []
    @ObservationIgnored private var identifiers: [PersistentIdentifier] = []
    /// The entity whose folder holds the results' documents.
    @ObservationIgnored private let folder: String
    @ObservationIgnored private let inbox = ChangeInbox()
    @ObservationIgnored private var listenerKey = 0

    /// How results are grouped into sections: a model's section title, and the sort by it.
    struct Sectioning {
        /// The title of a model's section.
        var title: (Element) -> SectionTitle
        /// The order by the section's key path, which comes before any other: one descriptor,
        /// kept in an array because an optimized build that copies a `SortDescriptor` by value
        /// in generic code links to a symbol Linux's Foundation does not export.
        var order: [SortDescriptor<Element>]
    }

    /// The predicate that selects the results. Setting it fetches again at once, on the
    /// caller's actor (the observer's): the results are current when the setter returns,
    /// and a fetch that fails sets `error`.
    public var filterBy: Predicate<Element>? {
        get { fetchDescriptor.predicate }
        set {
            fetchDescriptor.predicate = newValue
            fetchAgain()
        }
    }

    /// The order of the results, after the section's when there are sections. Setting it
    /// fetches again at once, as `filterBy` does.
    public var sortBy: [SortDescriptor<Element>]? {
        get { askedOrder }
        set {
            askedOrder = newValue
            fetchDescriptor.sortBy = (sectioning?.order ?? []) + (newValue ?? [])
            fetchAgain()
        }
    }

    /// The results grouped into sections by `sectionBy`, in the order each section's first
    /// model has in the results; `nil` for results without sections. Made from `results`
    /// when read, so it changes as they do.
    public var sections: SectionedResults<Element, SectionTitle>? {
        sectioning.map { SectionedResults(results, title: $0.title) }
    }

    /// Results for a descriptor, in a context, updated on the actor this runs on, grouped
    /// by `sectioning` when given.
    ///
    /// - Throws: `.misuse` when made off an actor, for a model the container does not know or a
    ///   predicate that cannot run; otherwise what the first fetch throws (`.fileSystem`,
    ///   `.unsafePath`, `.invalidStore`, `.locked`, or a document's error when unreadable
    ///   documents are not skipped).
    init(
        fetchDescriptor: FetchDescriptor<Element>, sectionBy: PartialKeyPath<Element>?, sectioning: Sectioning?,
        modelContext: ModelContext, isolation: isolated (any Actor)?
    ) throws(FolioError) {
        guard let isolation else {
            throw .misuse(
                "a ResultsObserver updates on the actor it is made on (the main actor, a @ModelActor); make it on one")
        }
        actor = isolation
        askedOrder = fetchDescriptor.sortBy
        var descriptor = fetchDescriptor
        if let sectioning { descriptor.sortBy = sectioning.order + descriptor.sortBy }
        self.fetchDescriptor = descriptor
        self.sectionBy = sectionBy
        self.sectioning = sectioning
        self.modelContext = modelContext
        folder = try modelContext.entity(of: Element.self).storageName
        results = FetchResultsCollection(identifiers: [], batchSize: Self.batchSize, context: modelContext)
        try fetch()
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

    /// Fetches by the descriptor as it is: the rows kept current one by one when the query
    /// allows, else the identities an update fetches again.
    private func fetch() throws(FolioError) {
        let plan = try modelContext.fetchPlan(for: fetchDescriptor)
        let entity = try modelContext.entity(of: Element.self)
        if let query = plan.query, query.offset == 0, query.limit == nil,
            !modelContext.opened.store(of: entity.name).readsOtherDocuments(query)
        {
            self.query = query
            rows = try modelContext.opened.store(of: entity.name).liveRows(query)
            identities = rows.map(\.id)
        } else {
            query = nil
            rows = []
            do { identities = try modelContext.fetchIdentifiers(fetchDescriptor).map(\.id) } catch {
                throw error as? FolioError ?? .misuse("the fetch cannot run: \(error)")
            }
        }
        identifiers = identities.map { PersistentIdentifier(entityName: folder, id: $0) }
        results = FetchResultsCollection(identifiers: identifiers, batchSize: Self.batchSize, context: modelContext)
    }

    /// Fetches again after `filterBy` or `sortBy` changed, saying what changed in `lastChange`.
    private func fetchAgain() {
        let before = identities
        do {
            try fetch()
            error = nil
            lastChange = ResultsChange.between(before, identities, touched: [])
        } catch {
            self.error = error
        }
    }

    /// Sends an update to the observer's actor, from the thread that made a change.
    private nonisolated func sendUpdate() {
        let actor = actor
        Task.detached { await self.update(on: actor) }
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
