extension OpenFolder {
    /// The folder of a store's local state: its lock, journal, history and cache files.
    static let localState = ".folio"

    /// The folder at `relative`, a path inside `.folio`, made with its missing parents
    /// there, but never `.folio` itself.
    ///
    /// Opening a store makes its `.folio` (and its lock file in it), so a store without one
    /// had it removed while it was open: most often the whole store is being deleted, with
    /// this process's watcher still recording what it sees go. Making `.folio` again would
    /// leave a stray folder behind that deletion (and make `rm -rf` fail with "Directory not
    /// empty"), or a lock file no other process shares. The folders below it are made
    /// relative to `.folio` held open, so one removed meanwhile is not made again either.
    ///
    /// - Throws: `.fileSystem` when `.folio` is gone, saying to open the store again.
    @discardableResult
    func makeLocalStateFolders(_ relative: String) throws(FolioError) -> OpenFolder {
        let prefix = Self.localState + "/"
        precondition(relative.hasPrefix(prefix), "\(relative) is not in the store's local state")
        guard let state = try folder(at: Self.localState) else {
            throw FolioError(
                .fileSystem, "was removed while the store was open, and its lock file with it",
                path: pathOf(Self.localState),
                hint: "open the store again, which makes it anew; nothing was written")
        }
        return try state.makeFolders(String(relative.dropFirst(prefix.count)))
    }
}
