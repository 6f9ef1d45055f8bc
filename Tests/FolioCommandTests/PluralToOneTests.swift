import FolioTestSupport
import Foundation
import Testing

/// A hand-written schema that leaves out `"toMany"` on a plural relationship makes a
/// one-to-one of it, and a query of it matches nothing: init, check and schema say so.
struct PluralToOneTests {
    /// The Timer app's schema as data, without `"toMany": true` on `Timer.todoItems`.
    static let schema = TimerStore.schema.replacingOccurrences(
        of: #""destination": "TodoItem", "toMany": true,"#, with: #""destination": "TodoItem","#)

    static let note =
        "Timer.todoItems and TodoItem.timer are each other's inverse and both to-one (a one-to-one), but \"todoItems\" reads as plural; if a Timer has many TodoItem documents, add \"toMany\": true to Timer.todoItems: as written, queries of Timer.todoItems find nothing that TodoItem.timer records"

    @Test func aPluralToOneWhoseInverseIsToOneIsANoteFromInitCheckAndSchema() throws {
        #expect(Self.schema != TimerStore.schema)
        let folder = try TemporaryDirectory()
        _ = try folder.create("schema.json", contents: Array(Self.schema.utf8))
        let line = try #require(Self.schema.split(separator: "\n").firstIndex { $0.contains("\"todoItems\"") }) + 1
        let created = try FolioTool(folder: folder.path)("init", "Timers", "--schema", "schema.json")
        #expect(created.status == 0, "\(created.errors)")
        #expect(created.errors.contains("schema.json:\(line):"), "\(created.errors)")
        #expect(created.errors.contains("note: " + Self.note), "\(created.errors)")

        let folio = FolioTool(folder: folder("Timers"))
        let check = try folio("check")
        #expect(check.status == 0, "\(check.output)")
        let manifest = try String(contentsOfFile: folder("Timers/folio.json"), encoding: .utf8)
        let manifestLine = try #require(manifest.split(separator: "\n").firstIndex { $0.contains("\"todoItems\"") })
        #expect(check.output.contains("folio.json:\(manifestLine):"), "\(check.output)")
        #expect(check.output.contains("note: " + Self.note), "\(check.output)")
        #expect(check.output.hasSuffix("0 documents checked: 0 errors, 1 note\n"), "\(check.output)")

        let shown = try folio("schema")
        #expect(shown.status == 0)
        #expect(shown.errors.contains("note: " + Self.note), "\(shown.errors)")
    }

    @Test func aOneToOneNamedInTheSingularOrAsItsDestinationIsNoNote() throws {
        let folder = try TemporaryDirectory()
        let schema = """
            {"entities": {
              "Athlete": {"properties": [
                {"name": "name", "type": "String"},
                {"name": "device", "destination": "Device", "inverse": "athlete", "optional": true},
                {"name": "settings", "destination": "Settings", "inverse": "athlete", "optional": true},
                {"name": "status", "destination": "Status", "optional": true}
              ]},
              "Device": {"properties": [{"name": "athlete", "destination": "Athlete", "inverse": "device", "optional": true}]},
              "Settings": {"properties": [{"name": "athlete", "destination": "Athlete", "inverse": "settings", "optional": true}]},
              "Status": {"properties": [{"name": "label", "type": "String"}]}
            }}
            """
        _ = try folder.create("schema.json", contents: Array(schema.utf8))
        let created = try FolioTool(folder: folder.path)("init", "Team", "--schema", "schema.json")
        #expect(created.status == 0, "\(created.errors)")
        #expect(!created.errors.contains("note:"), "\(created.errors)")
        #expect(try FolioTool(folder: folder("Team"))("check").output == "0 documents checked: 0 errors, 0 notes\n")
    }

    @Test func twoPluralToOnesOfAManyToManyAreANoteEach() throws {
        let folder = try TemporaryDirectory()
        let schema = """
            {"entities": {
              "Note": {"properties": [{"name": "tags", "destination": "Tag", "inverse": "notes"}]},
              "Tag": {"properties": [{"name": "notes", "destination": "Note"}]}
            }}
            """
        _ = try folder.create("schema.json", contents: Array(schema.utf8))
        let created = try FolioTool(folder: folder.path)("init", "Notes", "--schema", "schema.json")
        #expect(created.status == 0, "\(created.errors)")
        #expect(created.errors.contains("add \"toMany\": true to Note.tags"), "\(created.errors)")
        #expect(created.errors.contains("add \"toMany\": true to Tag.notes"), "\(created.errors)")
    }
}
