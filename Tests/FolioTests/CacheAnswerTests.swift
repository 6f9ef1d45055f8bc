import FolioTestSupport
import Foundation
import Testing

@testable import FolioCore

/// Queries answered from a folder's cache file and a walk, without loading the folder
/// (`DocumentStore.servesOneCommand`): the same answers as a loaded folder gives,
/// whatever happened to the files or the cache file since it was written.
struct CacheAnswerTests {
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    /// A store of sixty errands over thirty days in two households, closed so its cache
    /// files are written; returns the store's path and the households' identities.
    func makeErrands(in folder: TemporaryDirectory) throws -> (root: String, households: [UUID]) {
        let url = folder.url.appendingPathComponent("Errands")
        let container = try ModelContainer(
            for: Errand.self, Household.self, configurations: ModelConfiguration(url: url, durability: .none))
        let context = ModelContext(container)
        let households = [Household(name: "North"), Household(name: "South")]
        for number in 0..<60 {
            let errand = Errand(
                title: "Errand \(number)", code: "E\(number)", priority: number % 5, done: number % 3 == 0,
                due: Self.start.addingTimeInterval(Double(number / 2) * 86_400), estimate: nil, note: nil, tags: [])
            errand.household = households[number % 2]
            context.insert(errand)
        }
        try context.save()
        letStampsSettle()
        try DocumentStore.open(at: url.path).close()
        return (url.path, households.map(\.persistentModelID.id))
    }

    /// Waits until the files just written are past the file system's tick, so the cache file
    /// the next close writes vouches for them; a cache keeps no stamp as new as its own write
    /// (`FileStamp.isRacy`), and a fast machine closes a store within that window.
    func letStampsSettle() {
        usleep(UInt32(FileStamp.fineSettlingNanoseconds / 1_000) + 30_000)
    }

    /// The queries each test compares: index keys, a unique key, a relationship key, with
    /// more terms, sorts, pages and soft-deleted documents.
    func queries(households: [UUID]) -> [DocumentQuery] {
        func priority(_ value: Int64) -> QueryExpression {
            .compare(.property("priority"), .equal, .value(.integer(value)))
        }
        let done = QueryExpression.compare(.property("done"), .equal, .value(.bool(true)))
        let north = QueryExpression.compare(
            .property("household"), .equal, .value(.document(entity: "Household", id: households[0])))
        let byDue = [DocumentQuery.SortKey(.property("due"), ascending: false)]
        return [
            DocumentQuery(entity: "Errand", filter: priority(3)),
            DocumentQuery(entity: "Errand", filter: priority(3), includeDeleted: true),
            DocumentQuery(entity: "Errand", filter: .and(priority(1), done)),
            DocumentQuery(entity: "Errand", filter: priority(4), sort: byDue, offset: 2, limit: 5),
            DocumentQuery(
                entity: "Errand", filter: .compare(.property("code"), .equal, .value(.string("E12")))),
            DocumentQuery(entity: "Errand", filter: north, sort: byDue, limit: 7),
            DocumentQuery(entity: "Errand", filter: .and(north, priority(2))),
            DocumentQuery(entity: "Errand", limit: 0),
            DocumentQuery(entity: "Errand", limit: 0, includeDeleted: true),
        ]
    }

    /// What a query answers, as the tests compare it: the total and the matches in order.
    func answer(_ query: DocumentQuery, in store: DocumentStore) throws -> [String] {
        let result = try store.query(query)
        return ["total \(result.total)"]
            + result.matches.map { "\($0.id) \($0.stored?.content["title"]?.stringValue ?? "-")" }
    }

    /// Each query's answer from a fresh store answering from cache files, checked against a
    /// fresh store that loads the folder (which then writes the cache file anew); `before`
    /// runs before each. Returns whether each was answered from the cache file.
    func compareAnswers(at root: String, households: [UUID], before: () throws -> Void = {}) throws -> [Bool] {
        try queries(households: households).map { query in
            try before()
            let answering = try DocumentStore.open(at: root, durability: .none, reads: .oneCommand)
            let answered = try answer(query, in: answering)
            #expect(try answer(query, in: DocumentStore.open(at: root, durability: .none)) == answered, "\(query)")
            return answering.statistics.answersFromCacheFiles == 1
        }
    }

    /// The path of every errand's file, relative to the store.
    func errandFiles(in root: String) throws -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: root + "/Errand")
        return (enumerator?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".json") }.sorted().map {
            "Errand/" + $0
        }
    }

    func rewrite(_ relative: String, in root: String, _ change: (String) -> String) throws {
        let url = URL(fileURLWithPath: root + "/" + relative)
        try change(try String(contentsOf: url, encoding: .utf8)).write(to: url, atomically: false, encoding: .utf8)
    }

    @Test func anIndexedQueryIsAnsweredFromTheCacheFileAsTheLoadedFolderAnswersIt() throws {
        let folder = try TemporaryDirectory()
        let (root, households) = try makeErrands(in: folder)
        // A soft-deleted errand of priority 3, by hand, then taken into the cache by a load.
        let files = try errandFiles(in: root)
        let deleted = try #require(
            try files.first { try String(contentsOfFile: root + "/" + $0, encoding: .utf8).contains("\"priority\": 3") }
        )
        try rewrite(deleted, in: root) {
            $0.replacing("{\n", with: "{\n  \"$deleted\": \"2026-11-20T10:00:00Z\",\n", maxReplacements: 1)
        }
        letStampsSettle()
        try DocumentStore.open(at: root, durability: .none).close()

        #expect(try compareAnswers(at: root, households: households).allSatisfy { $0 })
        let store = try DocumentStore.open(at: root, durability: .none, reads: .oneCommand)
        let result = try store.query(queries(households: households)[0])
        #expect(result.explanation.fromCacheFile)
        #expect(result.explanation.documents == 60)
        #expect(result.total == 11, "twelve errands of priority 3, one soft-deleted")
        #expect(store.statistics.filesRead == 0 && store.statistics.cacheHits == 0, "the folder was not loaded")
        #expect(store.unreadableDocuments(of: "Errand").isEmpty)
        #expect(store.statistics.cacheHits == 0, "nor was it loaded to say it is clean")
    }

    @Test func filesChangedAddedOrRemovedSinceTheCacheFileAreSeen() throws {
        let folder = try TemporaryDirectory()
        let (root, households) = try makeErrands(in: folder)
        let files = try errandFiles(in: root)
        // One errand moves to priority 3, one is copied under a new identity, one goes.
        try rewrite(files[1], in: root) { $0.replacing(/"priority": \d/, with: "\"priority\": 3") }
        let copy = try String(contentsOfFile: root + "/" + files[3], encoding: .utf8)
        let oldID = String(files[3].split(separator: "/").last!.prefix(36))
        let newID = UUID().uuidString
        let copyPath = files[3].replacing(oldID, with: newID)
        try copy.replacing(oldID, with: newID).replacing(/"code": "E\d+"/, with: "\"code\": \"copy\"")
            .write(toFile: root + "/" + copyPath, atomically: false, encoding: .utf8)
        try FileManager.default.removeItem(atPath: root + "/" + files[8])

        #expect(try compareAnswers(at: root, households: households).allSatisfy { $0 })
    }

    @Test func aDamagedIndexPartOrContentIsNotTrusted() throws {
        let folder = try TemporaryDirectory()
        let (root, households) = try makeErrands(in: folder)
        let cache = URL(fileURLWithPath: root + "/.folio/cache/Errand")
        let bytes = [UInt8](try Data(contentsOf: cache))
        let footer = bytes.count - 8 - DocumentCache.Footer.size
        let indexStart = bytes.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: footer + 16, as: UInt64.self)) }
        // A byte of errand E12's content (its title): read by the query by its code and by
        // those of its household, North; the queries by priority 3, 1 and 4 do not read it.
        let content = try #require(bytes.firstRange(of: Array("Errand 12".utf8))).lowerBound + 1
        // A byte of the index part's first record, which every query's walk is matched against.
        let record = indexStart + 16 + 3
        for (offset, trusted) in [
            (content, [true, true, true, true, false, false, false, true, true]),
            (record, [Bool](repeating: false, count: 9)),
        ] {
            var damaged = bytes
            damaged[offset] ^= 0x5A
            #expect(
                try compareAnswers(at: root, households: households) { try Data(damaged).write(to: cache) } == trusted)
        }
    }

    @Test func aFileThatCannotBeReadIsReportedByTheLoadedFolder() throws {
        let folder = try TemporaryDirectory()
        let (root, households) = try makeErrands(in: folder)
        let broken = try errandFiles(in: root)[0].replacing(/[0-9A-F-]{36}/, with: UUID().uuidString)
        try "{".write(toFile: root + "/" + broken, atomically: false, encoding: .utf8)
        #expect(try compareAnswers(at: root, households: households).allSatisfy { !$0 })
        let store = try DocumentStore.open(at: root, durability: .none, reads: .oneCommand)
        _ = try store.query(queries(households: households)[0])
        #expect(store.unreadableDocuments(of: "Errand").map(\.path) == [broken])
    }

    @Test func anImportWritesTheIndexPartAndACacheFileWithoutOneIsWrittenAgain() throws {
        let folder = try TemporaryDirectory()
        let (root, households) = try makeErrands(in: folder)
        let store = try DocumentStore.open(at: root, durability: .none)
        let template = try #require(store.documents(entity: "Errand").first)
        var remaining = (0..<20).makeIterator()
        try store.importDocuments(into: "Errand", author: "test") {
            () throws(FolioError) -> DocumentStore.ImportedDocument? in
            guard let number = remaining.next() else { return nil }
            let id = UUID()
            var content = template.content
            content["id"] = .string(UUIDText.text(of: id))
            content["code"] = .string("I\(number)")
            content["priority"] = .integer(3)
            return (Document(entity: "Errand", id: id, partitionDate: Self.start, content: content), nil)
        }
        #expect(CacheIndex.open(folder: "Errand", from: store.folder)?.count == 80)
        #expect(try compareAnswers(at: root, households: households).allSatisfy { $0 })

        // A writer that gave up on the index part (past its limit, as an import of a large
        // folder does) writes the entries without it; the next load writes the file again.
        _ = store.documents(entity: "Errand")  // the import unloaded the folder
        let catalog = store.memory.locked { $0.catalog }
        var writer = try DocumentCache.Writer(
            folder: "Errand", historyToken: nil, index: CacheIndex.Builder(entity: nil, limit: 10), in: store.folder)
        for entry in catalog.entries(inFolder: "Errand") {
            try writer.append(
                entry.path, stamp: entry.stamp, contentHash: entry.contentHash, compact: entry.content.compactBytes)
        }
        _ = try writer.finish()
        #expect(CacheIndex.open(folder: "Errand", from: store.folder) == nil)
        let reopened = try DocumentStore.open(at: root, durability: .none)
        _ = reopened.documents(entity: "Errand")
        #expect(reopened.statistics.filesRead == 0, "the entries were used")
        #expect(CacheIndex.open(folder: "Errand", from: reopened.folder)?.count == 80)
    }

    @Test func aCacheFileWhoseRecordsWaitedInAFileIsTheOneWrittenFromMemory() throws {
        let folder = try TemporaryDirectory()
        let (root, _) = try makeErrands(in: folder)
        let store = try DocumentStore.open(at: root, durability: .none)
        _ = store.documents(entity: "Errand")
        let entries = store.memory.locked { $0.catalog }.entries(inFolder: "Errand")
        let entity = store.memory.importBasis.schema.entities["Errand"]
        // One record in the middle and the last get new stamps, as an import's files do once moved.
        let moved = FileStamp(size: 7, modified: 1_000, changed: 2_000, inode: 3, device: 4)
        let restamped = [entries.count / 2, entries.count - 1]
        func written(recordsInMemory: Int) throws -> [UInt8] {
            var writer = try DocumentCache.Writer(
                folder: "Errand", historyToken: 9, index: CacheIndex.Builder(entity: entity), in: store.folder,
                recordsInMemory: recordsInMemory)
            for entry in entries {
                try writer.append(
                    entry.path, stamp: entry.stamp, contentHash: entry.contentHash, compact: entry.content.compactBytes)
            }
            for number in restamped { writer.restamp(number, moved) }
            #expect(try writer.finish() != nil)
            let left = try store.folder.list(DocumentCache.folderName)
            #expect(left.contains("Errand") && !left.contains { $0.hasPrefix("Errand.") }, "nothing left beside it")
            return try #require(FileManager.default.contents(atPath: root + "/.folio/cache/Errand")).map { $0 }
        }
        let fromMemory = try written(recordsInMemory: CacheIndex.RecordFile.defaultMemoryBound)
        let fromFile = try written(recordsInMemory: 5 * CacheIndex.recordSize)
        #expect(entries.count > 20)
        #expect(fromFile == fromMemory)
        let index = try #require(CacheIndex.open(folder: "Errand", from: store.folder))
        #expect(index.count == entries.count)
        for number in restamped {
            let position = try #require(index.position(of: entries[number].path.orderKey))
            #expect(index.record(at: position)?.stamp == moved)
        }
    }

    @Test func theSummaryFromCacheFilesIsTheLoadedStoresSummary() throws {
        let folder = try TemporaryDirectory()
        let (root, _) = try makeErrands(in: folder)
        func summaries() throws -> (fromCache: StoreSummary, loaded: StoreSummary, answered: Bool) {
            let answering = try DocumentStore.open(at: root, durability: .none, reads: .oneCommand)
            let fromCache = answering.summary
            let answered = answering.statistics.cacheHits == 0 && answering.statistics.filesRead == 0
            return (fromCache, try DocumentStore.open(at: root, durability: .none).summary, answered)
        }
        func expectSame(_ summaries: (fromCache: StoreSummary, loaded: StoreSummary, answered: Bool)) {
            #expect(summaries.fromCache.tallies == summaries.loaded.tallies)
            #expect(summaries.fromCache.documents == summaries.loaded.documents)
            #expect(summaries.fromCache.bytes == summaries.loaded.bytes)
            #expect(summaries.fromCache.issues.map(\.path) == summaries.loaded.issues.map(\.path))
        }
        let clean = try summaries()
        expectSame(clean)
        #expect(clean.answered)
        #expect(clean.fromCache.tallies["Errand"]?.live == 60 && clean.fromCache.tallies["Errand"]?.days != nil)

        // A soft delete, a new file, a broken file and a removed one since the cache files were written.
        let files = try errandFiles(in: root)
        try rewrite(files[0], in: root) {
            $0.replacing("{\n", with: "{\n  \"$deleted\": \"2026-11-20T10:00:00Z\",\n", maxReplacements: 1)
        }
        try "{".write(
            toFile: root + "/" + files[1].replacing(/[0-9A-F-]{36}/, with: UUID().uuidString), atomically: false,
            encoding: .utf8)
        try FileManager.default.removeItem(atPath: root + "/" + files[2])
        let edited = try summaries()
        expectSame(edited)
        #expect(edited.answered)
        #expect(edited.fromCache.tallies["Errand"]?.deleted == 1 && edited.fromCache.tallies["Errand"]?.live == 58)
        #expect(edited.fromCache.issues.count == 1)
    }

    @Test func anAggregateOverEveryDocumentIsAnsweredFromTheCacheFileAsTheLoadedFolderAnswersIt() throws {
        let folder = try TemporaryDirectory()
        let (root, _) = try makeErrands(in: folder)
        let aggregates: [(DocumentQuery, QueryAggregate, [QueryExpression])] = [
            (DocumentQuery(entity: "Errand"), QueryAggregate(.sum, of: .property("priority")), []),
            (DocumentQuery(entity: "Errand"), QueryAggregate(.count), [.property("done")]),
            (
                DocumentQuery(entity: "Errand", includeDeleted: true),
                QueryAggregate(.average, of: .property("priority")),
                [.property("done")]
            ),
        ]
        /// Each aggregate from a store answering from cache files and from one loading the
        /// folder, compared; whether each was answered from the cache file.
        func compare() throws -> [Bool] {
            try aggregates.map { query, aggregate, groupBy in
                let answering = try DocumentStore.open(at: root, durability: .none, reads: .oneCommand)
                let answered = try answering.aggregate(query, aggregate, groupedBy: groupBy)
                let loaded = try DocumentStore.open(at: root, durability: .none)
                #expect(try loaded.aggregate(query, aggregate, groupedBy: groupBy) == answered, "\(aggregate)")
                return answering.statistics.answersFromCacheFiles == 1
            }
        }
        #expect(try compare() == [true, true, true])

        // A soft delete and a change by hand since the cache file was written, and a new file.
        let files = try errandFiles(in: root)
        try rewrite(files[0], in: root) {
            $0.replacing("{\n", with: "{\n  \"$deleted\": \"2026-11-20T10:00:00Z\",\n", maxReplacements: 1)
        }
        try rewrite(files[1], in: root) { $0.replacing(/"priority": \d/, with: "\"priority\": 40") }
        let copy = try String(contentsOfFile: root + "/" + files[2], encoding: .utf8)
        let oldID = String(files[2].split(separator: "/").last!.prefix(36))
        let newID = UUID().uuidString
        try copy.replacing(oldID, with: newID).replacing(/"code": "E\d+"/, with: "\"code\": \"copy\"")
            .write(toFile: root + "/" + files[2].replacing(oldID, with: newID), atomically: false, encoding: .utf8)
        #expect(try compare() == [true, true, true])

        // A damaged content in the cache file: the folder is loaded instead.
        let cache = URL(fileURLWithPath: root + "/.folio/cache/Errand")
        var bytes = [UInt8](try Data(contentsOf: cache))
        bytes[try #require(bytes.firstRange(of: Array("Errand 12".utf8))).lowerBound + 1] ^= 0x5A
        try Data(bytes).write(to: cache)
        let answering = try DocumentStore.open(at: root, durability: .none, reads: .oneCommand)
        let (query, aggregate, groupBy) = aggregates[1]
        let answered = try answering.aggregate(query, aggregate, groupedBy: groupBy)
        #expect(answering.statistics.answersFromCacheFiles == 0)
        #expect(
            answered
                == (try DocumentStore.open(at: root, durability: .none).aggregate(query, aggregate, groupedBy: groupBy))
        )
    }

    @Test func equalKeysHashAlikeInEveryProcess() {
        let pairs: [(QueryValue, QueryValue)] = [
            (.integer(3), .double(3.0)), (.double(0.0), .double(-0.0)), (.string("\u{212A}"), .string("K")),
            (.string("e\u{301}"), .string("\u{E9}")), (.array([.integer(1)]), .array([.double(1)])),
            (
                .document(entity: "A", id: UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))),
                .document(entity: "A", id: UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)))
            ),
        ]
        for (left, right) in pairs {
            #expect(left == right)
            #expect(QueryValue.stableHash(of: [left]) == QueryValue.stableHash(of: [right]), "\(left) \(right)")
        }
        #expect(QueryValue.stableHash(of: [.string("a")]) != QueryValue.stableHash(of: [.string("b")]))
        // The same in every process: a fixed value.
        #expect(QueryValue.stableHash(of: [.string("abc"), .integer(1)]) == 3_721_178_941_676_074_084)
    }
}
