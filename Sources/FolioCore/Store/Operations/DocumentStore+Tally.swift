import FolioJSON

/// What an entity holds, counted without reading its documents: how many are live, how
/// many soft-deleted, and the first and last day folder they are in.
public struct EntityTally: Sendable, Equatable {
    /// Documents that are not soft-deleted.
    public var live = 0
    /// Soft-deleted documents (their `"$deleted"` is set).
    public var deleted = 0
    /// The days of the first and the last document's folders, or `nil` for none.
    public var days: ClosedRange<Day>?
}

extension DocumentStore {
    /// Counts an entity's documents (and, for an entity other models inherit from, theirs)
    /// from the catalog: no document is decoded, only `"$entity"` and `"$deleted"` are read
    /// of each, so `folio info` on a large store costs the walk and the cache.
    public func tally(of entity: String) -> EntityTally {
        let folder = documentFolder(of: entity)
        loadReporting([folder])
        return memory.tally(of: entity)
    }
}
