import Synchronization

/// What a store's writer keeps between commits: a committed transaction it could not finish,
/// and the staged files a walk found for the next commit to sweep.
///
/// Changed by commits, imports and recovery, which hold the store's write lock, and by a walk
/// noting the staged files it found, under the shared lock (so never beside a commit of this
/// process). Its mutex is its own, apart from the catalog's: a commit's bookkeeping does not
/// wait for a fetch, nor a fetch for it.
final class StoreWriter: Sendable {
    private struct State {
        var unfinishedTransaction: FolioError?
        var stagedFiles: [String] = []
    }

    private let state = Mutex(State())

    /// A committed transaction the last open, commit or import could not finish, or `nil`.
    var unfinishedTransaction: FolioError? { state.withLock { $0.unfinishedTransaction } }

    /// Records that a transaction passed its commit point and could not be finished: the next
    /// commit or open finishes it, and a commit fails until then.
    func couldNotFinish(_ error: FolioError) {
        state.withLock { $0.unfinishedTransaction = error }
    }

    /// Records that recovery finished every committed transaction.
    func finishedEverything() {
        state.withLock { $0.unfinishedTransaction = nil }
    }

    /// Replaces the staged files known in the folders a walk covered (those `walked` accepts)
    /// with the ones it found there.
    func noteStagedFiles(_ found: [String], replacingThose walked: (String) -> Bool) {
        state.withLock { state in
            guard !state.stagedFiles.isEmpty || !found.isEmpty else { return }
            state.stagedFiles = state.stagedFiles.filter { !walked($0) } + found
        }
    }

    /// Hands each staged file known to `remove` and keeps those it could not remove, for the
    /// next commit. Call holding the write lock, after recovery.
    func sweepStagedFiles(_ remove: (String) -> Bool) {
        state.withLock { state in
            guard !state.stagedFiles.isEmpty else { return }
            state.stagedFiles = state.stagedFiles.filter { !remove($0) }
        }
    }
}
