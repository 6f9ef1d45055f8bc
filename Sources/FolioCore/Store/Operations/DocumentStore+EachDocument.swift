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
        let wasLoaded = memory.isLoaded(name)
        loadReporting([name])
        for path in memory.paths(inFolder: name) {
            guard let content = memory.content(at: path) else { continue }
            body(path, content)
        }
        return memory.issuesAfterPass(overFolder: name, forgetting: servesOneCommand && !wasLoaded)
    }
}
