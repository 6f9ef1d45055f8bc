import FolioTestSupport
import Foundation
import Testing

/// `folio import --dry-run`: every bad record of a file in one pass, nothing written; and the
/// import's progress on a terminal.
struct ImportCheckTests {
    /// Three records, the second and the fourth bad in different ways, the third not a JSON object.
    static let records = """
        {"name": "Tea", "durationInSeconds": 60, "createdAt": "2026-11-20T10:00:00Z"}
        {"name": "Coffee", "durationInSeconds": "long", "createdAt": "2026-11-20T10:00:00Z"}
        [1, 2]
        {"name": "Nap", "createdAt": "2026-11-20T10:00:00Z"}
        {"name": "Walk", "durationInSeconds": 600, "createdAt": "2026-11-20T10:00:00Z"}

        """

    @Test func aDryRunListsEveryBadRecordWithItsLineAndWritesNothing() throws {
        let store = try TimerStore()
        _ = try store.folder.create("timers.ndjson", contents: Array(Self.records.utf8))
        let before = try store.folio("query", "Timer", "--format", "ndjson").output
        let run = try store.folio("import", "Timer", "../timers.ndjson", "--dry-run")
        #expect(run.status == 65)
        #expect(run.errors.contains("error: ../timers.ndjson:2: "), "\(run.errors)")
        #expect(run.errors.contains("\"durationInSeconds\" is not a valid Int"))
        #expect(run.errors.contains("error: line 3 is not a JSON object"))
        #expect(run.errors.contains("error: ../timers.ndjson:4: "))
        #expect(run.errors.contains("required property \"durationInSeconds\" (Int) is missing"))
        #expect(!run.errors.contains("timers.ndjson:1:") && !run.errors.contains("timers.ndjson:5:"))
        #expect(run.output == "5 records read: 3 bad; nothing written (a dry run)\n")
        #expect(try store.folio("query", "Timer", "--format", "ndjson").output == before)
        // Without --dry-run, the first bad record stops the import, as before.
        let imported = try store.folio("import", "Timer", "../timers.ndjson")
        #expect(imported.status == 65)
        #expect(imported.errors.contains("timers.ndjson:2: "))
        #expect(!imported.errors.contains("line 3 is not a JSON object"))
    }

    /// The records are read and checked a few batches ahead of the writing: a bad one far into
    /// the file still stops the import at its own line, after the good ones before it were
    /// staged, and none of them is written.
    @Test func aBadRecordFarIntoTheFileStopsTheImportAtItsLineAndWritesNothing() throws {
        let store = try TimerStore()
        let before = try store.folio("count", "Timer").output
        var lines: [String] = []
        for number in 1...1_000 {
            let duration = number == 777 ? "\"long\"" : "\(number)"
            lines.append(
                #"{"name": "Timer \#(number)", "durationInSeconds": \#(duration), "createdAt": "2026-11-20T10:00:00Z"}"#
            )
        }
        _ = try store.folder.create("many.ndjson", contents: Array((lines.joined(separator: "\n") + "\n").utf8))
        let run = try store.folio("import", "Timer", "../many.ndjson")
        #expect(run.status == 65)
        #expect(run.errors.contains("many.ndjson:777: "), "\(run.errors)")
        #expect(run.errors.contains("\"durationInSeconds\" is not a valid Int"))
        #expect(try store.folio("count", "Timer").output == before)
        #expect(try store.folio("check").status == 0)
        // Without the bad record, all thousand are written, in one transaction.
        lines[776] = #"{"name": "Timer 777", "durationInSeconds": 777, "createdAt": "2026-11-20T10:00:00Z"}"#
        _ = try store.folder.create("good.ndjson", contents: Array((lines.joined(separator: "\n") + "\n").utf8))
        let imported = try store.folio("import", "Timer", "../good.ndjson")
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(imported.output == "1000 records: 1000 written, 0 unchanged\n")
        #expect(
            try store.folio("count", "Timer").output == "\(Int(before.trimmingCharacters(in: .newlines))! + 1_000)\n")
    }

    @Test func aDryRunOfAGoodFileSaysSoAndWritesNothing() throws {
        let store = try TimerStore()
        let good = Self.records.split(separator: "\n").enumerated().filter { [0, 4].contains($0.offset) }
            .map { String($0.element) }.joined(separator: "\n")
        _ = try store.folder.create("good.ndjson", contents: Array(good.utf8))
        let run = try store.folio("import", "Timer", "../good.ndjson", "--dry-run")
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output == "2 records read: all good; nothing written (a dry run)\n")
        #expect(try store.folio("count", "Timer").output == "2\n")
    }

    @Test(.enabled(if: TerminalSession.installed("python3"), "needs python3, whose pty module drives a terminal"))
    func anImportOnATerminalShowsHowManyRecordsAndTheRate() throws {
        let store = try TimerStore()
        let lines = Self.records.split(separator: "\n").enumerated().filter { [0, 4].contains($0.offset) }
            .map { String($0.element) + "\n" }
        // Typed at the terminal, standard input: the bar counts records (there is no size to
        // measure) and shows once the import has run a second.
        let session = try TerminalSession(
            store.folio, ["import", "Timer", "-"],
            steps: [.send(lines[0]), .pause(1.3), .send(lines[1]), .pause(0.3), .send("\u{4}")])
        #expect(session.exited(0), "\(session.ending) \(session.code): \(session.transcript)")
        #expect(session.transcript.contains("import  2 records  "), "\(session.transcript)")
        #expect(session.transcript.contains("/s"))
        #expect(session.transcript.contains("2 records: 2 written, 0 unchanged"))
    }
}
