// StoreMemory: what walks, refreshes, commits and imports change in memory.

import FolioJSON
import Foundation

extension StoreMemory {
    /// How many documents the catalog holds, all folders together.
    var documentCount: Int { locked { $0.catalog.count } }

    /// The stamp `folio.json` had when the manifest was read, `nil` when it must be read again.
    var manifestStamp: FileStamp? { locked { $0.manifestStamp } }

    /// The last history token whose transaction every loaded folder reflects.
    var catalogToken: Int64? { locked { $0.catalogToken } }

    /// What an import writes with: the catalog's token, the calendar and the schema.
    var importBasis: (catalogToken: Int64?, calendar: Calendar, schema: QuerySchema) {
        locked { ($0.catalogToken, $0.manifest.calendar, $0.querySchema) }
    }

    /// Brings what a walk or a look at some files found into the catalog, in one take of the
    /// mutex: `body` is the algorithm (see `DocumentStore.walk` and `refresh(paths:)`), run on
    /// the state with the files it reads.
    func bringingIn<Result>(_ body: (inout State) -> Result) -> Result {
        locked { body(&$0) }
    }

    /// Plans a commit or an import's document against the catalog, in one take of the mutex.
    func planning<Result>(_ body: (inout State) throws(FolioError) -> Result) throws(FolioError) -> Result {
        try locked { state throws(FolioError) in try body(&state) }
    }

    /// Records a written transaction in the catalog, in one take of the mutex.
    func recording<Result>(_ body: (inout State) -> Result) -> Result {
        locked { body(&$0) }
    }

    /// The current entries' hashes and contents of `paths`, and the schema: what a history
    /// record of changes found on disk compares with.
    func current(_ paths: [DocumentPath]) -> (
        found: [DocumentPath: (contentHash: UInt64, content: JSONObject?)], schema: QuerySchema
    ) {
        locked { state in
            var found: [DocumentPath: (contentHash: UInt64, content: JSONObject?)] = [:]
            for path in paths {
                guard let entry = state.catalog.entry(at: path) else { continue }
                found[path] = (entry.contentHash, state.catalog.content(at: path))
            }
            return (found, state.querySchema)
        }
    }

    /// Moves the catalog's token to `reflected` after a refresh of `folders` (`nil`: every
    /// loaded one): a loaded folder it did not walk still reflects only the token it had.
    func refreshed(reflecting reflected: Int64, covering folders: Set<String>?) {
        locked { state in
            let others = folders.map { state.folders.loadedFolders.subtracting($0) } ?? []
            if let current = state.catalogToken, !others.isEmpty {
                state.catalogToken = min(current, reflected)
            } else {
                state.catalogToken = reflected
            }
        }
    }

    /// Records that the transaction with history token `token` landed: the catalog reflects
    /// it if it reflected every one before.
    func transactionLanded(token: Int64) {
        locked { state in
            if state.catalogToken == token - 1 { state.catalogToken = token }
        }
    }

    /// Records that the history was set aside and begun again, and the cache files with it.
    func historyBegunAgain() {
        locked { state in
            state.catalogToken = 0
            state.folders.cacheFilesRemoved()
        }
    }

    /// Counts what recovering crashed writers did.
    func recovered(finished: Int, discarded: Int) {
        locked { state in
            state.statistics.transactionsRecovered += finished
            state.statistics.transactionsDiscarded += discarded
        }
    }

    /// Lets folder `name` go, to be loaded again when next used: what an import wrote there
    /// is read from disk.
    func unload(_ name: String) {
        locked { $0.unload(name) }
    }

    /// Records that an import into folder `name` committed: the folder is let go, with what
    /// cache answers and the cache file knew of it.
    func imported(into name: String) {
        locked { state in
            state.unload(name)
            state.folders.cacheFile(of: name, is: nil)
            state.statistics.transactionsCommitted += 1
        }
    }
}
