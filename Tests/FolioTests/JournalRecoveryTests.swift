import Foundation
import Testing
@testable import Folio

/// Journals as a crashed writer leaves them, made by hand, and what opening the store does with them.
struct JournalRecoveryTests {
    let id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    var target: String { "Timer/2026/11/22/\(id.uuidString).json" }
    let document = "{\n  \"$entity\": \"Timer\",\n  \"name\": \"Tea\"\n}\n"

    @Test func journalWithoutCommitRecordIsDiscarded() throws {
        let directory = try TemporaryDirectory()
        _ = try makeStore(in: directory)
        try write(document, to: directory("store/.folio/journal/1-1-1/0.json"))
        let store = try DocumentStore.open(at: directory("store"))
        #expect(store.statistics.transactionsDiscarded == 1)
        #expect(store.document(entity: "Timer", id: id) == nil)
        #expect(!FileManager.default.fileExists(atPath: directory("store/.folio/journal/1-1-1")))
    }

    @Test func journalWithCommitRecordIsFinishedEvenWhenPartlyApplied() throws {
        let directory = try TemporaryDirectory()
        _ = try makeStore(in: directory)
        let second = UUID()
        try write(document, to: directory("store/.folio/journal/1-1-1/0.json"))  // not yet moved
        try write(document.replacingOccurrences(of: "Tea", with: "Coffee"), to: directory("store/Timer/2026/11/23/\(second.uuidString).json"))  // moved before the crash
        try write("""
            {"transaction": "1-1-1", "puts": [
              {"staged": "0.json", "target": "\(target)"},
              {"staged": "1.json", "target": "Timer/2026/11/23/\(second.uuidString).json"}
            ], "deletes": []}
            """, to: directory("store/.folio/journal/1-1-1/COMMIT"))
        let store = try DocumentStore.open(at: directory("store"))
        #expect(store.statistics.transactionsRecovered == 1)
        #expect(store.document(entity: "Timer", id: id)?.content["name"] == "Tea")
        #expect(store.document(entity: "Timer", id: second)?.content["name"] == "Coffee")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory("store/.folio/journal")).isEmpty)
    }

    @Test func commitRecordWithATargetOutsideTheStoreIsRefused() throws {
        let directory = try TemporaryDirectory()
        _ = try makeStore(in: directory)
        try write(document, to: directory("store/.folio/journal/1-1-1/0.json"))
        try write(#"{"puts": [{"staged": "0.json", "target": "../escaped.json"}], "deletes": []}"#, to: directory("store/.folio/journal/1-1-1/COMMIT"))
        let error = try #require(throws: FolioError.self) { try DocumentStore.open(at: directory("store")) }
        #expect(error.description.contains("a target outside the store's layout"))
        #expect(!FileManager.default.fileExists(atPath: directory("escaped.json")))
    }

    @Test func replayedDeleteSparesAFilePutBackSinceTheCrash() throws {
        let directory = try TemporaryDirectory()
        _ = try makeStore(in: directory)
        try write(document, to: directory("store/" + target))
        try write("""
            {"puts": [], "deletes": [{"target": "\(target)", "size": 1, "modifiedSeconds": 0, "modifiedNanoseconds": 0, "inode": 1}]}
            """, to: directory("store/.folio/journal/1-1-1/COMMIT"))
        let store = try DocumentStore.open(at: directory("store"))
        #expect(store.document(entity: "Timer", id: id) != nil, "the file on disk is not the one the transaction deleted")
    }
}
