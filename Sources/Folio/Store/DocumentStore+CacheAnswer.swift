import FolioJSON
import Foundation

extension DocumentStore {
    /// What a cache file and a walk gave for a query: the candidates (every document that
    /// may match, and only those) and how many documents the entity has.
    private struct CacheCandidates {
        var found: [QueryRun.Found] = []
        var documents = 0
    }

    /// The answer to `query` from its folder's cache file, without loading the folder; `nil`
    /// whenever the ordinary run must answer instead: the store does not answer so, the
    /// folder is loaded, the plan is not one index key of the entity's own members, the
    /// cache file has no usable index part, or the walk found anything the cache does not
    /// vouch for that cannot be read here (an issue, a staged file, an unreadable or
    /// duplicate document, or more changed files than a rewrite of the cache would wait for).
    ///
    /// Under the shared lock, as a load is: a `stat`-only walk of the folder, matched against
    /// the file's records in store order; the index gives the positions holding the key, of
    /// which those whose file is unchanged are read from the cache file (each checked against
    /// its hash), and every new or changed file is read from disk. Every candidate is then
    /// tested against the whole filter, so the index only ever narrows what is read.
    func answerFromCache(_ query: DocumentQuery, countOnly: Bool) -> DocumentQueryResult? {
        // The flag alone first: every fetch of an app comes this way.
        guard servesOneCommand else { return nil }
        let (schema, calendar) = state.withLock { ($0.querySchema, $0.calendar) }
        guard (try? schema.entity(query.entity, in: root)) != nil else { return nil }
        let query = schema.inFolder(query)
        let name = query.entity
        let expressions = (query.filter.map { [$0] } ?? []) + query.sort.map(\.expression)
        // The folders the filter reads related documents in are loaded as for any query; the
        // entity's own must not be among them, since its documents stay out of the catalog.
        let related = schema.relatedFolders(readBy: expressions, of: name)
        guard let entity = schema.entities[name], !related.contains(name),
            query.filter.map({ (try? $0.checkDepth()) != nil }) ?? true,
            query.sort.allSatisfy({ (try? $0.expression.checkDepth()) != nil }),
            !state.withLock({ $0.catalog.isLoaded(name) })
        else { return nil }
        let access = QueryAccess.plan(query.filter, for: entity, in: schema, calendar: calendar)
        // How many documents there are (`folio count Entity`): the match's flags say, with new
        // and changed files read.
        if query.filter == nil, countOnly || query.limit == 0 {
            guard
                let (total, documents) = try? lock.withLock(
                    .shared,
                    { () throws(FolioError) -> (Int, Int)? in
                        try cacheCount(in: name, includeDeleted: query.includeDeleted)
                    })
            else { return nil }
            noteAnswerFromCache(in: name)
            var explanation = QueryExplanation(
                entity: name, access: access, documents: documents, examined: 0, matched: total)
            explanation.fromCacheFile = true
            return DocumentQueryResult(matches: [], total: total, explanation: explanation)
        }
        let (properties, key): ([String], [QueryValue])
        switch access {
        case .index(let indexed, let value, _): (properties, key) = (indexed, value)
        case .relationship(let property, let id):
            guard case .relationship(let destination, _, _)? = entity.property(named: property) else { return nil }
            (properties, key) = ([property], [.document(entity: destination, id: id)])
        default: return nil
        }
        guard (try? load(related)) != nil,
            let candidates = try? lock.withLock(
                .shared,
                { () throws(FolioError) -> CacheCandidates? in
                    try cacheCandidates(in: name, on: properties, key: key, includeDeleted: query.includeDeleted)
                })
        else { return nil }
        noteAnswerFromCache(in: name)
        return withEvaluation { evaluation in
            evaluation.documents.includeDeleted = query.includeDeleted
            var run = QueryRun(
                query: query, access: access, evaluation: QueryEvaluation(documents: QueryDocuments(empty: schema)))
            swap(&run.evaluation, &evaluation)
            defer { swap(&run.evaluation, &evaluation) }
            let comparisons = run.filterComparisons
            var found = candidates.found.filter { candidate in
                query.filter.map { run.passes($0, comparisons, id: candidate.id, content: candidate.content) } ?? true
            }
            found.sort { $0.path! < $1.path! }
            var explanation = QueryExplanation(
                entity: name, access: access, documents: candidates.documents, examined: candidates.found.count,
                matched: found.count)
            explanation.fromCacheFile = true
            guard !countOnly else {
                return DocumentQueryResult(matches: [], total: found.count, explanation: explanation)
            }
            let page = run.ordered(found, explanation: &explanation)
            return DocumentQueryResult(
                matches: page.map { run.match($0) }, total: found.count, explanation: explanation)
        }
    }

    /// Records that folder `name` answered from its cache file, its walk clean.
    private func noteAnswerFromCache(in name: String) {
        state.withLock { state in
            state.answeredFromCache.insert(name)
            state.statistics.answersFromCacheFiles += 1
        }
    }

    /// How many documents folder `name` has (soft-deleted ones when asked), and how many in
    /// all, from its cache file and a walk; `nil` when they cannot be told so. Call holding
    /// the shared lock.
    private func cacheCount(in name: String, includeDeleted: Bool) throws(FolioError) -> (Int, Int)? {
        guard let (_, match, changed) = try matchedCache(of: name, includeDeleted: includeDeleted) else { return nil }
        let unchanged = match.unchanged.indices.count {
            match.unchanged[$0] && (includeDeleted || !match.deleted[$0])
        }
        return (unchanged + changed.count, match.documents)
    }

    /// Folder `name`'s cache file, a walk of the folder matched against its records (see
    /// `CacheIndex.match`), and the new and changed files read (soft-deleted ones left out
    /// unless asked for); `nil` when the walk found an issue or a staged file, which a load
    /// reports or sweeps, a new or changed file cannot be used, or the cache file cannot
    /// tell. Call holding the shared lock.
    private func matchedCache(
        of name: String, keepingIndexOn properties: [String]? = nil, includeDeleted: Bool
    ) throws(FolioError) -> (cache: CacheIndex, match: CacheIndex.Match, changed: [(Catalog.Entry, JSONObject)])? {
        guard let cache = CacheIndex.open(folder: name, from: folder) else { return nil }
        let listing = try TreeListing(root: folder, folders: [name], expectedDocuments: cache.count, keysOnly: true)
        guard listing.issues.isEmpty, listing.stagedFiles.isEmpty,
            let match = cache.match(
                listing.keyedDocuments, in: name, keepingIndexOn: properties)
        else { return nil }
        let schema = state.withLock { $0.querySchema }
        var changed: [(Catalog.Entry, JSONObject)] = []
        for found in match.changed {
            guard case .success(let entry) = readDocument(found, schema: schema), let content = entry.content.object
            else { return nil }
            if includeDeleted || content[ModelDocument.deletedKey] == nil { changed.append((entry, content)) }
        }
        return (cache, match, changed)
    }

    /// The documents of `folder` that may hold `key` on `properties`, as its cache file and
    /// a walk have them; `nil` when they cannot be told without loading the folder. Call
    /// holding the shared lock.
    private func cacheCandidates(in name: String, on properties: [String], key: [QueryValue], includeDeleted: Bool)
        throws(FolioError) -> CacheCandidates?
    {
        guard
            let (cache, match, changed) = try matchedCache(
                of: name, keepingIndexOn: properties, includeDeleted: includeDeleted)
        else { return nil }
        var candidates = CacheCandidates(documents: match.documents)
        for (entry, content) in changed {
            candidates.found.append(QueryRun.Found(id: entry.path.id, content: content, version: entry.version))
        }
        for position in match.positions(of: key) where match.unchanged[position] {
            guard let record = cache.record(at: position), let path = record.path(in: name) else { return nil }
            guard includeDeleted || !record.isDeleted else { continue }
            guard let content = cache.content(of: record) else { return nil }
            let version = DocumentVersion(
                path: path, stamp: record.stamp, contentHash: record.contentHash, verified: true)
            candidates.found.append(QueryRun.Found(id: path.id, content: content, version: version))
        }
        return candidates
    }

    /// Hands `body` every document of folder `name` (soft-deleted ones when asked) with only
    /// the members `names` in its content (`nil`: all of them), from the folder's cache file
    /// and a walk, the folder left unloaded: unchanged documents' contents are read from
    /// the file in its own order, new and changed files from disk. `false` when the store
    /// does not answer so, the folder is loaded, or the cache file cannot tell (see
    /// `matchedCache`); `body` may have been handed some documents by then, so a caller
    /// starts over.
    func forEachFromCache(
        in name: String, reading names: [String]?, includeDeleted: Bool,
        _ body: (DocumentPath, JSONObject) -> Void
    ) -> Bool {
        guard servesOneCommand, !state.withLock({ $0.catalog.isLoaded(name) }) else { return false }
        let read = try? lock.withLock(.shared) { () throws(FolioError) -> Bool in
            guard
                let (cache, match, changed) = try matchedCache(of: name, includeDeleted: includeDeleted)
            else { return false }
            var decoded = true
            let readable = cache.readContents(where: {
                match.unchanged[$0] && (includeDeleted || !match.deleted[$0])
            }) { key, bytes in
                guard decoded, let (day, id) = key.parts, let content = Self.content(bytes, members: names) else {
                    decoded = false
                    return
                }
                body(DocumentPath(validEntity: name, day: day, id: id, blobProperty: nil), content)
            }
            guard readable, decoded else { return false }
            for (entry, content) in changed { body(entry.path, content) }
            return true
        }
        guard read == true else { return false }
        noteAnswerFromCache(in: name)
        return true
    }

    /// A cache file's compact content, whole or only `members`; `nil` when it does not decode.
    private static func content(_ bytes: UnsafeRawBufferPointer, members names: [String]?) -> JSONObject? {
        guard let names else { return CompactJSON.decode(bytes)?.objectValue }
        guard let values = CompactJSON.members(names, of: bytes) else { return nil }
        var content = JSONObject()
        for (name, value) in zip(names, values) { content[name] = value }
        return content
    }
}
