import Foundation

/// What to fetch: SwiftData's `FetchDescriptor`, with Foundation's `Predicate` and `SortDescriptor`.
///
/// ```swift
/// var recent = FetchDescriptor<Timer>(predicate: #Predicate { $0.durationInSeconds > 60 }, sortBy: [SortDescriptor(\.name)])
/// recent.fetchLimit = 10
/// ```
public struct FetchDescriptor<T: PersistentModel> {
    /// The fetched model type. The generic parameter is named `T`, as in SwiftData, so
    /// that apps' `extension FetchDescriptor where T == Trip` compiles.
    public typealias Model = T

    /// Which models to fetch; all of them when `nil`.
    public var predicate: Predicate<Model>?
    /// The order of the results; without one, the order of the store (day, then identity).
    public var sortBy: [SortDescriptor<Model>]
    /// At most this many results.
    public var fetchLimit: Int?
    /// Skips this many results first (after sorting), for paging.
    public var fetchOffset: Int?
    /// Whether unsaved inserts count and unsaved deletes are left out, as SwiftData's default.
    public var includePendingChanges = true
    /// Whether soft-deleted models are fetched too (Folio's; SwiftData has no soft deletes).
    public var includeDeleted = false
    /// Accepted for SwiftData compatibility; Folio reads whole documents.
    public var propertiesToFetch: [PartialKeyPath<Model>] = []
    /// Accepted for SwiftData compatibility; relationships load when first read.
    public var relationshipKeyPathsForPrefetching: [PartialKeyPath<Model>] = []

    /// A descriptor. `fetchLimit:` and `fetchOffset:` here are Folio's (SwiftData has
    /// them as properties only); the seeds write them so.
    public init(
        predicate: Predicate<Model>? = nil, sortBy: [SortDescriptor<Model>] = [], fetchLimit: Int? = nil,
        fetchOffset: Int? = nil
    ) {
        self.predicate = predicate
        self.sortBy = sortBy
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
    }
}
