// DocumentStore: the cache files written (`writeCache`, `close`) and discarded.

import FolioJSON
import Foundation
import Glibc

extension DocumentStore {
    /// Writes the cache now, so the next open reads nothing that has not changed.
    /// Opening a store and closing it do this too; a cache that already holds the
    /// catalog as it is (and whose file nobody replaced) is left alone.
    ///
    /// - Throws: `.fileSystem` or `.unsafePath` when a cache file cannot be written or a file
    ///   cannot be inspected.
    public func writeCache() throws(FolioError) {
        let (worth, unverified) = try memory.inspectingCache { state throws(FolioError) in
            (try foldersToCache(state), state.catalog.hasUnverifiedEntries)
        }
        guard !worth.isEmpty else { return }
        // Entries stamped within the file system's clock tick are confirmed after it has
        // passed; the wait is outside the state's mutex, so other threads go on meanwhile.
        if unverified { usleep(useconds_t(FileStamp.fineSettlingNanoseconds / 1000)) }
        let names = try memory.inspectingCache { state throws(FolioError) in
            try verifyRecentEntries(&state)
            return try foldersToCache(state)
        }
        // Each folder's entries are taken under the mutex and written outside it, so fetches
        // and saves go on while a large file is written; a change meanwhile is the next write's.
        for name in names {
            let snapshot = memory.cacheSnapshot(of: name)
            guard let stamp = try DocumentCache.write(snapshot, in: folder) else { continue }
            memory.cacheWritten(name, revision: snapshot.revision, stamp: stamp)
        }
    }

    /// The loaded folders whose cache file is worth writing: those without one (or whose file
    /// someone replaced), and those with more than one change in a hundred entries since it
    /// was written. A few changes are left to the next first use, which reads their files
    /// again (the cache's entries for them no longer match), where rewriting the file cost a
    /// pass over the whole folder: one `insert` into 200,000 strokes wrote 100 MB.
    private func foldersToCache(_ state: StoreMemory.State) throws(FolioError) -> [String] {
        // Under `loadsEverything` the folders are those the catalog counts documents of (or did).
        var folders = state.folders.loadedFolders.union(state.folders.cacheFiles.keys)
        if state.folders.loadsEverything { folders.formUnion(state.catalog.counts.keys) }
        var worth: [String] = []
        for name in folders.sorted() {
            guard let written = state.folders.cacheFiles[name],
                let info = try folder.status(of: DocumentCache.fileName(of: name)),
                FileStamp(info) == written.stamp
            else {
                worth.append(name)
                continue
            }
            let changes = state.catalog.revision(of: name) &- written.revision
            if changes > 0, changes > UInt64(state.catalog.counts[name] ?? 0) / 100 { worth.append(name) }
        }
        return worth
    }

    /// Removes the cache of the store at `root`, so the next open reads every file again;
    /// no cache is fine. Through the store's folder, like every file of it.
    ///
    /// - Throws: `.invalidStore` when `root` is no folder; `.fileSystem` or `.unsafePath` when
    ///   the cache cannot be removed.
    public static func discardCache(at root: String) throws(FolioError) {
        try DocumentCache.discard(in: OpenFolder(root: normalized(root)))
    }

    /// Writes the cache; the store may still be used afterwards.
    ///
    /// - Throws: what `writeCache()` throws.
    public func close() throws(FolioError) { try writeCache() }

    /// Confirms the content of entries stamped within the file system's clock tick, once the
    /// tick has passed, by comparing their bytes, so the cache can trust them.
    func verifyRecentEntries(_ state: inout StoreMemory.State) throws(FolioError) {
        let recent = state.catalog.entries.values.filter { !$0.verified }
        guard !recent.isEmpty else { return }
        for entry in recent {
            guard
                let (bytes, stamp) = try? folder.readFile(
                    entry.path.relativePath, limit: JSONReader.absoluteMaximumSize),
                stamp == entry.stamp, ContentHash.of(bytes) == entry.contentHash, !stamp.isRacy(now: FileSystem.now())
            else { continue }  // changed or unreadable since: left unverified, so not cached
            state.catalog.setVerified(entry.path)
        }
    }
}
