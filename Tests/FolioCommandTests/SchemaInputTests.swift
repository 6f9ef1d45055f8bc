import FolioJSON
import FolioTestSupport
import Foundation
import Testing

/// A schema given as data, by hand or in a manifest: every mistake reported at its line
/// and column, and none of them turned into a store.
struct SchemaInputTests {
    @Test func initRefusesAHandWrittenSchemaWithItsMistakesAtTheirLinesAndColumns() throws {
        let folder = try TemporaryDirectory()
        let schema = """
            {"entites": {},
             "entities": {
              "Note": {"properties": [
                {"name": "title", "type": "Strin"},
                {"name": "folder", "destination": "Nope", "toMany": false, "deleteRule": "nullify"},
                {"name": "count", "type": "Int", "options": ["uniqe"]},
                {"name": "kind", "type": "Location"}
              ], "unique": [["titel"]]}
             }}
            """
        _ = try folder.create("schema.json", contents: Array(schema.utf8))
        let run = try FolioTool(folder: folder.path)("init", "Notes", "--schema", "schema.json")
        #expect(run.status == 65)
        for expected in [
            "schema.json:1:2: error: the schema has no key \"entites\"; did you mean \"entities\"?",
            "schema.json:4:23: error: Note.title has type \"Strin\", and Strin is not a type Folio stores; did you mean String?",
            "schema.json:5:24: error: Note.folder refers to \"Nope\", which is not one of the schema's entities",
            "schema.json:6:50: error: \"uniqe\" is not an option of Note.count",
            "schema.json:7:22: error: Note.kind has type \"Location\", and Location is not a type Folio stores",
            "schema.json:8:17: error: \"unique\" of Note names \"titel\", which is not one of its properties; did you mean title?",
        ] {
            #expect(run.errors.contains(expected), "\(expected)\nin\n\(run.errors)")
        }
        #expect(run.errors.contains("6 errors above"))
        #expect(!FileManager.default.fileExists(atPath: folder("Notes")), "no store is made")
    }

    @Test func checkReportsTheManifestsSchemaProblemsAtTheirLines() throws {
        let store = try TimerStore()
        let manifest = store.root + "/folio.json"
        var text = try String(contentsOfFile: manifest, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"destination\": \"TodoItem\"", with: "\"destination\": \"TodoItme\"")
        text = text.replacingOccurrences(of: "\"type\": \"Bool\"", with: "\"type\": \"Bol\"")
        try text.write(toFile: manifest, atomically: true, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let destinationLine = try #require(lines.firstIndex { $0.contains("TodoItme") }) + 1
        let typeLine = try #require(lines.firstIndex { $0.contains("\"Bol\"") }) + 1
        let check = try store.folio("check")
        #expect(check.status == 1)
        #expect(check.output.contains("folio.json:\(destinationLine):"))
        #expect(
            check.output.contains(
                "Timer.todoItems refers to \"TodoItme\", which is not one of the schema's entities; did you mean TodoItem?"
            ))
        // A manifest an app wrote may name the app's own types; one letter from Folio's is worth a note.
        #expect(check.output.contains("folio.json:\(typeLine):"))
        #expect(
            check.output.contains(
                "note: TodoItem.isCompleted has type \"Bol\": Bol is an app's own type to Folio, whose values it does not check; did you mean Bool?"
            ))
    }

    @Test func aStoreThatIsAGitRepositoryOfItsOwnKeepsItsPlanInItsFolderAndItsCheckPasses() throws {
        let folder = try TemporaryDirectory()
        try #require(try FolioTool(folder: folder.path)("init", "Notes", "--time-zone", "UTC").status == 0)
        let repository = GitClone(path: folder("Notes"), environment: GitClone.environment(home: folder.path))
        try repository.git("init", "-q", ".")
        // Run from the store's parent, where `Migrations/Notes` would be outside the repository.
        let folio = FolioTool(folder: folder.path)
        let added = try folio("schema", "add-entity", "Note", "title:String", "--store", "Notes")
        #expect(added.status == 0, "\(added.errors)")
        #expect(added.output.contains(folder("Notes/migration-plan/001-to-1.1.0.json")), "\(added.output)")
        #expect(!FileManager.default.fileExists(atPath: folder("Migrations")))
        // The next stage follows it there, from anywhere, and the store's walk passes over it.
        let inside = FolioTool(folder: folder("Notes"))
        #expect(try inside("schema", "add-property", "Note", "pinned:Bool?", "--apply").status == 0)
        #expect(FileManager.default.fileExists(atPath: folder("Notes/migration-plan/002-to-1.2.0.json")))
        #expect(try inside("check").status == 0)
        let status = try repository.git("status", "--porcelain")
        #expect(status.contains("?? migration-plan/"), "\(status)")
    }

    @Test func aStoreInAProjectsRepositoryKeepsItsPlanInTheProjectsMigrationsFolder() throws {
        let folder = try TemporaryDirectory()
        try GitClone(path: folder.path, environment: GitClone.environment(home: folder.path)).git("init", "-q", ".")
        try #require(try FolioTool(folder: folder.path)("init", "Data/Notes", "--time-zone", "UTC").status == 0)
        let added = try FolioTool(folder: folder.path)(
            "schema", "add-entity", "Note", "title:String", "--store", "Data/Notes")
        #expect(added.status == 0, "\(added.errors)")
        #expect(FileManager.default.fileExists(atPath: folder("Migrations/Notes/001-to-1.1.0.json")))
        #expect(!FileManager.default.fileExists(atPath: folder("Data/Notes/migration-plan")))
    }

    @Test func schemaAdditionsAreStageFilesThatMigrateTheStore() throws {
        let folder = try TemporaryDirectory()
        try #require(try FolioTool(folder: folder.path)("init", "Notes", "--time-zone", "UTC").status == 0)
        let folio = FolioTool(folder: folder("Notes"))
        let added = try folio("schema", "add-entity", "Note", "title:String", "note:String?")
        #expect(added.status == 0, "\(added.errors)")
        // The plan goes beside the store, not into its folder.
        let plan = folder("Migrations/Notes")
        let stage = try JSONReader().read(contentsOfFile: plan + "/001-to-1.1.0.json")
        #expect(stage["from"] == "1.0.0" && stage["to"] == "1.1.0")
        let operation = stage["operations"]?.arrayValue?.first
        #expect(operation?["op"] == "addEntity")
        #expect(operation?["properties"]?.arrayValue?.last?["optional"] == true)
        // The plan's stages count before they are applied.
        #expect(
            try folio("schema", "add-entity", "Note", "x:Int").errors.contains("the schema has an entity Note already"))
        #expect(
            try folio("insert", "Note", "title=Tea").errors.contains(
                "whose schema has none yet: add one with `folio schema add-entity`"))
        #expect(
            try folio("schema", "add-entity", "Tag", "name:Strng").errors.contains(
                "Strng is not a type Folio stores; did you mean String?"))
        #expect(try folio("migrate", "--plan", plan).status == 0)
        #expect(try folio("insert", "Note", "title=Tea", "note:=null").status == 0)

        let required = try folio("schema", "add-property", "Note", "pinned:Bool")
        #expect(required.status == 65)
        #expect(required.errors.contains("pass --default, or declare it pinned:Bool?"))
        #expect(
            try folio("schema", "add-property", "Note", "pinned:Bool", "--default", "maybe").errors.contains(
                "the default maybe is not a Bool"))
        let applied = try folio("schema", "add-property", "Note", "pinned:Bool", "--default", "true", "--apply")
        #expect(
            applied.output.contains("Migrated the store to 1.2.0: 1 document changed."),
            "\(applied.output)\(applied.errors)")
        #expect(try folio("query", "Note", "pinned", "--fields", "title", "--format", "csv").output == "title\nTea\n")
        #expect(try folio("schema").output == "Note\n  title   String\n  note    String?\n  pinned  Bool\n")
        // An optional property without a default: its documents get null.
        let optional = try folio("schema", "add-property", "Note", "tag:String?", "--apply")
        #expect(optional.status == 0, "\(optional.errors)")
        #expect(
            try folio("query", "Note", "tag == nil", "--fields", "title", "--format", "csv").output == "title\nTea\n")
        let json = try JSONReader().read(Array(try folio("schema", "show", "--format", "json").output.utf8))
        #expect(json["entities"]?["Note"]?["properties"]?.arrayValue?.count == 4)
        #expect(try folio("check").status == 0)
    }

    @Test func aManifestMemberThatCannotBeReadIsReportedAtItsLine() throws {
        let store = try TimerStore()
        let manifest = store.root + "/folio.json"
        let text = try String(contentsOfFile: manifest, encoding: .utf8)
        try text.replacingOccurrences(of: "\"Europe/Berlin\"", with: "\"Mars/Base\"").write(
            toFile: manifest, atomically: true, encoding: .utf8)
        let line =
            try #require(
                text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("timeZone") })
            + 1
        let info = try store.folio("info")
        #expect(info.status != 0)
        #expect(
            info.errors.contains("folio.json:\(line):3: error: unknown time zone \"Mars/Base\" in the manifest"),
            "\(info.errors)")
        #expect(info.errors.contains("hint: fix that member of folio.json"))
    }
}
