import FolioTestSupport
import Foundation
import Testing

/// A table fits the terminal as a person reads it: a table of one column (`folio ls`'s
/// paths) is never cut, a table of several cuts only its widest columns and only as far as
/// the line needs, and every cell is measured by the columns the terminal draws it in (a
/// Chinese character or an emoji takes two, an accent none).
struct TableWidthTests {
    /// The Timer store with timers of these names, 300, 301… seconds long, in that order.
    static func store(withNames names: [String]) throws -> TimerStore {
        let store = try TimerStore()
        let lines = try names.enumerated().map { index, name in
            let record: [String: Any] = [
                "name": name, "durationInSeconds": 300 + index, "createdAt": "2026-11-05T10:00:00Z",
            ]
            return String(decoding: try JSONSerialization.data(withJSONObject: record), as: UTF8.self)
        }
        let file = try store.folder.create("timers.ndjson", contents: Array(lines.joined(separator: "\n").utf8))
        let imported = try store.folio("import", "Timer", file)
        #expect(imported.status == 0, "\(imported.errors)")
        return store
    }

    /// The tool at a terminal this many columns wide, as `COLUMNS` says.
    static func folio(_ store: TimerStore, columns: Int) -> FolioTool {
        var folio = store.folio
        folio.environment = ["COLUMNS": String(columns)]
        return folio
    }

    /// The paths of the store's timers, relative to it.
    static func timerPaths(_ store: TimerStore) throws -> [String] {
        let run = try store.folio("query", "Timer", "--fields", "path", "--format", "csv")
        return run.output.split(separator: "\n").dropFirst().map(String.init)
    }

    @Test(.enabled(if: TerminalSession.installed("python3"), "needs python3, whose pty module drives a terminal"))
    func lsPrintsEveryPathWholeOnAWideTerminal() throws {
        let store = try TimerStore()
        let paths = try Self.timerPaths(store)
        #expect(paths.count == 2)
        #expect(paths.allSatisfy { $0.count > 40 })
        // 200 columns, as the terminal tells: no COLUMNS.
        let session = try TerminalSession(store.folio, ["ls", "Timer"], steps: [])
        #expect(session.exited(0), "\(session.ending) \(session.code): \(session.transcript)")
        #expect(session.transcript.hasPrefix("path\r\n"), "\(session.transcript)")
        for path in paths { #expect(session.transcript.contains(path + "\r\n"), "\(session.transcript)") }
    }

    @Test func aTableOfOneColumnIsNeverCutHoweverNarrowTheTerminal() throws {
        let store = try TimerStore()
        let paths = try Self.timerPaths(store).sorted()
        let folio = Self.folio(store, columns: 20)
        let listed = try folio("ls", "Timer")
        #expect(listed.status == 0, "\(listed.errors)")
        #expect(listed.output == (["path"] + paths).map { $0 + "\n" }.joined())
        let queried = try folio("query", "Timer", "--fields", "path")
        #expect(queried.status == 0, "\(queried.errors)")
        #expect(queried.output.split(separator: "\n").sorted() == listed.output.split(separator: "\n").sorted())
    }

    @Test func aTableOfSeveralColumnsCutsOnlyTheWidestAndOnlyAsFarAsTheLineNeeds() throws {
        let name = String(repeating: "x", count: 100)
        let store = try Self.store(withNames: [name])
        let run = try Self.folio(store, columns: 80)(
            "query", "Timer", "durationInSeconds == 300", "--fields", "name,durationInSeconds")
        #expect(run.status == 0, "\(run.errors)")
        // 80 columns: durationInSeconds keeps its 17, the name gets the 61 left after the gap.
        #expect(
            run.output == "name" + String(repeating: " ", count: 57) + "  durationInSeconds\n"
                + String(repeating: "x", count: 60) + "…  300\n")
        // Where the line holds it whole, nothing is cut.
        let wide = try Self.folio(store, columns: 119)(
            "query", "Timer", "durationInSeconds == 300", "--fields", "name,durationInSeconds")
        #expect(wide.output.split(separator: "\n").last.map(String.init) == name + "  300")
    }

    @Test func columnsThatDoNotFitEvenCutAreLeftOutAndTheRestFillTheLine() throws {
        let name = String(repeating: "x", count: 100)
        let store = try Self.store(withNames: [name])
        let run = try Self.folio(store, columns: 60)(
            "query", "Timer", "durationInSeconds == 300", "--fields", "name,durationInSeconds,createdAt")
        #expect(run.status == 0, "\(run.errors)")
        // durationInSeconds fits beside the name cut to 40 (59 columns), createdAt does not;
        // the name then takes the 41 columns the other leaves.
        #expect(run.output.split(separator: "\n").last.map(String.init) == String(repeating: "x", count: 40) + "…  300")
        #expect(run.errors.contains("1 more column did not fit in 60 columns"))
    }

    @Test func wideCharactersEmojiAndAccentsLineUpByTheColumnsTheyTake() throws {
        let names = ["日本語のタイマー", "🍵 Tea", "Cafe\u{301}", "👩‍💻 Code", "❤️ Love", "Workout"]
        let store = try Self.store(withNames: names)
        let run = try store.folio(
            "query", "Timer", "durationInSeconds >= 300 && durationInSeconds < 400", "--fields",
            "name,durationInSeconds",
            "--sort", "durationInSeconds")
        #expect(run.status == 0, "\(run.errors)")
        // The widest name takes 16 columns: eight characters of two each.
        let widths = [16, 6, 4, 7, 7, 7]
        let rows = zip(zip(names, widths), 300...).map { named, seconds in
            named.0 + String(repeating: " ", count: 16 - named.1) + "  \(seconds)"
        }
        let expected = ["name" + String(repeating: " ", count: 12) + "  durationInSeconds"] + rows
        #expect(run.output.split(separator: "\n").map(String.init) == expected)
    }

    @Test func aCutCellOfWideCharactersEndsWithinItsColumn() throws {
        let name = String(repeating: "日本語", count: 10)
        let store = try Self.store(withNames: [name])
        // 69 columns: durationInSeconds keeps 17, the name gets 50 after the gap. 24 characters
        // and the "…" take 49; a 25th would take the "…" to column 51.
        let run = try Self.folio(store, columns: 69)(
            "query", "Timer", "durationInSeconds == 300", "--fields", "durationInSeconds,name")
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            run.output.split(separator: "\n").last.map(String.init)
                == "300" + String(repeating: " ", count: 14) + "  " + String(name.prefix(24)) + "…")
    }
}
