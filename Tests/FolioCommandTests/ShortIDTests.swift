import FolioTestSupport
import Foundation
import Testing

/// Tables show a document's id as git shows a commit: its first eight digits, or as many
/// more as tell it apart from every other id of the store; JSON, NDJSON and CSV show it
/// whole; and every command that takes a document takes its start back, an ambiguous one
/// being an error that lists the documents it could be.
struct ShortIDTests {
    /// Two timers whose ids share their first nine digits (`0F6C1E2A-3`), and one that
    /// shares only the first four (`0F6C`) with them.
    static let twins = ["0F6C1E2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B", "0F6C1E2A-3C00-4E5F-8A9B-0C1D2E3F4A5B"]
    static let cousin = "0F6C9999-0000-4000-8000-000000000001"

    /// The Timer store with the twins and the cousin imported under those ids.
    static func storeWithTwins() throws -> TimerStore {
        let store = try TimerStore()
        let lines = zip(twins + [cousin], ["Tea", "Nap", "Walk"]).map { id, name in
            #"{"id": "\#(id)", "name": "\#(name)", "durationInSeconds": 300, "createdAt": "2026-11-05T10:00:00Z"}"#
        }
        let file = try store.folder.create("timers.ndjson", contents: Array(lines.joined(separator: "\n").utf8))
        let imported = try store.folio("import", "Timer", file)
        #expect(imported.status == 0, "\(imported.errors)")
        return store
    }

    /// The lines of a table, split into cells at runs of two or more blanks.
    static func cells(_ output: String) -> [[String]] {
        output.split(separator: "\n").map { line in line.split(separator: /\s{2,}/).map(String.init) }
    }

    @Test func aQueryTableShowsEachIdAsItsFirstEightDigits() throws {
        let store = try TimerStore()
        let workout = try store.id(of: "Timer", where: "name == \"Workout\"")
        let run = try store.folio("query", "Timer", "name == \"Workout\"", "--fields", "id,name")
        #expect(run.status == 0, "\(run.errors)")
        #expect(Self.cells(run.output) == [["id", "name"], [String(workout.prefix(8)), "Workout"]])
    }

    @Test func idsThatShareTheirFirstEightDigitsShowAsManyMoreAsTellThemApart() throws {
        let store = try Self.storeWithTwins()
        let run = try store.folio("query", "Timer", "durationInSeconds == 300", "--fields", "id,name", "--sort", "name")
        #expect(run.status == 0, "\(run.errors)")
        // The twins share 0F6C1E2A-3: they show one digit more. The cousin shares four digits
        // with them, fewer than the eight every id shows.
        #expect(
            Self.cells(run.output) == [
                ["id", "name"], ["0F6C1E2A-3C", "Nap"], ["0F6C1E2A-3B", "Tea"], ["0F6C9999", "Walk"],
            ])
    }

    /// The ids a table is told apart from are those the query's own walk found: a file
    /// added by hand since the folder's cache file was written counts as the imported ones do.
    @Test func aDocumentAddedByHandSinceTheCacheFileIsToldApartToo() throws {
        let store = try Self.storeWithTwins()
        let tea = try #require(
            FileManager.default.subpathsOfDirectory(atPath: store.root + "/Timer").first {
                $0.hasSuffix(".json") && $0.contains(Self.twins[0])
            })
        let third = "0F6C1E2A-3B4E-4000-8000-000000000003"
        // Ten minutes long: not among the rows the query shows, only among the store's ids.
        let text = try String(contentsOfFile: store.root + "/Timer/" + tea, encoding: .utf8)
            .replacing(Self.twins[0], with: third).replacing("\"Tea\"", with: "\"Tisane\"")
            .replacing("\"durationInSeconds\": 300", with: "\"durationInSeconds\": 600")
        try text.write(
            toFile: store.root + "/Timer/" + tea.replacing(Self.twins[0], with: third), atomically: false,
            encoding: .utf8)
        let run = try store.folio("query", "Timer", "durationInSeconds == 300", "--fields", "id,name", "--sort", "name")
        #expect(run.status == 0, "\(run.errors)")
        // Tea and the hand-made Tisane share 0F6C1E2A-3B4: Tea shows a digit more than that.
        #expect(
            Self.cells(run.output) == [
                ["id", "name"], ["0F6C1E2A-3C", "Nap"], ["0F6C1E2A-3B4D", "Tea"], ["0F6C9999", "Walk"],
            ])
    }

    @Test func aTableShowsTheIdsOfToOneRelationshipsShortAndTheHistoryItsIdsShort() throws {
        let store = try TimerStore()
        let workout = try store.id(of: "Timer", where: "name == \"Workout\"")
        let todos = try store.folio("query", "TodoItem", "text == \"Run\"", "--fields", "text,timer")
        #expect(todos.status == 0, "\(todos.errors)")
        #expect(Self.cells(todos.output) == [["text", "timer"], ["Run", String(workout.prefix(8))]])
        let history = try store.folio("history", "--entity", "Timer", "--format", "table")
        #expect(history.status == 0, "\(history.errors)")
        let ids = Self.cells(history.output).dropFirst().map { $0[5] }
        #expect(ids.contains(String(workout.prefix(8))))
        #expect(ids.allSatisfy { $0.count == 8 })
    }

    @Test func jsonNDJSONAndCSVShowIdsWhole() throws {
        let store = try TimerStore()
        let workout = try store.id(of: "Timer", where: "name == \"Workout\"")
        #expect(workout.count == 36)
        for format in ["json", "ndjson", "csv"] {
            let run = try store.folio("query", "Timer", "name == \"Workout\"", "--fields", "id", "--format", format)
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.output.contains(workout), "\(format): \(run.output)")
        }
    }

    @Test func getTakesAShortIdInEitherCaseWithOrWithoutItsHyphens() throws {
        let store = try Self.storeWithTwins()
        let whole = try store.folio("get", Self.twins[0])
        #expect(whole.status == 0, "\(whole.errors)")
        for prefix in ["0F6C1E2A-3B", "0f6c1e2a-3b", "0f6c1e2a3b4d", "0F6C1E2A-3B4D-4E5F"] {
            let run = try store.folio("get", prefix)
            #expect(run.status == 0, "\(prefix): \(run.errors)")
            #expect(run.output == whole.output, "\(prefix)")
        }
    }

    @Test func everyCommandThatTakesADocumentTakesTheShortIdATableShows() throws {
        let store = try TimerStore()
        let workout = try store.id(of: "Timer", where: "name == \"Workout\"")
        let short = String(workout.prefix(8))
        let path = try store.path(of: workout)
        #expect(try store.folio("set", short, "name=Gym").status == 0)
        #expect(try store.folio("get", short, "--format", "ndjson").output.contains(#""name":"Gym""#))
        let revision = try store.folio("get", short, "--revision")
        #expect(revision.status == 0, "\(revision.errors)")
        let edited = try store.folio(editor: #"sed -i 's/"Gym"/"Yoga"/' "$1""#)("edit", short)
        #expect(edited.status == 0, "\(edited.errors)")
        #expect(try String(contentsOfFile: store.root + "/" + path, encoding: .utf8).contains(#""Yoga""#))
        // A to-one relationship's value, too.
        let todo = try store.folio(
            "insert", "TodoItem", "text=Swim", "isCompleted=false", "createdAt=2026-11-01T11:00:00Z", "timer=\(short)")
        #expect(todo.status == 0, "\(todo.errors)")
        #expect(try store.folio("count", "TodoItem", "timer.name == \"Yoga\"").output == "3\n")
        let deleted = try store.folio("delete", short)
        #expect(deleted.status == 0, "\(deleted.errors)")
        #expect(deleted.output.hasPrefix("4 documents deleted (3 by cascade)"), "\(deleted.output)")
        let restored = try store.folio("restore", short)
        #expect(restored.status == 0, "\(restored.errors)")
        #expect(restored.output == "4 documents restored\n")
    }

    @Test func aPrefixOfSeveralDocumentsIsAnErrorThatListsThem() throws {
        let store = try Self.storeWithTwins()
        let run = try store.folio("get", "0f6c1e2a")
        #expect(run.status == 65)
        #expect(run.output.isEmpty)
        let lines = run.errors.split(separator: "\n").map(String.init)
        #expect(lines.first == "error: the id 0f6c1e2a is ambiguous: 2 documents' ids start with it")
        #expect(lines.dropFirst().first?.hasSuffix("/" + Self.twins[0] + ".json") == true, "\(run.errors)")
        #expect(lines.dropFirst(2).first?.hasSuffix("/" + Self.twins[1] + ".json") == true, "\(run.errors)")
        #expect(lines.last == "hint: give more of the id (its first 10 digits tell these apart), or the whole UUID")
        // A command that writes changes nothing.
        let set = try store.folio("set", "0F6C", "name=Both")
        #expect(set.status == 65)
        #expect(set.errors.hasPrefix("error: the id 0F6C is ambiguous: 3 documents' ids start with it\n"))
        #expect(try store.folio("count", "Timer", "name == \"Both\"").output == "0\n")
    }

    /// The ids of every document of the Timer store.
    static func ids(in store: TimerStore) throws -> [String] {
        try ["Timer", "TodoItem"].flatMap { entity in
            try store.folio("query", entity, "--fields", "id", "--format", "csv").output.split(separator: "\n")
                .dropFirst().map(String.init)
        }
    }

    @Test func aPrefixOfNoDocumentSaysSo() throws {
        let store = try TimerStore()
        let ids = try Self.ids(in: store)
        #expect(ids.count == 4)
        // Prefixes no id of the store starts with, whatever ids it was given.
        let unused = ["ABCD1234", "ABCE1234"].first { prefix in !ids.contains { $0.hasPrefix(prefix) } }!
        let letters = ["Face", "Fade"].first { prefix in !ids.contains { $0.hasPrefix(prefix.uppercased()) } }!
        let run = try store.folio("get", unused)
        #expect(run.status == 65)
        #expect(
            run.errors.hasPrefix(
                "error: no document in the store at \(store.root) has an id that starts with \(unused)\nhint: "),
            "\(run.errors)")
        // Hexadecimal letters alone might have been an entity's name: the error says it is neither.
        let delete = try store.folio("delete", letters)
        #expect(delete.status == 65)
        #expect(
            delete.errors.contains("has an id that starts with \(letters), nor is there an entity \(letters)"),
            "\(delete.errors)")
    }

    @Test func fewerThanFourDigitsAreNotTakenForAnId() throws {
        let store = try TimerStore()
        let run = try store.folio("get", "0F6")
        #expect(run.status == 65)
        #expect(run.errors.hasPrefix("error: 0F6 is neither a document's id (a UUID, or its first 4 or more digits)"))
    }

    @Test func anEntityWhoseNameIsHexadecimalIsTakenForTheEntity() throws {
        let folder = try TemporaryDirectory()
        let schema = #"{"entities": {"Bead": {"properties": [{"name": "color", "type": "String"}]}}}"#
        _ = try folder.create("schema.json", contents: Array(schema.utf8))
        let created = try FolioTool(folder: folder.path)("init", "Beads", "--schema", "schema.json")
        #expect(created.status == 0, "\(created.errors)")
        let folio = FolioTool(folder: folder("Beads"))
        #expect(try folio("insert", "Bead", "color=red").status == 0)
        let deleted = try folio("delete", "Bead", "--all")
        #expect(deleted.status == 0, "\(deleted.errors)")
        #expect(deleted.output.hasPrefix("1 document deleted"))
    }
}
