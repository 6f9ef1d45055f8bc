import Foundation
import Synchronization

/// What a store holds in memory, behind its one mutex: the manifest as last read, the catalog
/// of documents and its query indexes, what each folder has of it, and the store's counters.
///
/// The one owner of that state. Every operation on it is a method here, named for what it
/// does, and takes the mutex once; this type's files (`StoreMemory+X.swift`) are the only code
/// that takes it. Work that can be done outside the mutex (reading files, writing the cache,
/// walking the tree) is done by the store around these operations, with what they hand out.
final class StoreMemory: Sendable {
    /// The state itself: changed only through `StoreMemory`'s operations.
    struct State {
        var manifest: StoreManifest {
            didSet {
                querySchema = QuerySchema(manifest.storedSchema)
                calendar = manifest.calendar
            }
        }
        /// The stamp of `folio.json` when `manifest` was read, so a refresh rereads it only when it
        /// changed; `nil` (always reread) when the stamp fell within the file's clock tick.
        var manifestStamp: FileStamp?
        var catalog = Catalog()
        /// The manifest's schema as queries read it.
        var querySchema: QuerySchema
        /// The manifest's calendar, made once: queries plan day ranges with it.
        var calendar: Calendar
        /// The query indexes over `catalog`, replaced with it.
        var indexes = QueryIndexes()
        var statistics = StoreStatistics()
        /// What the catalog holds of each folder, and what each folder's cache file holds.
        var folders = FolderResidency()
        /// The last history token whose transaction every loaded folder of the catalog reflects,
        /// or `nil` before a folder is loaded: changes a refresh finds that the history after it
        /// does not explain are recorded as external.
        var catalogToken: Int64?

        /// Lets folder `name` go, to be loaded again when next used.
        mutating func unload(_ name: String) {
            folders.unloaded(name, othersHeld: catalog.counts.keys)
            catalog.unload(name)
        }
    }

    private let state: Mutex<State>

    /// The memory of a store just opened: its manifest, and nothing of its folders yet.
    init(manifest: StoreManifest, stamp: FileStamp?) {
        state = Mutex(
            State(
                manifest: manifest, manifestStamp: stamp, querySchema: QuerySchema(manifest.storedSchema),
                calendar: manifest.calendar))
    }

    /// Runs `body` holding the mutex, counted in `StoreStatistics.memoryLocks`. Only this
    /// type's own files call it: each of its operations is one call.
    func locked<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        try state.withLock { state throws(Failure) -> Result in
            state.statistics.memoryLocks += 1
            return try body(&state)
        }
    }
}
