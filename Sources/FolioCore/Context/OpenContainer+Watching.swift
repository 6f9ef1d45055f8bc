import Logging

extension OpenContainer {
    /// Refreshes one store (only the files at `paths`, when given) and tells the listeners
    /// what it found changed.
    func refresh(_ store: DocumentStore, paths: Set<String>? = nil) throws(FolioError) -> StoreChanges {
        let found: StoreChanges
        if let paths { found = try store.refresh(paths: paths) } else { found = try store.refresh() }
        var documents = Set<Catalog.Identity>()
        for path in found.added + found.modified + found.removed {
            documents.insert(Catalog.Identity(entity: path.entity, id: path.id))
        }
        listeners.publish(ContainerChange(documents: documents))
        return found
    }

    /// Tells the listeners the documents a transaction of this container changed.
    func publish(_ changes: [DocumentChange]) {
        listeners.publish(
            ContainerChange(documents: Set(changes.map { Catalog.Identity(entity: $0.entity, id: $0.id) })))
    }

    /// Starts a file watcher on each store on disk whose configuration watches files: a
    /// change there (a hand edit, `git pull`, another process's save) is refreshed into the
    /// container and told to its live results. A watcher that cannot start (the system's
    /// limit of inotify instances) is logged, and the store is refreshed only when asked.
    func startWatching() {
        var started: [StoreWatcher] = []
        for (configuration, store) in zip(configurations, stores)
        where configuration.watchesFiles && !configuration.isStoredInMemoryOnly {
            do throws(FolioError) {
                let watcher = try StoreWatcher(folder: store.folder) { [weak self] changes in
                    // The files the watcher names are looked at again; when it missed some (its
                    // queue overflowed, a folder moved), the whole tree. A failed refresh is
                    // tried again at the next change.
                    guard let self else { return }
                    do throws(FolioError) {
                        _ = try self.refresh(store, paths: changes.overflowed ? nil : changes.paths)
                    } catch {
                        // A store whose folder was removed has nothing left to refresh, nor to tell.
                        guard !store.folder.isRemoved else { return }
                        Self.log.warning(
                            "Could not refresh \(store.root) after a change on disk: \(error.description)",
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

    private static let log = Logger(label: "Folio.watch")
}
