import FolioJSON
import Foundation

extension DocumentStore {
    /// The answer to `query` from its folder's cache file, without loading the folder; `nil`
    /// whenever the ordinary run must answer instead: the folder is loaded, the plan is not
    /// one index key of the entity's own members (or a count of them all), the cache file has
    /// no usable index part, or the walk found anything the cache does not vouch for that
    /// cannot be read here (an issue, a staged file, an unreadable or duplicate document, or
    /// more changed files than a rewrite of the cache would wait for). An app's store (one
    /// that does not serve one command) answers so only for a folder of at least
    /// `StoreReads.cacheAnswerMinimum` documents, and only until the answers have read as many
    /// documents as the folder has (see `cachedFolder`).
    ///
    /// The walk (`stat` only, under the shared lock, as a load's) is matched against the
    /// file's records in store order and kept (`CachedFolder`), so a later answer does not
    /// walk again; the index gives the positions holding the key, of which those whose file
    /// is unchanged are read from the cache file (each checked against its hash), and every
    /// new or changed file was read from disk. Every candidate is then tested against the
    /// whole filter, so the index only ever narrows what is read.
    func answerFromCache(_ query: DocumentQuery, countOnly: Bool, basis: QueryBasis) -> DocumentQueryResult? {
        let (schema, calendar) = (basis.schema, basis.calendar)
        // Every fetch of an app comes this way: a loaded folder answers at once.
        guard servesOneCommand || !basis.isLoaded(schema.entities[query.entity]?.storageName ?? query.entity)
        else { return nil }
        guard (try? schema.entity(query.entity, in: root)) != nil else { return nil }
        let query = schema.inFolder(query)
        let name = query.entity
        let expressions = (query.filter.map { [$0] } ?? []) + query.sort.map(\.expression)
        // The folders the filter reads related documents in are loaded as for any query; the
        // entity's own must not be among them, since its documents stay out of the catalog.
        let related = schema.relatedFolders(readBy: expressions, of: name)
        guard let entity = schema.entities[name], !related.contains(name),
            query.filter.map({ (try? $0.checkDepth()) != nil }) ?? true,
            query.sort.allSatisfy({ (try? $0.expression.checkDepth()) != nil })
        else { return nil }
        let access = QueryAccess.plan(query.filter, for: entity, in: schema, calendar: calendar)
        // How many documents there are (`folio count Entity`): the walk's verdicts say, with
        // new and changed files read.
        if query.filter == nil, countOnly || query.limit == 0 {
            guard let folder = cachedFolder(name, for: []) else { return nil }
            memory.answeredFromCache(name, reading: 0)
            let total = folder.count(includeDeleted: query.includeDeleted)
            var explanation = QueryExplanation(
                entity: name, access: access, documents: folder.documents, examined: 0, matched: total)
            explanation.fromCacheFile = true
            return DocumentQueryResult(matches: [], total: total, explanation: explanation)
        }
        let (properties, key): ([String], [QueryValue])
        switch access {
        case .index(let indexed, let value, _): (properties, key) = (indexed, value)
        case .relationship(let property, let id):
            guard case .relationship(let destination, _, _)? = entity.property(named: property) else { return nil }
            (properties, key) = ([property], [.document(entity: destination, id: id)])
        case .scan, .days:
            // No index narrows it: streamed.
            return related.isEmpty ? scanFromCache(query, countOnly: countOnly, access: access, schema: schema) : nil
        case .identity:
            return nil
        }
        // An index declared since the cache file was written (`folio reindex` builds it): a
        // scan, its records tested while the folder is walked, not a walk first to find it missing.
        if related.isEmpty, memory.cachedFolder(name) == nil,
            let cache = CacheIndex.open(folder: name, from: self.folder),
            cache.indexNames()?.contains(CacheIndex.indexName(of: properties)) == false
        {
            return scanFromCache(query, countOnly: countOnly, access: access, schema: schema, cache: cache)
        }
        guard (try? load(related)) != nil, let folder = cachedFolder(name, for: properties) else { return nil }
        guard
            let candidates = folder.candidates(on: properties, key: key, includeDeleted: query.includeDeleted)?.map({
                QueryRun.Found(id: $0.version.path.id, decoded: $0.content, version: $0.version)
            })
        else {
            // The index was declared after the cache file was written (`folio reindex` builds it).
            return related.isEmpty ? scanFromCache(query, countOnly: countOnly, access: access, schema: schema) : nil
        }
        memory.answeredFromCache(name, reading: candidates.count)
        return withEvaluation { evaluation in
            evaluation.documents.includeDeleted = query.includeDeleted
            var run = QueryRun(
                query: query, access: access, evaluation: QueryEvaluation(documents: QueryDocuments(empty: schema)))
            swap(&run.evaluation, &evaluation)
            defer { swap(&run.evaluation, &evaluation) }
            let comparisons = run.filterComparisons
            let found = candidates.filter { candidate in
                query.filter.map { run.passes($0, comparisons, id: candidate.id, content: candidate.content) } ?? true
            }
            var explanation = QueryExplanation(
                entity: name, access: access, documents: folder.documents, examined: candidates.count,
                matched: found.count)
            explanation.fromCacheFile = true
            guard !countOnly else {
                return DocumentQueryResult(matches: [], total: found.count, explanation: explanation)
            }
            return run.page(found, total: found.count, explanation: explanation)
        }
    }

    /// Folder `name` as its cache file and a walk have it, to answer from: the one an
    /// earlier answer kept, or a new one, kept, with every index's pairs in an app's store
    /// (its next query may use any) and only those of the index on `properties` in a store
    /// serving one command (a million documents' pairs are 12 MB an index); `nil` when it
    /// cannot be told so (see `makeCachedFolder`), or, in an app's store, when the folder has
    /// fewer documents than `StoreReads.cacheAnswerMinimum` (loading it costs little and answers every
    /// later query) or the answers have read as many documents as it has (loading it once
    /// costs about that).
    func cachedFolder(_ name: String, for properties: [String], cache: CacheIndex? = nil) -> CachedFolder? {
        let kept = memory.cachedFolder(name)
        let (oneCommand, minimum) = (servesOneCommand, reads.cacheAnswerMinimum)
        if let kept { return oneCommand || kept.documentsRead < kept.documents ? kept : nil }
        let made = try? lock.withLock(.shared) { () throws(FolioError) -> CachedFolder? in
            let indexes: Set<String>? = oneCommand ? [CacheIndex.indexName(of: properties)] : nil
            guard let made = try makeCachedFolder(name, keepingIndexes: indexes, smallest: minimum, cache: cache)
            else { return nil }
            // Kept under the shared lock, so a commit into the folder comes after and lets it
            // go; a load meanwhile holds the folder itself.
            memory.keepCachedFolder(made, as: name)
            return made
        }
        return made ?? nil
    }

    /// Folder `name`'s cache file, with a walk of the folder matched against its records (see
    /// `CacheIndex.match`) and the new and changed files read; `nil` when the cache file
    /// cannot tell or describes fewer than `smallest` documents, the walk found an issue or
    /// a staged file, which a load reports or sweeps, or a new or changed file cannot be
    /// used. Call holding the shared lock.
    private func makeCachedFolder(
        _ name: String, keepingIndexes: Set<String>?, smallest: Int = 0, cache given: CacheIndex? = nil
    ) throws(FolioError) -> CachedFolder? {
        guard let cache = given ?? CacheIndex.open(folder: name, from: folder), cache.count >= smallest else {
            return nil
        }
        let listing = try self.listing([name], expectedDocuments: cache.count, keysOnly: true)
        guard listing.issues.isEmpty, listing.stagedFiles.isEmpty,
            let match = cache.match(listing.keyedDocuments, keepingIndexes: keepingIndexes)
        else { return nil }
        let schema = memory.schema
        var changed: [DocumentPath: (version: DocumentVersion, content: JSONObject)] = [:]
        // A revision's changed files are read from git in one run.
        let fetched = try pastTree?.contents(of: match.changed.map(\.stamp))
        for found in match.changed {
            guard case .success(let entry) = readDocument(found, schema: schema, fetched: fetched),
                let content = entry.content.object
            else { return nil }
            changed[entry.path] = (entry.version, content)
        }
        return CachedFolder(cache: cache, match: match, changed: changed)
    }

    /// Hands `body` every document of folder `name` (soft-deleted ones when asked) with only
    /// the members `names` in its content (`nil`: all of them), from the folder's cache file
    /// and a walk, the folder left unloaded: unchanged documents' contents are read from
    /// the file in its own order, new and changed files from disk. `false` when the store
    /// does not answer so, the folder is loaded, or the cache file cannot tell (see
    /// `makeCachedFolder`); `body` may have been handed some documents by then, so a caller
    /// starts over.
    func forEachFromCache(
        in name: String, reading names: [String]?, includeDeleted: Bool,
        _ body: (DocumentPath, JSONObject) -> Void
    ) -> Bool {
        guard servesOneCommand, !memory.isLoaded(name) else { return false }
        let read = try? lock.withLock(.shared) { () throws(FolioError) -> Bool in
            guard let cached = try makeCachedFolder(name, keepingIndexes: []) else { return false }
            return cached.forEachDocument(reading: names, includeDeleted: includeDeleted) { document in
                body(document.path, document.members)
                return true
            }
        }
        guard read == true else { return false }
        memory.answeredFromCache(name, reading: 0)
        return true
    }
}

extension DocumentStore {
    /// The id of every document in entity folder `name` as this store's walk of it found
    /// them, when an answer from the folder's cache file kept that walk (`CachedFolder`): what
    /// lets a command show ids unique among the store's (`folio query`'s table) without
    /// walking the folder a second time. `nil` when no such walk is kept, or its records
    /// cannot be read again.
    package func walkedIdentities(inFolder name: String) -> [UUID]? {
        memory.cachedFolder(name)?.walkedIdentities()
    }
}
