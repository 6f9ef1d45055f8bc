import FolioTestSupport
import Foundation
import Testing

/// `query --format csv` quotes by Unicode scalars, as the export does: a CR LF or a comma
/// that a combining mark follows is one Swift `Character`, but still needs its quotes.
struct QueryCSVTests {
    @Test(arguments: ["a\r\nb", ",\u{301}x", "\"\u{301}"])
    func aFieldWhoseBreakOrCommaIsPartOfALargerCharacterIsQuoted(name: String) throws {
        let store = try TimerStore()
        let insert = try store.folio(
            "insert", "Timer", "name=\(name)", "durationInSeconds=1", "createdAt=2026-11-03T10:00:00Z")
        #expect(insert.status == 0, "\(insert.errors)")
        let run = try store.folio("query", "Timer", "durationInSeconds == 1", "--fields", "name", "--format", "csv")
        var doubled = String.UnicodeScalarView()
        for scalar in name.unicodeScalars { doubled += scalar == "\"" ? ["\"", "\""] : [scalar] }
        let quoted = "\"" + String(doubled) + "\""
        #expect(run.output == "name\n" + quoted + "\n", "\(run.output.debugDescription)")
    }
}
