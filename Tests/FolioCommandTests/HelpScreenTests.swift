import FolioTestSupport
import Foundation
import Testing

/// The tool's help and its answer to a mistyped command, as a person at a terminal meets them.
struct HelpScreenTests {
    @Test func aMistypedCommandIsNamedWithTheNearestOneAndAnUnknownOneWithWhereToLook() throws {
        let folio = FolioTool(folder: FileManager.default.temporaryDirectory.path)
        let typo = try folio("qurey", "Timer")
        #expect(typo.status == 64)
        #expect(
            typo.errors
                == "error: qurey is not a folio command; did you mean query?\nhint: folio help lists the commands\n")
        let unknown = try folio("frobnicate")
        #expect(unknown.status == 64)
        #expect(unknown.errors == "error: frobnicate is not a folio command\nhint: folio help lists the commands\n")
        // An unknown option is argument-parser's to report, with the usage.
        #expect(try folio("--frobnicate").errors.contains("Unknown option '--frobnicate'"))
    }

    @Test func usageLinesAreBrokenBetweenArgumentsAtTheTerminalsWidth() throws {
        var folio = FolioTool(folder: FileManager.default.temporaryDirectory.path)
        folio.environment = ["COLUMNS": "50"]
        // `restore` has a long usage line; `query`'s has more than twelve options, which
        // argument-parser shows as `[<options>]`.
        let help = try folio("help", "restore").output
        let usage = help.components(separatedBy: "\n\n").first { $0.hasPrefix("USAGE: ") } ?? ""
        let lines = usage.split(separator: "\n").map(String.init)
        #expect(lines.count > 3, "\(usage)")
        #expect(lines.allSatisfy { $0.count <= 50 }, "\(usage)")
        // Each line after the first lines up under the first argument, and no argument is cut.
        let indent = "USAGE: folio restore ".count
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(String(repeating: " ", count: indent)) }, "\(usage)")
        #expect(usage.contains("[--lock-timeout <seconds>]"))
        #expect(
            lines.joined(separator: " ").split(separator: " ").joined(separator: " ").contains(
                "[--property <name> ...]"))
    }

    /// `folio help query` on a terminal of `rows` rows, the pager a `sed` that marks each line.
    func helpOnATerminal(rows: Int, pager: String = "sed 's/^/paged: /'") throws -> TerminalSession {
        try TerminalSession(
            FolioTool(folder: FileManager.default.temporaryDirectory.path), ["help", "query"], steps: [],
            environment: ["LINES": String(rows), "PAGER": pager, "FOLIO_PAGER": nil])
    }

    @Test(.enabled(if: TerminalSession.installed("python3"), "needs python3, whose pty module drives a terminal"))
    func helpTallerThanTheTerminalGoesThroughThePagerAndShorterHelpDoesNot() throws {
        let paged = try helpOnATerminal(rows: 10)
        #expect(paged.exited(0), "\(paged.ending) \(paged.code): \(paged.transcript)")
        #expect(paged.transcript.contains("paged: OVERVIEW: Print the documents of an entity"), "\(paged.transcript)")
        #expect(paged.transcript.contains("paged: USAGE: folio query"))
        let fits = try helpOnATerminal(rows: 500)
        #expect(fits.exited(0))
        #expect(fits.transcript.contains("OVERVIEW: Print the documents of an entity"))
        #expect(!fits.transcript.contains("paged:"))
        // A pager that is not there: the help is shown all the same.
        let missing = try helpOnATerminal(rows: 10, pager: "/nonexistent/pager")
        #expect(missing.exited(0))
        #expect(missing.transcript.contains("OVERVIEW: Print the documents of an entity"))
    }

    @Test func helpToAPipeIsNeverPaged() throws {
        var folio = FolioTool(folder: FileManager.default.temporaryDirectory.path)
        folio.environment = ["LINES": "5", "PAGER": "sed 's/^/paged: /'"]
        let help = try folio("help", "query")
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("OVERVIEW: Print the documents of an entity"))
    }
}
