/// What the catalog holds of each entity folder: one state a folder, changed only by named
/// transitions, and what each folder's cache file holds.
///
/// A folder nobody used yet has no state: it is unloaded, and its first use walks it (see
/// `DocumentStore.load`). From there:
///
/// ```
/// unloaded ──load──▶ loaded ──unload (an import, a pass of one command)──▶ unloaded
///     │ ▲                ▲
///     │ └─── failed ─────┤ (the next use tries again; a walk of it clears it)
///     └─ answer from the cache file ─▶ answeredFromCache ──load──┘
/// ```
///
/// Held by `StoreMemory`, under its mutex.
struct FolderResidency {
    /// One folder's state, when it has been used.
    enum State {
        /// Its documents are in the catalog: walked, and their cached entries confirmed.
        case loaded
        /// A query was answered from its cache file without loading it, its walk clean (no
        /// issue, every file readable), with what the walk found while that is kept.
        case answeredFromCache(CachedFolder?)
        /// Its first use failed, with why, for readers that cannot throw; the next use tries again.
        case failed(StoreIssue)
    }

    /// What a folder's file in `.folio/cache/` holds: the folder's revision it was loaded or
    /// written at, and the file's stamp then. A close with neither changed writes nothing.
    struct CacheFile {
        var revision: UInt64
        var stamp: FileStamp
    }

    private var states: [String: State] = [:]
    /// Whether every folder of the tree is loaded, those a later walk finds included.
    private(set) var loadsEverything = false
    /// Why a load of the whole tree failed, until a walk of the whole tree succeeds.
    private var treeFailure: StoreIssue?
    /// What each folder's cache file holds, as this store loaded or wrote it.
    private(set) var cacheFiles: [String: CacheFile] = [:]

    /// Whether folder `name`'s documents are in the catalog.
    func isLoaded(_ name: String) -> Bool {
        if loadsEverything { return true }
        if case .loaded? = states[name] { return true }
        return false
    }

    /// The folders loaded one by one (under `loadsEverything`, those loaded before it).
    var loadedFolders: Set<String> {
        Set(states.compactMap { name, state in if case .loaded = state { name } else { nil } })
    }

    /// Whether any folder is loaded.
    var holdsAnyFolder: Bool {
        loadsEverything || states.values.contains { if case .loaded = $0 { true } else { false } }
    }

    /// Records that a walk of `folders` (`nil`: the whole tree) brought them in: each is
    /// loaded, what answers from their cache files knew is let go, and their failures (the
    /// tree's too, for a whole walk) are cleared.
    mutating func loaded(_ folders: Set<String>?) {
        guard let folders else {
            loadsEverything = true
            treeFailure = nil
            states = states.filter { if case .loaded = $0.value { true } else { false } }
            return
        }
        for name in folders { states[name] = .loaded }
    }

    /// Records that `folders` could not be loaded, and why (`[""]`: the whole tree); a folder
    /// already loaded keeps its documents and stays so.
    mutating func loadFailed(_ folders: [String], because error: FolioError) {
        for name in folders {
            let issue = StoreIssue(path: name, error: error)
            if name.isEmpty {
                treeFailure = issue
            } else if !isLoaded(name) {
                states[name] = .failed(issue)
            }
        }
    }

    /// Why folder `name` could not be loaded, or the whole tree, or `nil`.
    func failure(of name: String) -> StoreIssue? {
        if case .failed(let issue)? = states[name] { return issue }
        return treeFailure
    }

    /// Whether a folder, or the tree, could not be loaded.
    var hasFailures: Bool {
        treeFailure != nil || states.values.contains { if case .failed = $0 { true } else { false } }
    }

    /// Every folder that could not be loaded, and the tree when it could not be walked.
    var failures: [StoreIssue] {
        states.values.compactMap { if case .failed(let issue) = $0 { issue } else { nil } }
            + (treeFailure.map { [$0] } ?? [])
    }

    /// Records that folder `name` is let go, to be loaded again when next used; under
    /// `loadsEverything`, the other folders a walk of the whole tree brought in (`held`, those
    /// with documents) stay loaded one by one.
    mutating func unloaded(_ name: String, othersHeld held: some Sequence<String>) {
        if loadsEverything {
            loadsEverything = false
            for other in held { states[other] = .loaded }
        }
        states[name] = nil
    }

    /// Whether folder `name` is not loaded and an answer from its cache file found it clean.
    func answeredFromCacheUnloaded(_ name: String) -> Bool {
        guard !isLoaded(name), case .answeredFromCache? = states[name] else { return false }
        return true
    }

    /// Records that folder `name` answered a query from its cache file, reading `documents`
    /// documents of it.
    mutating func answeredFromCache(_ name: String, reading documents: Int) {
        guard !isLoaded(name) else { return }
        guard case .answeredFromCache(var cached)? = states[name] else {
            states[name] = .answeredFromCache(nil)
            return
        }
        cached?.documentsRead += documents
        states[name] = .answeredFromCache(cached)
    }

    /// What an answer from folder `name`'s cache file kept of its walk, or `nil`.
    func cachedFolder(_ name: String) -> CachedFolder? {
        guard !loadsEverything, case .answeredFromCache(let cached)? = states[name] else { return nil }
        return cached
    }

    /// Keeps what an answer from folder `name`'s cache file found, unless it was loaded meanwhile.
    mutating func keep(_ cached: CachedFolder, as name: String) {
        guard !isLoaded(name) else { return }
        states[name] = .answeredFromCache(cached)
    }

    /// The folders whose answers from their cache files kept their walks.
    var cachedFolderNames: Set<String> {
        guard !loadsEverything else { return [] }
        return Set(
            states.compactMap { name, state in
                if case .answeredFromCache(_?) = state { name } else { nil }
            })
    }

    /// Lets go of what answers from the cache files kept of `folders` (`nil`: all), once the
    /// folders are written or changed: answers must come from the folders as they are.
    mutating func forgetCachedFolders(_ folders: Set<String>?) {
        for (name, state) in states where folders?.contains(name) != false {
            if case .answeredFromCache(_?) = state { states[name] = .answeredFromCache(nil) }
        }
    }

    /// Records what folder `name`'s cache file holds (`nil`: nothing this store knows of).
    mutating func cacheFile(of name: String, is file: CacheFile?) {
        cacheFiles[name] = file
    }

    /// Forgets what every cache file holds: they were removed.
    mutating func cacheFilesRemoved() {
        cacheFiles = [:]
    }
}
