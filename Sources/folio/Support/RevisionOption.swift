import ArgumentParser
import FolioCore
import Foundation
import Glibc

/// `--at REV`, shared by the commands that only read: the store as a git revision held it.
///
/// The revision's documents are read from git's objects, with a copy of its manifest and its
/// cache files kept in the store's `.folio/revisions/` (see `RevisionCopy`); the work tree,
/// the index, the refs and the configuration stay as they were. Text that git could read as
/// an option is refused before git runs.
struct RevisionOption: ParsableArguments {
    @Option(
        name: .customLong("at"),
        help: ArgumentHelp(
            "Read the store as a git revision held it: a commit, branch, tag, HEAD~3 or main@{2026-11-01} (the repository is not changed).",
            valueName: "revision"))
    var revision: String?

    /// The store `options` names, or its copy at the revision, opened as `StoreOptions.open` opens one.
    func open(_ options: StoreOptions, progress: ReadProgress? = nil, reads: StoreReads = .app) throws(FolioError)
        -> DocumentStore
    {
        guard let revision else { return try options.open(progress: progress, reads: reads) }
        let copy = try RevisionCopy.make(of: try options.root(), at: revision)
        // Held until the process ends: the store reads the copy's folders as it needs them.
        Self.readCopy = copy
        if let scratch = copy.scratch { Self.removeAtExit(scratch.path) }
        let store = try DocumentStore.open(copy, progress: progress, reads: reads)
        // Held until the process ends too: freeing a revision's catalog piece by piece
        // (200,000 documents) only to exit cost a fifth of a second.
        Self.readStore = store
        return store
    }

    /// The whole hash of the commit `open` read, or nil when the store is read as it is.
    var commit: String? { revision == nil ? nil : Self.readCopy?.commit }

    /// The copy this process reads, with its lock (one `--at` per command).
    private nonisolated(unsafe) static var readCopy: RevisionCopy?

    /// The store this process reads at the revision.
    private nonisolated(unsafe) static var readStore: DocumentStore?

    /// The private copy to remove when the process ends (one `--at` per command).
    private nonisolated(unsafe) static var privateCopy: UnsafeMutablePointer<CChar>?

    /// Removes the private copy at `path` when the process exits: the store's `.folio/` could
    /// not keep it, and a copy of someone's data must not stay in the temporary folder.
    private static func removeAtExit(_ path: String) {
        privateCopy = strdup(path)
        atexit {
            guard let path = RevisionOption.privateCopy else { return }
            try? FileManager.default.removeItem(atPath: String(cString: path))
        }
    }
}
