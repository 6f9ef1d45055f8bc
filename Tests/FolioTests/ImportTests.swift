import Foundation
import Testing

@testable import FolioCore

/// `DocumentStore.importDocuments`: many documents as one transaction, each staged as it comes.
struct ImportTests {
    /// Hands `documents` over one at a time, throwing instead of handing over the one at `failingAt`.
    @discardableResult
    func importing(_ documents: [DocumentStore.ImportedDocument], into store: DocumentStore, failingAt: Int? = nil)
        throws(FolioError) -> CommitSummary
    {
        var remaining = documents.enumerated().makeIterator()
        return try store.importDocuments(into: "Timer", author: "importer") {
            () throws(FolioError) -> DocumentStore.ImportedDocument? in
            guard let (index, next) = remaining.next() else { return nil }
            if index == failingAt { throw .invalidInput("record \(index) is bad") }
            return next
        }
    }

    /// Every file under the store's folder whose name ends with `suffix`.
    func files(in directory: TemporaryDirectory, endingWith suffix: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: directory("store"))
        return (enumerator?.allObjects as? [String] ?? []).filter { $0.hasSuffix(suffix) }
    }

    func days(_ count: Int, from first: Int = 0) -> [DocumentStore.ImportedDocument] {
        (0..<count).map { index in
            (timer("Timer \(index)", date: november22().addingTimeInterval(Double(first + index % 3) * 86_400)), nil)
        }
    }

    @Test func anImportWritesEveryDocumentWithOneHistoryRecordAndACacheTheNextOpenUses() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        try store.commit([.put(timer("Before"), basedOn: nil)])
        let summary = try importing(days(300), into: store)
        #expect(summary.written == 300)
        #expect(summary.unchanged == 0)
        #expect(store.documents(entity: "Timer").count == 301)
        let last = try #require(days(1).first?.document)
        try importing([(last, nil)], into: store)
        #expect(store.document(entity: "Timer", id: last.id)?.content["name"] == "Timer 0")
        let records = try store.history(after: 0).records
        #expect(records.map(\.token) == [1, 2, 3])
        #expect(records[1].changes.count == 300)
        #expect(records[1].author == "importer")
        #expect(records[1].changes.allSatisfy { $0.kind == .insert })
        #expect(files(in: directory, endingWith: ".staged").isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory("store/.folio/journal")).isEmpty)

        let reopened = try DocumentStore.open(at: directory("store"), durability: .none)
        #expect(reopened.documents(entity: "Timer").count == 302)
        #expect(reopened.statistics.filesRead == 0, "the import's cache file holds every document")
        #expect(reopened.issues.isEmpty)
        try reopened.commit([.put(timer("After"), basedOn: nil)])
        #expect(try reopened.history(after: 0).records.map(\.token) == [1, 2, 3, 4])
    }

    @Test func aLargeImportMovesItsFilesIntoPlaceOnTwoThreadsAndTheCacheVouchesForEveryOne() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        // Over `parallelPlacing`, in runs of days as a year of records comes: both threads move files.
        let count = ImportRun.parallelPlacing + 904
        let documents = (0..<count).map { index -> DocumentStore.ImportedDocument in
            (timer("Timer \(index)", date: november22().addingTimeInterval(Double(index / 500) * 86_400)), nil)
        }
        var placed: [Int] = []
        var remaining = documents.makeIterator()
        let summary = try store.importDocuments(
            into: "Timer", author: "importer", committing: { done, total in placed.append(done * 100 / total) }
        ) { () throws(FolioError) -> DocumentStore.ImportedDocument? in remaining.next() }
        #expect(summary.written == count)
        #expect(placed.first == 0 && placed.last == 100 && placed == placed.sorted(), "\(placed)")
        #expect(files(in: directory, endingWith: ".json").filter { $0.hasPrefix("Timer/") }.count == count)
        #expect(files(in: directory, endingWith: ".staged").isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory("store/.folio/journal")).isEmpty)

        let reopened = try DocumentStore.open(at: directory("store"), durability: .none)
        #expect(reopened.documents(entity: "Timer").count == count)
        #expect(reopened.statistics.filesRead == 0, "the cache's stamps are those of the files moved into place")
        #expect(reopened.issues.isEmpty)
    }

    @Test func anImportThatFailsPartWayLeavesTheStoreAsItWas() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        try store.commit([.put(timer("Before"), basedOn: nil)])
        let before = files(in: directory, endingWith: ".json").sorted()
        let error = try #require(throws: FolioError.self) { try importing(days(300), into: store, failingAt: 200) }
        #expect(error.description.contains("record 200 is bad"))
        #expect(files(in: directory, endingWith: ".json").sorted() == before)
        #expect(files(in: directory, endingWith: ".staged").isEmpty)
        #expect(files(in: directory, endingWith: ".tmp").isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory("store/.folio/journal")).isEmpty)
        #expect(store.documents(entity: "Timer").count == 1)

        let reopened = try DocumentStore.open(at: directory("store"), durability: .none)
        #expect(reopened.documents(entity: "Timer").count == 1)
        try reopened.commit([.put(timer("After"), basedOn: nil)])
        let records = try reopened.history(after: 0).records
        #expect(records.map(\.token) == [1, 2])
        #expect(records.allSatisfy { $0.changes.count == 1 })
    }

    @Test func anImportUpdatesAndMovesStoredDocumentsAndCountsThoseAlreadyAsWritten() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        let (same, renamed, moved) = (timer("Same"), timer("Old name"), timer("Moved"))
        let versions = try store.commit([same, renamed, moved].map { .put($0, basedOn: nil) }).versions
        func version(_ document: Document) throws -> DocumentVersion {
            try #require(versions.values.first { $0.path.id == document.id })
        }
        var newName = renamed
        newName.content["name"] = "New name"
        var nextDay = moved
        nextDay.partitionDate = november22().addingTimeInterval(86_400)
        let summary = try importing(
            [(same, try version(same)), (newName, try version(renamed)), (nextDay, try version(moved))], into: store)
        #expect(summary.written == 2)
        #expect(summary.unchanged == 1)
        #expect(store.document(entity: "Timer", id: renamed.id)?.content["name"] == "New name")
        let movedPath = try #require(store.document(entity: "Timer", id: moved.id)?.version.path)
        #expect(movedPath.day == Day(year: 2026, month: 11, day: 23))
        #expect(!FileManager.default.fileExists(atPath: directory("store/" + (try version(moved)).path.relativePath)))
        #expect(store.documents(entity: "Timer").count == 3)
        // As a commit records them: the new name; a move alone changes no value a model sees.
        let records = try store.history(after: 0).records
        #expect(records.count == 2)
        #expect(records.last?.changes.map(\.id) == [renamed.id])
        #expect(records.last?.changes.first?.kind == .update)
    }

    @Test func anIdentityTwiceInOneImportIsRefusedAndNothingIsWritten() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        let twice = timer("Twice")
        let error = try #require(throws: FolioError.self) {
            try importing([(twice, nil), (timer("Other"), nil), (twice, nil)], into: store)
        }
        #expect(error.description.contains("appears twice"))
        #expect(files(in: directory, endingWith: ".json").filter { $0.hasPrefix("Timer/") }.isEmpty)
        #expect(store.documents(entity: "Timer").isEmpty)
    }

    @Test func aDocumentOfAnotherEntityFolderIsRefused() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        let todo = Document(entity: "TodoItem", id: UUID(), content: ["text": "Tea"])
        let error = try #require(throws: FolioError.self) { try importing([(todo, nil)], into: store) }
        #expect(error.kind == .misuse)
        #expect(store.documents(entity: "TodoItem").isEmpty)
    }
}
