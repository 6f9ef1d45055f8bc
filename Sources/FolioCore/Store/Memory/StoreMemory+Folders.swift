// StoreMemory: which folders the catalog holds, which it could not load, and those answered
// from their cache files without loading them.

extension StoreMemory {
    /// Whether folder `name`'s documents are in the catalog.
    func isLoaded(_ name: String) -> Bool { locked { $0.folders.isLoaded(name) } }

    /// The folders of `folders` not in the catalog yet; `nil` when all are, the common answer,
    /// which makes no set.
    func unloaded(among folders: Set<String>) -> Set<String>? {
        // A closure, not `folders.isLoaded` as a function: that would copy the residency.
        locked { state in
            folders.allSatisfy { state.folders.isLoaded($0) } ? nil : folders.filter { !state.folders.isLoaded($0) }
        }
    }

    /// The folders in the catalog, and whether every folder of the tree is, those a later
    /// walk finds included.
    var loadedFolders: (names: Set<String>, everything: Bool) {
        locked { ($0.folders.loadedFolders, $0.folders.loadsEverything) }
    }

    /// Whether any folder is in the catalog.
    var holdsAnyFolder: Bool { locked { $0.folders.holdsAnyFolder } }

    /// The number of documents of folder `name` when it is in the catalog, else `nil`.
    func loadedCount(of name: String) -> Int? {
        locked { $0.folders.isLoaded(name) ? $0.catalog.counts[name] ?? 0 : nil }
    }

    /// Whether one of the folders just loaded holds documents but has no cache file with an
    /// index part (an import's into a large folder), so its cache file is written whole once.
    func lacksIndexedCache(among folders: Set<String>) -> Bool {
        locked { state in
            folders.contains { state.folders.cacheFiles[$0] == nil && state.catalog.counts[$0, default: 0] > 0 }
        }
    }

    /// Records that `folders` could not be loaded, and why, for readers that cannot throw; a
    /// later load of the folder clears it.
    func loadFailed(_ folders: [String], because error: FolioError) {
        locked { $0.folders.loadFailed(folders, because: error) }
    }

    /// The issues of folder `name` (its files, and the folder's own when it could not be
    /// loaded), after a pass over it; the folder is let go again when `forgetting`.
    func issuesAfterPass(overFolder name: String, forgetting: Bool) -> [StoreIssue] {
        locked { state in
            let issues =
                state.catalog.issues.filter { $0.path == name || $0.path.hasPrefix(name + "/") }
                + [state.folders.failure(of: name)].compactMap { $0 }
            if forgetting { state.unload(name) }
            return issues
        }
    }

    /// Records that folder `name` answered from its cache file, its walk clean, reading
    /// `documents` documents of it.
    func answeredFromCache(_ name: String, reading documents: Int) {
        locked { state in
            state.folders.answeredFromCache(name, reading: documents)
            state.statistics.answersFromCacheFiles += 1
        }
    }

    /// Folder `name` as an answer from its cache file kept it, or `nil`.
    func cachedFolder(_ name: String) -> CachedFolder? { locked { $0.folders.cachedFolder(name) } }

    /// Keeps folder `name` as an answer from its cache file made it, unless the folder was
    /// loaded meanwhile.
    func keepCachedFolder(_ cached: CachedFolder, as name: String) {
        locked { $0.folders.keep(cached, as: name) }
    }

    /// The folders a whole refresh walks (`nil`: the whole tree), and those among them an
    /// answer from the cache file left unloaded, which the refresh loads.
    var refreshScope: (walked: Set<String>?, cached: Set<String>) {
        locked { state in
            let cached = state.folders.cachedFolderNames
            return (state.folders.loadsEverything ? nil : state.folders.loadedFolders.union(cached), cached)
        }
    }

    /// Of the documents a watcher named, those in folders an answer from the cache file left
    /// unloaded, with the folder as that answer's walk found it, and those in loaded folders.
    func sortNamed(_ documents: [DocumentPath]) -> (cached: [(DocumentPath, CachedFolder)], loaded: [DocumentPath]) {
        locked { state in
            var cached: [(DocumentPath, CachedFolder)] = []
            var loaded: [DocumentPath] = []
            for document in documents {
                if state.folders.isLoaded(document.entity) {
                    loaded.append(document)
                } else if let folder = state.folders.cachedFolder(document.entity) {
                    cached.append((document, folder))
                }
            }
            return (cached, loaded)
        }
    }

    /// Lets go of what answers from the cache files knew of `folders` (`nil`: all).
    func forgetCachedFolders(_ folders: Set<String>?) {
        locked { $0.folders.forgetCachedFolders(folders) }
    }
}
