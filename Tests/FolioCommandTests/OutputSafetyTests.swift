import FolioTestSupport
import Foundation
import Testing

/// Output that cannot be turned against whoever reads it: CSV a spreadsheet opens, and
/// tables a terminal shows.
struct OutputSafetyTests {
    @Test func csvTextThatASpreadsheetWouldRunIsWrittenBehindAQuoteUnlessRawIsAsked() throws {
        let store = try TimerStore()
        for (index, name) in ["=HYPERLINK(\"http://x\",\"y\")", "+1", "-2", "@SUM(A1)", "\tTab", "Plain"].enumerated() {
            let run = try store.folio(
                "insert", "Timer", "name=\(name)", "durationInSeconds=-\(index + 1)",
                "createdAt=2026-11-0\(index + 1)T09:00:00Z")
            #expect(run.status == 0, "\(run.errors)")
        }
        let csv = try store.folio("export", "Timer", "--format", "csv")
        #expect(csv.status == 0, "\(csv.errors)")
        for cell in [
            #","'=HYPERLINK(""http://x"",""y"")",-1,"#, ",'+1,-2,", ",'-2,-3,", ",'@SUM(A1),-4,", ",'\tTab,-5,",
            ",Plain,-6,",
        ] {
            #expect(csv.output.contains(cell), "\(cell) in \(csv.output)")
        }
        let raw = try store.folio("export", "Timer", "--format", "csv", "--raw-csv")
        #expect(raw.output.contains(#","=HYPERLINK(""http://x"",""y"")",-1,"#))
        #expect(raw.output.contains(",@SUM(A1),-4,"))
        // Tables and queries print CSV the same way.
        let query = try store.folio("query", "Timer", "durationInSeconds == -4", "--fields", "name", "--format", "csv")
        #expect(query.output == "name\n'@SUM(A1)\n")
    }

    @Test func tablesShowControlCharactersInsteadOfSendingThemToTheTerminal() throws {
        let store = try TimerStore()
        let hostile = "\u{1B}]0;owned\u{07}\u{1B}[2JGone\u{9B}"
        #expect(
            try store.folio(
                "insert", "Timer", "name=\(hostile)", "durationInSeconds=1", "createdAt=2026-11-03T09:00:00Z"
            ).status == 0)
        let table = try store.folio("query", "Timer", "durationInSeconds == 1", "--fields", "name")
        #expect(table.status == 0)
        #expect(
            !table.output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) },
            "\(table.output.debugDescription)")
        #expect(table.output.contains(#"\u{1B}]0;owned\u{7}\u{1B}[2JGone\u{9B}"#))
        // JSON keeps the value exact.
        let json = try store.folio("query", "Timer", "durationInSeconds == 1", "--fields", "name", "--format", "ndjson")
        #expect(
            json.output.contains(#"\u001B]0;owned\u0007\u001B[2JGone"#)
                || json.output.contains(#"\u001b]0;owned\u0007\u001b[2JGone"#))
    }
}
