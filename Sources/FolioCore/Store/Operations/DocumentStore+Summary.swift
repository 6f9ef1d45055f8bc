import FolioJSON

/// What `folio info` shows of a store's documents: each entity's tally, how many documents
/// there are, the bytes of their files, and the files the store could not use.
package struct StoreSummary: Sendable {
    /// Each entity's documents, counted (see `DocumentStore.tally(of:)`).
    package var tallies: [String: EntityTally] = [:]
    /// How many readable documents the store holds.
    package var documents = 0
    /// The bytes of the documents' files and their external-storage files.
    package var bytes: Int64 = 0
    /// Files the store could not use, in path order.
    package var issues: [StoreIssue] = []

    /// An entity's tally; none for an entity the store has no documents or folder of.
    package func tally(of entity: String) -> EntityTally { tallies[entity] ?? EntityTally() }
}

extension DocumentStore {
    /// The summary of the store: from the cache files' index parts and a walk of the whole
    /// tree when `servesOneCommand` is on and that can tell (see
    /// `summaryFromCacheFiles`), else from the catalog, every folder loaded.
    package var summary: StoreSummary {
        if servesOneCommand, let summary = summaryFromCacheFiles() { return summary }
        let counts = documentCounts
        let entities = Set(counts.keys).union(manifest.entityNames)
        return StoreSummary(
            tallies: Dictionary(uniqueKeysWithValues: entities.map { ($0, tally(of: $0)) }),
            documents: counts.values.reduce(0, +), bytes: documentBytes, issues: issues)
    }

    /// The summary from each folder's cache file and one `stat`-only walk of the tree, no
    /// folder loaded and no unchanged document read; `nil` when it cannot be told so: a
    /// folder is loaded already, an entity shares its folder with others (they are told apart
    /// by `"$entity"`, which the index part does not keep), or a folder's cache file has no
    /// usable index part or does not match its walk (see `CacheIndex.match`). New and
    /// changed files are read, and those that cannot be used are issues, as a load has them.
    func summaryFromCacheFiles() -> StoreSummary? {
        let schema = memory.schema
        guard !memory.holdsAnyFolder, schema.entities.keys.allSatisfy({ schema.folder(of: $0).kinds == nil }) else {
            return nil
        }
        return try? lock.withLock(.shared) { () throws(FolioError) -> StoreSummary? in
            var summary = StoreSummary()
            for name in schema.entities.keys { summary.tallies[name] = EntityTally() }
            // A walk per folder, each listing its documents by key: together they are the walk
            // of the whole tree (a root holds nothing else a walk reports), one folder at a time.
            for name in try entityFolderNames() {
                let cache = CacheIndex.open(folder: name, from: folder)
                let listing = try self.listing([name], expectedDocuments: cache?.count ?? 0, keysOnly: true)
                summary.issues += listing.issues
                summary.bytes += listing.blobs.reduce(0) { $0 + $1.stamp.size }
                guard !listing.keyedDocuments.isEmpty else { continue }
                guard let match = cache?.match(listing.keyedDocuments, keepingIndexes: []) else {
                    return nil
                }
                summary.bytes += listing.keyedDocuments.reduce(0) { $0 + $1.stamp.size }
                var tally = EntityTally()
                func count(_ day: Day, isDeleted: Bool) {
                    if isDeleted { tally.deleted += 1 } else { tally.live += 1 }
                    tally.days = tally.days.map { min($0.lowerBound, day)...max($0.upperBound, day) } ?? day...day
                }
                for position in match.unchanged.indices where match.unchanged[position] {
                    guard let day = match.day(at: position) else { return nil }
                    count(day, isDeleted: match.deleted[position])
                }
                let fetched = try pastTree?.contents(of: match.changed.map(\.stamp))
                for found in match.changed {
                    switch readDocument(found, schema: schema, fetched: fetched) {
                    case .success(let entry):
                        count(found.path.day, isDeleted: entry.content.object?[ReservedKey.deleted] != nil)
                    case .failure(let failure):
                        summary.issues.append(failure.issue)
                        summary.bytes -= found.stamp.size
                    }
                }
                // A folder of only unusable files has no tally, as in the catalog's summary.
                if tally.live + tally.deleted > 0 { summary.tallies[name] = tally }
                summary.documents += tally.live + tally.deleted
            }
            summary.issues.sort { $0.path < $1.path }
            // A revision's stamps hold its objects' ids, so git is asked their sizes.
            if let pastTree { summary.bytes = try pastTree.fileBytes() }
            return summary
        }
    }
}
