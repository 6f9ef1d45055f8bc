import FolioJSON
import Foundation
import Testing

/// `folio check` after a migration that left documents as they were: one note each, folded
/// into one line so that the errors stand out; `--verbose` and the record formats list each.
struct NoteFoldingTests {
    @Test func notesSharingAMessageAreOneLineWithTheirCountWhileEachErrorKeepsItsLine() throws {
        let store = try TimerStore()
        // A new entity: the migration leaves the four documents as they were, written by the old schema.
        let added = try store.folio("schema", "add-entity", "Tag", "name:String", "--apply")
        #expect(added.status == 0, "\(added.errors)")
        let todo = try store.path(of: try store.id(of: "TodoItem", where: "text == \"Run\""))
        let file = store.root + "/" + todo
        let text = try String(contentsOfFile: file, encoding: .utf8)
        try text.replacingOccurrences(of: "\"isCompleted\": true", with: "\"isCompleted\": \"yes\"")
            .write(toFile: file, atomically: true, encoding: .utf8)
        let other = try store.path(of: try store.id(of: "TodoItem", where: "text == \"Stretch\""))
        let otherFile = store.root + "/" + other
        let otherText = try String(contentsOfFile: otherFile, encoding: .utf8)
        try otherText.replacingOccurrences(of: "\"isCompleted\": false", with: "\"isCompleted\": 0")
            .write(toFile: otherFile, atomically: true, encoding: .utf8)

        let run = try store.folio("check")
        #expect(run.status == 1)
        let lines = run.output.split(separator: "\n").map(String.init)
        let notes = lines.filter { $0.contains(": note: ") }
        #expect(notes.count == 1, "\(run.output)")
        #expect(notes.first?.contains("note: written by schema 1.0.0, older than the store's") == true)
        #expect(notes.first?.hasSuffix(" (and 3 more files with this note; --verbose lists them)") == true)
        // The first file in the listing's order is the example: the Workout timer, of the first day.
        let workout = try store.path(of: try store.id(of: "Timer", where: "name == \"Workout\""))
        #expect(notes.first?.hasPrefix("\(workout):3:3: note: ") == true, "\(notes)")
        #expect(lines.filter { $0.contains(": error: ") }.count == 2, "\(run.output)")
        #expect(lines.contains { $0.hasPrefix("\(todo):6:3: error: \"isCompleted\" is not a valid Bool") })
        #expect(lines.contains { $0.hasPrefix("\(other):6:3: error: \"isCompleted\" is not a valid Bool") })
        #expect(lines.last == "4 documents checked: 2 errors, 4 notes")

        let verbose = try store.folio("check", "--verbose")
        #expect(verbose.status == 1)
        let listed = verbose.output.split(separator: "\n").filter { $0.contains(": note: written by schema 1.0.0") }
        #expect(listed.count == 4, "\(verbose.output)")
        #expect(!verbose.output.contains("more files with this note"))

        let records = try store.folio("check", "--format", "ndjson")
        let messages = try records.output.split(separator: "\n").map {
            try JSONReader().read(String($0))["severity"]?.stringValue ?? ""
        }
        #expect(messages.filter { $0 == "note" }.count == 4)
        #expect(messages.filter { $0 == "error" }.count == 2)
    }
}
