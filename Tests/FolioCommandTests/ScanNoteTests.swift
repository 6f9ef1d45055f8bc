import FolioTestSupport
import Foundation
import Testing

/// `folio count` and `folio query` on a filter no index narrows: the answer streams from the
/// cache file, and on a terminal a note says every document was read and how to index.
struct ScanNoteTests {
    /// A store of 5,000 timers, imported (which writes the cache file), so each answer streams.
    func largeStore() throws -> TimerStore {
        let store = try TimerStore()
        let records = (0..<5_000).map { number in
            "{\"name\": \"Timer \(number)\", \"durationInSeconds\": \(number % 60), \"createdAt\": \"2026-11-20T10:00:00Z\"}\n"
        }.joined()
        _ = try store.folder.create("timers.ndjson", contents: Array(records.utf8))
        let imported = try store.folio("import", "Timer", "../timers.ndjson")
        #expect(imported.status == 0, "\(imported.errors)")
        return store
    }

    @Test(.enabled(if: TerminalSession.installed("python3"), "needs python3, whose pty module drives a terminal"))
    func aScanOfALargeEntityOnATerminalSaysSoAndHowToIndex() throws {
        let store = try largeStore()
        let session = try TerminalSession(store.folio, ["count", "Timer", "durationInSeconds == 7"], steps: [])
        #expect(session.exited(0), "\(session.ending) \(session.code): \(session.transcript)")
        #expect(session.transcript.contains("84\r\n"), "\(session.transcript)")
        #expect(session.transcript.contains("no index narrows this filter, so all 5002 Timer documents were read"))
        #expect(session.transcript.contains("folio reindex"))
    }

    @Test func aScriptGetsTheStreamedAnswerWithoutANote() throws {
        let store = try largeStore()
        let count = try store.folio("count", "Timer", "durationInSeconds == 7", "--explain")
        #expect(count.status == 0, "\(count.errors)")
        #expect(count.output == "84\n", "5,000 timers, every sixtieth of 7 seconds, and the store's own two")
        #expect(count.errors.contains("streamed from the folder's cache file"), "\(count.errors)")
        #expect(!count.errors.contains("note:"))
        let query = try store.folio(
            "query", "Timer", "durationInSeconds == 7", "--sort", "name", "--limit", "2", "--format", "ndjson")
        #expect(query.status == 0, "\(query.errors)")
        #expect(query.output.split(separator: "\n").count == 2)
        #expect(query.output.contains("\"Timer 1027\""), "the first two names in order: \(query.output)")
        #expect(!query.errors.contains("note:"))
    }
}
