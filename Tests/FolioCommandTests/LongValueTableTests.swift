import FolioTestSupport
import Foundation
import Testing

/// A table costs time in proportion to what it prints: one long value (200 KB of text with
/// long runs of blanks, which a table pads and trims) prints whole and at once, not in
/// minutes.
struct LongValueTableTests {
    /// A timer whose name is `name`, imported from a file (a 200 KB argument is more than
    /// Linux passes to a program), with 7 seconds to find it by.
    static func store(withName name: String) throws -> TimerStore {
        let store = try TimerStore()
        let record: [String: Any] = ["name": name, "durationInSeconds": 7, "createdAt": "2026-11-03T10:00:00Z"]
        let line = String(decoding: try JSONSerialization.data(withJSONObject: record), as: UTF8.self)
        let file = try store.folder.create("long.ndjson", contents: Array((line + "\n").utf8))
        let imported = try store.folio("import", "Timer", file)
        #expect(imported.status == 0, "\(imported.errors)")
        return store
    }

    @Test func aTableOfAValueWithLongRunsOfBlanksPrintsItWholeAtOnce() throws {
        let blanks = String(repeating: " ", count: 100_000)
        let name = "start" + blanks + "middle" + blanks + "end"
        let store = try Self.store(withName: name)
        // Generous: the whole table takes a fraction of a second; before, a 16 KB run took 30.
        let run = try store.folio.run(
            ["query", "Timer", "durationInSeconds == 7", "--fields", "name,durationInSeconds"], timeout: 300)
        #expect(!run.timedOut)
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3)
        #expect(
            lines.first.map(String.init) == "name" + String(repeating: " ", count: name.count - 4)
                + "  durationInSeconds")
        #expect(lines.dropFirst().first.map(String.init) == name + "  7")
    }

    @Test func aValueOfLineBreaksShownAsBlanksAndTrailingBlanksPrintAtOnce() throws {
        // Line breaks show as blanks in a table; blanks at a line's end are left off.
        let name = "top" + String(repeating: "\n", count: 100_000) + "bottom" + String(repeating: " ", count: 100_000)
        let store = try Self.store(withName: name)
        let run = try store.folio.run(["query", "Timer", "durationInSeconds == 7", "--fields", "name"], timeout: 300)
        #expect(!run.timedOut)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output == "name\n" + "top" + String(repeating: " ", count: 100_000) + "bottom\n")
    }

    @Test func aLongValueInATableAsWideAsTheTerminalIsCutAtOnce() throws {
        let name = String(repeating: "word ", count: 40_000)
        let store = try Self.store(withName: name)
        var folio = store.folio
        folio.environment = ["COLUMNS": "80"]
        let run = try folio.run(
            ["query", "Timer", "durationInSeconds == 7", "--fields", "name,durationInSeconds"], timeout: 300)
        #expect(!run.timedOut)
        #expect(run.status == 0, "\(run.errors)")
        // The name takes the 61 columns durationInSeconds and the gap leave.
        #expect(run.output.split(separator: "\n").last.map(String.init) == String(name.prefix(60)) + "…  7")
    }
}
