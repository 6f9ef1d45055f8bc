import Synchronization

/// Documents of a container's stores that changed: written by a save of one of its
/// contexts, or found changed on disk by a refresh (the file watcher's, or `refresh()`).
struct ContainerChange: Sendable {
    /// The documents, by the entity whose folder holds them and identity.
    var documents: Set<PersistentIdentifier>
    /// Whether a refresh found them changed on disk (another process, a hand edit, `git
    /// pull`): a remote change, in SwiftData's words, rather than a save of this container.
    var isFoundOnDisk: Bool
}

/// Who hears of a container's changes: its contexts (which bring registered models up to
/// date at their next fetch) and live results. Handlers run on the thread that made the
/// change, so they only note it and hand the work to their own actor.
final class ChangeListeners: Sendable {
    private let handlers = Mutex<(next: Int, byKey: [Int: @Sendable (ContainerChange) -> Void])>((0, [:]))

    /// Adds a handler; returns the key that removes it.
    func add(_ handler: @escaping @Sendable (ContainerChange) -> Void) -> Int {
        handlers.withLock { state in
            state.next += 1
            state.byKey[state.next] = handler
            return state.next
        }
    }

    func remove(_ key: Int) { _ = handlers.withLock { $0.byKey.removeValue(forKey: key) } }

    /// Tells every handler, outside the lock (a handler may add or remove one).
    func publish(_ change: ContainerChange) {
        guard !change.documents.isEmpty else { return }
        for handler in handlers.withLock({ Array($0.byKey.values) }) { handler(change) }
    }
}
