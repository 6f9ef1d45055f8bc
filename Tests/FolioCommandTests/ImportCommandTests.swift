import FolioTestSupport
import Foundation
import Testing

/// `folio import`: a file read a record at a time into one transaction.
struct ImportCommandTests {
    /// A store of notes and tags, a many-to-many kept on both sides.
    func notesStore(in folder: TemporaryDirectory) throws -> FolioTool {
        _ = try folder.create(
            "schema.json",
            contents: Array(
                #"""
                {"entities": {
                  "Note": {"properties": [{"name": "title", "type": "String"},
                    {"name": "tags", "destination": "Tag", "toMany": true, "deleteRule": "nullify", "inverse": "notes"}]},
                  "Tag": {"properties": [{"name": "name", "type": "String"},
                    {"name": "notes", "destination": "Note", "toMany": true, "deleteRule": "nullify", "inverse": "tags"}]}
                }}
                """#.utf8))
        #expect(
            try FolioTool(folder: folder.path)("init", "Notes", "--schema", "schema.json", "--time-zone", "UTC").status
                == 0)
        return FolioTool(folder: folder("Notes"))
    }

    @Test func importingDocumentsWhoseRelationshipsAreStoredOnBothSidesKeepsTheOtherSideCurrent() throws {
        let folder = try TemporaryDirectory()
        let folio = try notesStore(in: folder)
        let tag = try folio("insert", "Tag", "name=work")
        #expect(tag.status == 0, "\(tag.errors)")
        let tagID = try #require(
            try folio("query", "Tag", "name == \"work\"", "--format", "ndjson").output.firstMatch(
                of: #/"\$?id":\s*"([0-9A-F-]{36})"/#
            ).map { String($0.1) })
        let noteID = UUID().uuidString
        let imported = try folio(
            "import", "Note", "-", "--format", "ndjson",
            input: #"{"$id": "\#(noteID)", "title": "Plan", "tags": ["\#(tagID)"]}"# + "\n")
        #expect(imported.status == 0, "\(imported.errors)")
        // Two files: the note, and the tag, which lists it now (in the same transaction).
        #expect(imported.output == "1 record: 2 written, 0 unchanged\n")
        let tagNow = try folio("get", tagID).output
        #expect(tagNow.contains(noteID), "\(tagNow)")
        #expect(try folio("check").status == 0)
    }

    @Test func aFileThatIsNotUTF8IsRefusedWithItsLineAndNothingIsWritten() throws {
        let folder = try TemporaryDirectory()
        let folio = try notesStore(in: folder)
        var bytes = Array(#"{"title": "One"}"#.utf8) + [10]
        bytes += Array(#"{"title": "Tw"#.utf8) + [0xFF] + Array(#"o"}"#.utf8) + [10]
        _ = try folder.create("notes.ndjson", contents: bytes)
        let imported = try folio("import", "Note", "../notes.ndjson")
        #expect(imported.status == 65)
        #expect(imported.errors.contains("line 2 of ../notes.ndjson is not UTF-8 text"), "\(imported.errors)")
        #expect(try folio("count", "Note").output == "0\n")
    }
}
