import Foundation
import Testing

@testable import FolioCore

/// Journals as a crashed writer leaves them, made by hand, and what opening the store does with them.
struct JournalRecoveryTests {
    let id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    var target: String { "Timer/2026/11/22/\(id.uuidString).json" }
    let document = "{\n  \"$entity\": \"Timer\",\n  \"name\": \"Tea\"\n}\n"

    /// Where a transaction stages the file it will rename to `target`.
    func staged(_ target: String) -> String {
        let slash = target.lastIndex(of: "/")!
        return target[...slash] + "." + target[target.index(after: slash)...] + ".staged"
    }

    @Test func journalWithoutCommitRecordIsDiscardedWithTheFilesItStaged() throws {
        let directory = try TemporaryDirectory()
        _ = try makeStore(in: directory)
        try write(document, to: directory("store/" + staged(target)))
        try write(
            #"{"transaction": "1-1-1", "puts": ["\#(target)"], "deletes": []}"#,
            to: directory("store/.folio/journal/1-1-1/PLAN"))
        let store = try DocumentStore.open(at: directory("store"))
        #expect(store.statistics.transactionsDiscarded == 1)
        #expect(store.document(entity: "Timer", id: id) == nil)
        #expect(!FileManager.default.fileExists(atPath: directory("store/.folio/journal/1-1-1")))
        #expect(!FileManager.default.fileExists(atPath: directory("store/" + staged(target))))
    }

    @Test func aFileLeftStagedByAWriterThatCrashedIsSweptByTheNextCommit() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        let kept = timer("Kept")
        try store.commit([.put(kept, basedOn: nil)])
        // A one-file save (no journal) killed between staging and renaming leaves this.
        let leftover = staged("Timer/2026/11/22/\(UUID().uuidString).json")
        try write(document, to: directory("store/" + leftover))
        try store.refresh()
        #expect(store.issues.isEmpty)
        try store.commit([.put(timer("Other", date: november22().addingTimeInterval(86_400)), basedOn: nil)])
        #expect(!FileManager.default.fileExists(atPath: directory("store/" + leftover)))
        #expect(store.document(entity: "Timer", id: kept.id)?.content["name"] == "Kept")
    }

    @Test func journalWithATornPlanIsDiscardedAndItsStagedFilesStayHidden() throws {
        let directory = try TemporaryDirectory()
        _ = try makeStore(in: directory)
        try write(document, to: directory("store/" + staged(target)))
        try write(#"{"transaction": "1-1-1", "puts": ["Tim"#, to: directory("store/.folio/journal/1-1-1/PLAN"))
        let store = try DocumentStore.open(at: directory("store"))
        #expect(store.statistics.transactionsDiscarded == 1)
        #expect(store.document(entity: "Timer", id: id) == nil)
        #expect(store.issues.isEmpty, "a hidden staged file is not part of the store")
        try store.commit([.put(timer("Tea", id: id), basedOn: nil)])
        #expect(
            store.document(entity: "Timer", id: id)?.content["name"] == "Tea",
            "staging the same target again replaces the leftover")
        #expect(!FileManager.default.fileExists(atPath: directory("store/" + staged(target))))
    }

    @Test func journalWithCommitRecordIsFinishedEvenWhenPartlyApplied() throws {
        let directory = try TemporaryDirectory()
        _ = try makeStore(in: directory)
        let second = UUID()
        let secondTarget = "Timer/2026/11/23/\(second.uuidString).json"
        try write(document, to: directory("store/" + staged(target)))  // not yet moved
        // Moved before the crash.
        try write(document.replacingOccurrences(of: "Tea", with: "Coffee"), to: directory("store/" + secondTarget))
        try write(
            #"{"transaction": "1-1-1", "puts": ["\#(target)", "\#(secondTarget)"], "deletes": []}"#,
            to: directory("store/.folio/journal/1-1-1/COMMIT"))
        let store = try DocumentStore.open(at: directory("store"))
        #expect(store.statistics.transactionsRecovered == 1)
        #expect(store.document(entity: "Timer", id: id)?.content["name"] == "Tea")
        #expect(store.document(entity: "Timer", id: second)?.content["name"] == "Coffee")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory("store/.folio/journal")).isEmpty)
    }

    @Test func commitRecordWithATargetOutsideTheStoreIsRefused() throws {
        let directory = try TemporaryDirectory()
        _ = try makeStore(in: directory)
        try write(document, to: directory(".escaped.json.staged"))
        try write(#"{"puts": ["../escaped.json"], "deletes": []}"#, to: directory("store/.folio/journal/1-1-1/COMMIT"))
        let error = try #require(throws: FolioError.self) { try DocumentStore.open(at: directory("store")) }
        #expect(error.description.contains("a target outside the store's layout"))
        #expect(!FileManager.default.fileExists(atPath: directory("escaped.json")))
    }

    @Test func replayedDeleteSparesAFilePutBackSinceTheCrash() throws {
        let directory = try TemporaryDirectory()
        _ = try makeStore(in: directory)
        try write(document, to: directory("store/" + target))
        try write(
            """
            {"puts": [], "deletes": [{"target": "\(target)", "size": 1, "modifiedSeconds": 0, "modifiedNanoseconds": 0, "inode": 1}]}
            """, to: directory("store/.folio/journal/1-1-1/COMMIT"))
        let store = try DocumentStore.open(at: directory("store"))
        #expect(
            store.document(entity: "Timer", id: id) != nil, "the file on disk is not the one the transaction deleted")
    }

    @Test func aCommitRecordLargerThanADocumentMayBeIsStillFinished() throws {
        let directory = try TemporaryDirectory()
        _ = try makeStore(in: directory)
        try write(document, to: directory("store/" + staged(target)))
        // An import of a few hundred thousand documents lists more than 16 MiB of targets;
        // these others were already moved into place before the crash.
        let others = (0..<280_000).map { _ in "\"Timer/2026/11/23/\(UUID().uuidString).json\"" }
        let record =
            #"{"transaction": "1-1-1", "puts": ["\#(target)", "# + others.joined(separator: ", ")
            + "], \"deletes\": []}"
        #expect(record.utf8.count > JSONReader.defaultMaximumSize)
        try write(record, to: directory("store/.folio/journal/1-1-1/COMMIT"))
        let store = try DocumentStore.open(at: directory("store"))
        #expect(store.statistics.transactionsRecovered == 1)
        #expect(store.document(entity: "Timer", id: id)?.content["name"] == "Tea")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory("store/.folio/journal")).isEmpty)
    }
}
