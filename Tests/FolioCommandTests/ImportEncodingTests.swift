import FolioTestSupport
import Foundation
import Testing

/// `folio import` of a file that is not all UTF-8 refuses it, naming the line and the byte
/// offset of the first bytes that are no character, and writes nothing; it never reads them
/// as U+FFFD.
struct ImportEncodingTests {
    /// A file to import and where its first bytes that are not UTF-8 are.
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var format: String
        var bytes: [UInt8]
        var line: Int
        /// From the start of the file, from 0.
        var offset: Int
        var description: String { name }
    }

    static func text(_ text: String) -> [UInt8] { Array(text.utf8) }

    static let cases: [Case] = [
        Case(
            name: "an NDJSON value", format: "ndjson",
            bytes: text(#"{"title": "One"}"# + "\n" + #"{"title": "Tw"#) + [0xFF] + text(#"o"}"# + "\n"),
            line: 2, offset: 30),
        Case(
            name: "the last NDJSON line, without a newline", format: "ndjson",
            bytes: text(#"{"title": "One"}"# + "\n\n" + #"{"title": "x"#) + [0xC3] + text(#""}"#),
            line: 3, offset: 30),
        Case(
            name: "an NDJSON key, in a line of JSON read with --format json", format: "json",
            bytes: text(#"{"ti"#) + [0xC0, 0xAF] + text(#"tle": "One"}"# + "\n"), line: 1, offset: 4),
        Case(name: "a CSV header", format: "csv", bytes: text("tit") + [0xF8] + text("le\nOne\n"), line: 1, offset: 3),
        Case(
            name: "a CSV cell", format: "csv", bytes: text("title\nOne\nT") + [0xED, 0xA0, 0x80] + text("wo\n"),
            line: 3, offset: 11),
        Case(
            name: "the second line of a quoted CSV cell", format: "csv",
            bytes: text("title\n\"first\nsec") + [0xE2, 0x82] + text("ond\"\n"), line: 3, offset: 16),
        Case(
            name: "JSON in a CSV cell", format: "csv",
            bytes: text("title,$unknown\nA,\"{\"\"k\"\": \"\"") + [0xF4, 0x90, 0x80, 0x80] + text("\"\"}\"\n"),
            line: 2, offset: 28),
    ]

    @Test(arguments: cases)
    func aFileThatIsNotUTF8IsRefusedWithItsLineAndByteOffsetAndNothingIsWritten(_ testCase: Case) throws {
        let folder = try TemporaryDirectory()
        _ = try folder.create(
            "schema.json",
            contents: Array(#"{"entities": {"Note": {"properties": [{"name": "title", "type": "String"}]}}}"#.utf8))
        #expect(try FolioTool(folder: folder.path)("init", "Notes", "--schema", "schema.json").status == 0)
        let folio = FolioTool(folder: folder("Notes"))
        _ = try folder.create("notes.in", contents: testCase.bytes)
        let imported = try folio("import", "Note", "../notes.in", "--format", testCase.format)
        #expect(imported.status == 65, "\(imported.output)")
        #expect(
            imported.errors.contains(
                "line \(testCase.line) of ../notes.in is not UTF-8 text: at byte offset \(testCase.offset) "),
            "\(imported.errors)")
        #expect(!imported.errors.contains("\u{FFFD}"))
        #expect(try folio("count", "Note").output == "0\n")
        #expect(try folio("count", "Note", "--include-deleted").output == "0\n")
    }
}
