import FolioTestSupport
import Foundation
import Testing

/// Text a hostile store holds (entity and property names, keys and values with escape
/// sequences, a bell, C1 controls, bidirectional overrides) reaches a person's terminal
/// only as visible codes such as `\u{1B}`, whichever command prints it: `check`'s findings,
/// `schema`, `info`, every table, and error messages that quote it. JSON, NDJSON and CSV
/// keep it exact.
struct StoredTextOnTerminalTests {
    /// An entity name that would set the terminal's title and reverse the rest of the line.
    static let entity = "Ev\u{1B}]0;owned\u{07}il\u{202E}"
    /// A property name that would turn the text red, ring the bell and reverse the line.
    static let property = "evil\u{1B}[31mRED\u{07}\u{202E}prop"
    /// A property of `entity` with a C1 control sequence introducer (clear the screen).
    static let entityProperty = "x\u{9B}2J"
    /// A document key the schema does not know, that would make the text blink.
    static let key = "unknown\u{1B}[5mkey"
    /// A value with every kind of control a terminal acts on or a line is reordered by.
    static let value =
        "a\u{202E}b\u{2066}c\u{2069}d\u{200F}e\u{061C}f\u{7F}g\u{2028}h\u{1B}[2Ji\u{9B}j\u{07}k\r\tl"

    /// The scalars of `text` a terminal would act on or reorder a line by; a line break is
    /// no such scalar.
    static func rawControls(in text: String) -> [String] {
        text.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x0A: false
            case 0..<0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: true
            default: false
            }
        }.map { String(format: "U+%04X", $0.value) }
    }

    /// `text` as JSON text, for a hand-written manifest or document.
    static func json(_ text: String) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: text, options: .fragmentsAllowed), as: UTF8.self)
    }

    /// The Timer store, with `entity` and `property` written into its manifest by hand, a
    /// timer whose name is `value`, and `key` written into the Workout timer's file by hand.
    static func hostileStore() throws -> TimerStore {
        let store = try TimerStore()
        let inserted = try store.folio(
            "insert", "Timer", "name=\(value)", "durationInSeconds=5", "createdAt=2026-11-03T10:00:00Z")
        #expect(inserted.status == 0, "\(inserted.errors)")
        let manifestPath = store.root + "/folio.json"
        var manifest = try String(contentsOfFile: manifestPath, encoding: .utf8)
        let entities = try #require(manifest.range(of: #""entities":\s*\{"#, options: .regularExpression))
        manifest.insert(
            contentsOf:
                "\(try json(entity)): {\"properties\": [{\"name\": \(try json(entityProperty)), \"type\": \"Int\"}]},",
            at: entities.upperBound)
        let notes = try #require(manifest.range(of: #"\{\s*"name":\s*"notes""#, options: .regularExpression))
        manifest.insert(
            contentsOf: "{\"name\": \(try json(property)), \"type\": \"String\", \"optional\": true}, ",
            at: notes.lowerBound)
        try manifest.write(toFile: manifestPath, atomically: true, encoding: .utf8)
        let workout = store.root + "/" + (try store.path(of: try store.id(of: "Timer", where: "name == \"Workout\"")))
        var document = try String(contentsOfFile: workout, encoding: .utf8)
        let brace = try #require(document.firstIndex(of: "{"))
        document.replaceSubrange(brace...brace, with: "{\(try json(key)): 1, ")
        try document.write(toFile: workout, atomically: true, encoding: .utf8)
        return store
    }

    @Test(arguments: [
        ["check"], ["schema"], ["info"], ["ls"], ["ls", "Timer"], ["query", "Timer"],
        ["query", "Timer", "--fields", "name,\(property)"], ["history"], ["count", "Timer", "--explain"],
        ["aggregate", "Timer", "count", "--group-by", "name"], ["query", entity, "\(entityProperty) == 1"],
        ["query", entity, "y == 1"], ["query", "Timr"], ["query", "Timer", "\(property) == 1"],
        ["set", "Timer", "name == \"Workout\"", "\(property)=\(value)"],
    ])
    func whatACommandPrintsForAPersonShowsStoredControlsAsCodes(_ arguments: [String]) throws {
        let store = try Self.hostileStore()
        let run = try store.folio.run(arguments)
        #expect([0, 1, 65].contains(run.status), "\(arguments): \(run.status) \(run.errors)")
        #expect(Self.rawControls(in: run.output).isEmpty, "\(arguments): \(run.output.debugDescription)")
        #expect(Self.rawControls(in: run.errors).isEmpty, "\(arguments): \(run.errors.debugDescription)")
        #expect(!(run.output + run.errors).isEmpty)
    }

    @Test func checkNamesTheHostileEntityPropertyAndKeyVisibly() throws {
        let store = try Self.hostileStore()
        let check = try store.folio("check")
        #expect(check.status == 1)
        #expect(Self.rawControls(in: check.output).isEmpty, "\(check.output.debugDescription)")
        for shown in [#"Ev\u{1B}]0;owned\u{7}il\u{202E}"#, #"unknown\u{1B}[5mkey"#] {
            #expect(check.output.contains(shown), "\(shown) in \(check.output)")
        }
        // One finding a line: the findings' count of lines is their count.
        let findings = check.output.split(separator: "\n").dropLast()
        #expect(findings.allSatisfy { $0.contains(": error: ") || $0.contains(": note: ") }, "\(check.output)")
        // In a format for programs, the text is exact.
        let json = try store.folio("check", "--format", "ndjson")
        #expect(json.output.contains("\u{202E}"))
    }

    @Test func schemaShowsStoredNamesAsCodesInAlignedColumns() throws {
        let store = try Self.hostileStore()
        let schema = try store.folio("schema")
        #expect(schema.status == 0, "\(schema.errors)")
        #expect(Self.rawControls(in: schema.output).isEmpty, "\(schema.output.debugDescription)")
        let shown = #"evil\u{1B}[31mRED\u{7}\u{202E}prop"#
        let lines = schema.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("  \(shown)  String?"), "\(schema.output)")
        // The other properties' types line up with the shown name's.
        let id = "  id" + String(repeating: " ", count: shown.count - 2) + "  UUID, unique"
        #expect(lines.contains(id), "\(schema.output)")
        #expect(lines.contains(#"Ev\u{1B}]0;owned\u{7}il\u{202E}"#), "\(schema.output)")
        #expect(lines.contains(#"  x\u{9B}2J  Int"#), "\(schema.output)")
        let json = try store.folio("schema", "--format", "json")
        #expect(json.output.contains("\u{202E}"))
    }

    @Test func tablesShowBidirectionalControlsAndSeparatorsAsCodesAndCSVKeepsThem() throws {
        let store = try Self.hostileStore()
        let table = try store.folio("query", "Timer", "durationInSeconds == 5", "--fields", "name")
        #expect(table.status == 0, "\(table.errors)")
        #expect(
            table.output
                == "name\n"
                + #"a\u{202E}b\u{2066}c\u{2069}d\u{200F}e\u{61C}f\u{7F}g\u{2028}h\u{1B}[2Ji\u{9B}j\u{7}k\u{D}\u{9}l"#
                + "\n", "\(table.output.debugDescription)")
        let csv = try store.folio("query", "Timer", "durationInSeconds == 5", "--fields", "name", "--format", "csv")
        #expect(csv.output.contains("a\u{202E}b\u{2066}c\u{2069}d\u{200F}e\u{061C}f\u{7F}g\u{2028}h"))
    }

    @Test func errorMessagesQuoteStoredNamesAsCodes() throws {
        let store = try Self.hostileStore()
        let unknown = try store.folio("query", Self.entity, "y == 1")
        #expect(unknown.status == 65)
        #expect(
            unknown.errors.contains(#"its properties are x\u{9B}2J"#), "\(unknown.errors.debugDescription)")
        let misspelt = try store.folio("query", "Timr")
        #expect(misspelt.status == 65)
        #expect(misspelt.errors.contains(#"Ev\u{1B}]0;owned\u{7}il\u{202E}"#), "\(misspelt.errors.debugDescription)")
        // A diagnostic of several lines keeps its line breaks: the query, then a caret under the column.
        #expect(unknown.errors.split(separator: "\n").count > 1, "\(unknown.errors)")
    }
}
