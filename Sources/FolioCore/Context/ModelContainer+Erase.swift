import Logging

extension ModelContainer {
    /// Removes every document of the store, soft-deleted ones and external-storage files
    /// included, in one transaction, as SwiftData's `erase()`. `folio.json` stays, so the
    /// folder is still the same, empty store; git keeps what was there. A container with
    /// several configurations erases each store in turn.
    ///
    /// Models contexts hold keep their values; saving one of them then is a conflict
    /// (its document was deleted since it was read), so make new contexts afterwards.
    ///
    /// - Throws: `.misuse` when a configuration has `allowsSave: false` or a `revision` (nothing is erased);
    ///   what `DocumentStore.refresh()` and `commit` throw: `.fileSystem` (a read-only
    ///   folder among them), `.unsafePath`, `.invalidStore`, `.locked`, `.conflict` (a file changed
    ///   during the erase) or `.unfinishedCommit`.
    public func erase() throws(FolioError) {
        // Every configuration is looked at first: an erase one of them refuses erases none.
        for (configuration, store) in zip(configurations, stores) {
            if let why = configuration.whyReadOnly {
                throw .misuse(
                    "the configuration of \(store.root) \(why), so the container cannot erase it; nothing was erased")
            }
        }
        for store in stores {
            _ = try store.refresh()
            let changes = store.manifest.folderNames.flatMap { store.documents(entity: $0) }.map {
                DocumentChange.delete($0.version)
            }
            guard !changes.isEmpty else { continue }
            try store.commit(changes)
            opened.publish(changes)
        }
    }

    /// `erase()` for code that cannot handle its error, as SwiftData's `deleteAllData()`:
    /// a failure (a read-only folder, a full disk) is logged as an error (`Folio.container`),
    /// and the store is then as it was.
    public func deleteAllData() {
        do {
            try erase()
        } catch {
            Logger(label: "Folio.container").error(
                "deleteAllData() deleted nothing: \(error.description)", source: logSource)
        }
    }
}
