// StoreMemory: what the cache files are written from, and what they hold.

extension StoreMemory {
    /// Whether the catalog has entries stamped within the file system's clock tick, not yet
    /// confirmed by their bytes.
    var hasUnverifiedEntries: Bool { locked { $0.catalog.hasUnverifiedEntries } }

    /// Looks at the catalog and what the cache files hold, in one take of the mutex: `body`
    /// (see `DocumentStore.writeCache`) confirms recent entries and picks the folders to write.
    func inspectingCache<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        try locked(body)
    }

    /// Folder `name`'s verified entries, taken as values for its cache file to be written
    /// outside the mutex.
    func cacheSnapshot(of name: String) -> DocumentCache.Snapshot {
        locked { state in
            DocumentCache.Snapshot(
                state.catalog, folder: name, historyToken: state.catalogToken,
                indexing: state.querySchema.entities[name])
        }
    }

    /// Records that folder `name`'s cache file was written at the folder's `revision`, with `stamp`.
    func cacheWritten(_ name: String, revision: UInt64, stamp: FileStamp) {
        locked { state in
            state.folders.cacheFile(of: name, is: .init(revision: revision, stamp: stamp))
            state.statistics.cacheWrites += 1
        }
    }
}
