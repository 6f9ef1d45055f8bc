import FolioJSON
import Foundation

extension DocumentStore {
    /// The answer to a query that no index the cache file holds narrows (a scan, a day range,
    /// an index declared since the file was written), streamed from its folder's cache file:
    /// of each document only the members the filter reads are decoded and tested, and only
    /// what passes is kept, whole (nothing, for a count). Memory holds the walk and the
    /// matches, never the folder. `nil` when the ordinary run must answer: a folder the cache
    /// file cannot tell (see `makeCachedFolder`), or in an app's store, a folder smaller than
    /// `StoreReads.cacheAnswerMinimum` or one whose answers from the cache file have read as
    /// many documents as it holds (a scan reads them all, so an app's second scan of a
    /// folder loads it and answers every later one from memory). The caller has checked that
    /// the query reads no other folder.
    ///
    /// When the folder has not been walked yet, the cache file's entries are streamed and
    /// tested on another core while this one walks (`CachedFolder.testEntries`), keeping only
    /// where those that passed lie. The records then give each its verdict, checked against
    /// what was streamed, and the walk says which verdicts stand (the records whose files are
    /// unchanged): a count takes them as they are, a query reads whole only the records that
    /// passed, and the new and changed files the walk read are tested after. So a scan costs
    /// about the longer of the two, as `git status` costs its walk, rather than their sum,
    /// and holds no list of the folder's contents.
    func scanFromCache(
        _ query: DocumentQuery, countOnly: Bool, access: QueryAccess, schema: QuerySchema, cache: CacheIndex? = nil
    ) -> DocumentQueryResult? {
        // Every document of the entity, whole (`folio query Entity`, `export`): no less to keep than a load.
        guard query.filter != nil || query.limit != nil || countOnly else { return nil }
        let name = query.entity
        // A count keeps no match (`folio count` asks for none: a limit of 0).
        var scan = CacheScan(query: query, access: access, schema: schema, keepsMatches: !countOnly && query.limit != 0)
        var testing: EntryTests?
        let walked: CachedFolder?
        if query.filter != nil, memory.cachedFolder(name) == nil,
            let cache = cache ?? CacheIndex.open(folder: name, from: self.folder),
            servesOneCommand || cache.count >= reads.cacheAnswerMinimum
        {
            let tests = EntryTests()
            testing = tests
            let reading = DispatchGroup()
            DispatchQueue.global().async(group: reading) {
                var tester = CacheScan(query: query, access: access, schema: schema, keepsMatches: false)
                tests.tested = CachedFolder.testEntries(of: cache, reading: tester.members) { tester.passes($0, $1) }
            }
            walked = cachedFolder(name, for: [], cache: cache)
            reading.wait()
        } else {
            walked = cachedFolder(name, for: [])
        }
        guard let folder = walked else { return nil }
        var records = CachedFolder.UnchangedRecords.all
        if let testing {
            guard let tested = testing.tested, let passing = folder.verdicts(tested) else { return nil }
            // The records tested while walking: those that failed (and, for a count, all of
            // them) are settled by their verdicts; those a query keeps are read whole below.
            for position in folder.unchangedPositions(includeDeleted: query.includeDeleted)
            where !(scan.keepsMatches && passing[position]) {
                scan.settle(passed: passing[position])
            }
            records = scan.keepsMatches ? .among { passing[$0] } : .none
        }
        let read = folder.forEachDocument(reading: scan.members, includeDeleted: query.includeDeleted, records: records)
        {
            document in
            guard scan.passes(document.path.id, document.members) else { return true }
            guard scan.keepsMatches else {
                scan.count()
                return true
            }
            guard let (content, version) = document.whole() else { return false }
            scan.keep(document.path.id, content, version)
            return true
        }
        guard read else { return nil }
        // Every document was read, in part: in an app's store, the next such answer loads the folder.
        memory.answeredFromCache(name, reading: folder.documents)
        var explanation = QueryExplanation(
            entity: name, access: access, documents: folder.documents, examined: scan.examined, matched: scan.matched)
        explanation.fromCacheFile = true
        explanation.streamed = true
        return scan.result(explanation)
    }
}

/// The entries tested on another core, written by that thread alone and read only after
/// waiting for it: hence `@unchecked`.
private final class EntryTests: @unchecked Sendable {
    var tested: CachedFolder.TestedEntries?
}

/// One pass of a query's filter over a folder's documents as they stream by: what it reads
/// of each, and the matches it keeps, no more than the page needs once there are many.
private struct CacheScan {
    let query: DocumentQuery
    /// The members the filter reads: all a document needs to be tested.
    let members: [String]
    let keepsMatches: Bool
    private let comparisons: AttributeComparisons?
    /// The run that tests the filter and orders the page; it reads no other folder.
    private var run: QueryRun
    /// For a query with a limit, a run keeping the first `offset + limit` in its order: it
    /// trims the matches kept whenever they grow past twice that.
    private var window: QueryRun?
    private(set) var examined = 0
    private(set) var matched = 0
    private var found: [QueryRun.Found] = []

    init(query: DocumentQuery, access: QueryAccess, schema: QuerySchema, keepsMatches: Bool) {
        self.query = query
        self.keepsMatches = keepsMatches
        members = Set(query.filter?.memberNames ?? []).sorted()
        comparisons = query.filter.flatMap { filter in
            schema.entities[query.entity].flatMap { AttributeComparisons(filter, entity: $0) }
        }
        var evaluation = QueryEvaluation(documents: QueryDocuments(empty: schema))
        evaluation.documents.includeDeleted = query.includeDeleted
        run = QueryRun(query: query, access: access, evaluation: evaluation)
        if let limit = query.limit {
            var first = query
            let (sum, overflow) = max(query.offset, 0).addingReportingOverflow(max(limit, 0))
            (first.offset, first.limit) = (0, overflow ? Int.max : sum)
            window = QueryRun(query: first, access: access, evaluation: evaluation)
        }
    }

    /// Whether a document passes the filter, tested on the members it reads.
    mutating func passes(_ id: UUID, _ content: JSONObject) -> Bool {
        examined += 1
        guard let filter = query.filter else { return true }
        if let comparisons { return comparisons.test(content) }
        return run.evaluation.test(filter, on: PersistentIdentifier(entityName: query.entity, id: id), content: content)
    }

    /// Counts a match that is not kept.
    mutating func count() { matched += 1 }

    /// Counts a document tested elsewhere (see `CachedFolder.testEntries`), and if it passed, a
    /// match that is not kept.
    mutating func settle(passed: Bool) {
        examined += 1
        if passed { matched += 1 }
    }

    /// Keeps a match, whole, trimming the matches kept to the window when they have grown.
    mutating func keep(_ id: UUID, _ content: JSONObject, _ version: DocumentVersion) {
        matched += 1
        found.append(QueryRun.Found(id: id, decoded: content, version: version))
        guard var window, let wanted = window.query.limit, wanted < Int.max / 2, found.count >= max(2 * wanted, 4_096)
        else { return }
        var unused = QueryExplanation(entity: query.entity, access: run.access, documents: 0, examined: 0, matched: 0)
        found = Array(window.ordered(found.sorted { $0.path! < $1.path! }, explanation: &unused))
        self.window = window
    }

    /// The answer: the count, or the page in the query's order.
    mutating func result(_ explanation: QueryExplanation) -> DocumentQueryResult {
        guard keepsMatches else { return DocumentQueryResult(matches: [], total: matched, explanation: explanation) }
        return run.page(found, total: matched, explanation: explanation)
    }
}
