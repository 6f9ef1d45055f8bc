import FolioJSON

extension DocumentStore {
    /// Hands `body` every document of folder `name` (soft-deleted ones too), in no set order,
    /// and returns the folder's issues (files that could not be read or are out of place).
    ///
    /// For a pass over a whole store that must not hold it: when `servesOneCommand` is on and
    /// the folder is not loaded, from its cache file and a walk (see `forEachFromCache`),
    /// with only `members` of each content when given; when that cannot tell (no cache file,
    /// an issue, a staged file, a damaged record), `startingOver` is called and the folder
    /// is loaded, handed over, and forgotten again, so only one folder is ever held. A
    /// loaded folder, or any folder of a store that does not serve one command, comes from
    /// the catalog and stays loaded.
    package func forEachDocument(
        inFolder name: String, members: [String]? = nil, startingOver: () -> Void,
        _ body: (DocumentPath, JSONObject) -> Void
    ) -> [StoreIssue] {
        if forEachFromCache(in: name, reading: members, includeDeleted: true, body) { return [] }
        startingOver()
        let (wasLoaded, forgets) = (state.withLock { $0.catalog.isLoaded(name) }, servesOneCommand)
        loadReporting([name])
        let paths = state.withLock { $0.catalog.entries(inFolder: name).map(\.path) }
        for path in paths {
            guard let content = state.withLock({ $0.catalog.content(at: path) }) else { continue }
            body(path, content)
        }
        return state.withLock { state in
            let issues =
                state.catalog.issues.filter { $0.path == name || $0.path.hasPrefix(name + "/") }
                + [state.loadFailures[name] ?? state.loadFailures[""]].compactMap { $0 }
            if forgets, !wasLoaded { state.catalog.unload(name) }
            return issues
        }
    }
}
