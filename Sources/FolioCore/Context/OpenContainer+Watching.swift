import Foundation
import Logging

extension OpenContainer {
    /// Refreshes one store (only the files at `paths`, when given) and tells the listeners
    /// what it found changed.
    func refresh(_ store: DocumentStore, paths: Set<String>? = nil) throws(FolioError) -> StoreChanges {
        try Self.refresh(store, paths: paths, telling: listeners)
    }

    /// Refreshes one store (only the files at `paths`, when given) and tells `listeners` what
    /// it found changed.
    private static func refresh(_ store: DocumentStore, paths: Set<String>?, telling listeners: ChangeListeners)
        throws(FolioError) -> StoreChanges
    {
        let found: StoreChanges
        if let paths { found = try store.refresh(paths: paths) } else { found = try store.refresh() }
        var documents = Set<PersistentIdentifier>()
        for path in found.added + found.modified + found.removed {
            documents.insert(PersistentIdentifier(path))
        }
        listeners.publish(ContainerChange(documents: documents, isFoundOnDisk: true))
        return found
    }

    /// Tells the listeners the documents a transaction of this container changed.
    func publish(_ changes: [DocumentChange]) {
        listeners.publish(
            ContainerChange(
                documents: Set(changes.map { PersistentIdentifier(entityName: $0.entity, id: $0.id) }),
                isFoundOnDisk: false))
    }

    /// Posts `ModelContainer.remoteChange`, with the living container as its object, for each
    /// change a refresh finds on disk. A container no one holds any more is told of nothing.
    func announceRemoteChanges() {
        _ = listeners.add { [weak self] change in
            guard change.isFoundOnDisk, let container = self?.livingContainer else { return }
            NotificationCenter.default.post(name: ModelContainer.remoteChange, object: container)
        }
    }

    /// Starts a file watcher on each store on disk whose configuration watches files: a
    /// change there (a hand edit, `git pull`, another process's save) is refreshed into the
    /// container and told to its live results. A watcher that cannot start (the system's
    /// limit of inotify instances) is logged, and the store is refreshed only when asked.
    func startWatching() {
        var started: [StoreWatcher] = []
        for (configuration, store) in zip(configurations, stores)
        where configuration.watchesFiles && !configuration.isStoredInMemoryOnly && configuration.revision == nil {
            do throws(FolioError) {
                // The watcher holds the store and the listeners, never the container: the last
                // release of the container, and the cache write of its `deinit`, happen on the
                // thread of whoever lets it go, done when that returns (a `removeItem` of the
                // store's folder right after would otherwise race a write from here).
                let listeners = listeners
                let watcher = try StoreWatcher(folder: store.folder) { changes in
                    // The files the watcher names are looked at again; when it missed some (its
                    // queue overflowed, a folder moved), the whole tree. A failed refresh is
                    // tried again at the next change.
                    do throws(FolioError) {
                        _ = try Self.refresh(
                            store, paths: changes.overflowed ? nil : changes.paths, telling: listeners)
                    } catch {
                        guard let lasting = Self.lastingRefreshFailure(of: store, after: error, telling: listeners)
                        else { return }
                        Self.log.warning(
                            "Could not refresh \(store.root) after a change on disk: \(lasting.description)",
                            source: logSource)
                    }
                }
                started.append(watcher)
            } catch {
                Self.log.warning(
                    "Not watching \(store.root) for changes (call refresh() to see them): \(error.description)",
                    source: logSource)
            }
        }
        watchers.withLock { $0 = started }
    }

    /// Why a whole refresh of the store still fails a moment after one failed, or `nil` when it
    /// went through on a later try or the store's folder is gone.
    ///
    /// A refresh can meet a store in the middle of a change made in many steps: `rm -r` takes the
    /// files out before the folder (`folio.json` missing, the folder still there), a checkout
    /// swaps files one by one. Only a failure that outlasts such a change is worth a line in
    /// the log; a store whose folder was removed has nothing left to refresh, nor to tell.
    /// Waits under a second, on the watcher's thread, whose events queue meanwhile.
    private static func lastingRefreshFailure(
        of store: DocumentStore, after first: FolioError, telling listeners: ChangeListeners
    ) -> FolioError? {
        var failure = first
        for pause in [0.05, 0.2, 0.5] {
            if store.folder.isRemoved { return nil }
            Thread.sleep(forTimeInterval: pause)
            if store.folder.isRemoved { return nil }
            do throws(FolioError) {
                _ = try refresh(store, paths: nil, telling: listeners)
                return nil
            } catch {
                failure = error
            }
        }
        return store.folder.isRemoved ? nil : failure
    }

    private static let log = Logger(label: "Folio.watch")
}
