/// Counters of a store's work since it was opened.
public struct StoreStatistics: Sendable, Equatable {
    /// Document files read and parsed (the cache spares unchanged ones).
    public var filesRead = 0
    /// Documents answered from the cache without reading their files.
    public var cacheHits = 0
    /// Transactions committed by this store.
    public var transactionsCommitted = 0
    /// Crashed writers' transactions finished (had their commit record) or discarded (had not).
    public var transactionsRecovered = 0
    /// Crashed writers' transactions thrown away because they had no commit record: none of
    /// their files were moved into place.
    public var transactionsDiscarded = 0
    /// Queries answered from a folder's cache file without loading the folder (see
    /// `DocumentStore.servesOneCommand`).
    public var answersFromCacheFiles = 0
    /// Times `.folio/cache` was written (a close or open that found it current writes nothing).
    public var cacheWrites = 0
    /// Why opening could not write the cache, if it could not (the store works without it).
    public var cacheWriteFailure: FolioError?
    /// Why the last changes found on disk could not be recorded in the history, if they could not.
    public var historyWriteFailure: FolioError?
    /// Times the mutex over the store's memory (its catalog, indexes and manifest) was taken:
    /// each is a moment other threads' reads and saves wait, so a save or a fetch takes it
    /// only a few times, however many documents it touches.
    public var memoryLocks = 0
}
