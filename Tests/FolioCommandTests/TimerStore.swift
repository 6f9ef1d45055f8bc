import FolioTestSupport
import Foundation

/// A store made with `folio init` from a schema as data (the Timer app's, as its models
/// would write it), so the tests need nothing but the tool.
struct TimerStore {
    static let schema = """
        {"entities": {
          "Timer": {"properties": [
            {"name": "id", "type": "UUID", "options": ["unique"]},
            {"name": "name", "type": "String"},
            {"name": "durationInSeconds", "type": "Int"},
            {"name": "createdAt", "type": "Date"},
            {"name": "todoItems", "destination": "TodoItem", "toMany": true, "deleteRule": "cascade", "inverse": "timer"},
            {"name": "notes", "type": "String", "optional": true}
          ], "unique": [["id"]]},
          "TodoItem": {"properties": [
            {"name": "id", "type": "UUID", "options": ["unique"]},
            {"name": "text", "type": "String"},
            {"name": "isCompleted", "type": "Bool"},
            {"name": "createdAt", "type": "Date"},
            {"name": "timer", "destination": "Timer", "toMany": false, "deleteRule": "nullify", "inverse": "todoItems", "optional": true}
          ], "unique": [["id"]]}
        }}
        """

    let folder: TemporaryDirectory
    /// Runs the tool inside the store.
    let folio: FolioTool
    var root: String { folder("Timers") }

    /// A store with two timers, Workout (two to-dos) and Coffee Break (none).
    init() throws {
        folder = try TemporaryDirectory()
        _ = try folder.create("schema.json", contents: Array(Self.schema.utf8))
        let outside = FolioTool(folder: folder.path)
        let created = try outside("init", "Timers", "--time-zone", "Europe/Berlin", "--schema", "schema.json")
        guard created.status == 0 else { throw StoreSetupError(run: created) }
        folio = FolioTool(folder: folder("Timers"))
        try expectSuccess(
            folio("insert", "Timer", "name=Workout", "durationInSeconds=1500", "createdAt=2026-11-01T10:00:00Z"))
        try expectSuccess(
            folio("insert", "Timer", "name=Coffee Break", "durationInSeconds=600", "createdAt=2026-11-02T10:00:00Z"))
        let workout = try id(of: "Timer", where: "name == \"Workout\"")
        try expectSuccess(
            folio(
                "insert", "TodoItem", "text=Stretch", "isCompleted=false", "createdAt=2026-11-01T10:05:00Z",
                "timer=\(workout)"))
        try expectSuccess(
            folio(
                "insert", "TodoItem", "text=Run", "isCompleted=true", "createdAt=2026-11-01T10:06:00Z",
                "timer=\(workout)"))
    }

    /// The identity of the one document a query matches.
    func id(of entity: String, where query: String) throws -> String {
        let run = try folio("query", entity, query, "--fields", "id", "--format", "csv")
        try expectSuccess(run)
        return String(run.output.split(separator: "\n").last ?? "")
    }

    /// The path, relative to the store, of the document with this identity.
    func path(of id: String) throws -> String {
        let run = try folio("query", "TodoItem", "id == \"\(id)\"", "--fields", "path", "--format", "csv")
        let todo = run.output.split(separator: "\n").dropFirst().first.map(String.init)
        if let todo { return todo }
        let timer = try folio("query", "Timer", "id == \"\(id)\"", "--fields", "path", "--format", "csv")
        return String(timer.output.split(separator: "\n").last ?? "")
    }

    /// The tool with `$EDITOR` set to a shell script written into the test's folder.
    func folio(editor script: String) throws -> FolioTool {
        try folio.editing(with: script, in: folder)
    }

    private func expectSuccess(_ run: FolioTool.Run) throws {
        guard run.status == 0 else { throw StoreSetupError(run: run) }
    }
}

struct StoreSetupError: Error, CustomStringConvertible {
    var run: FolioTool.Run
    var description: String { "folio exited \(run.status): \(run.errors)" }
}
