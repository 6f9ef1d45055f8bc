import FolioTestSupport
import Foundation
import Testing

/// What a careless user types or leaves behind: each gets an error that says what to do,
/// with the exit code of its kind, and nothing is half done.
struct CarelessInputTests {
    @Test func insertingAnIdentityThatExistsIsBadInputThatPointsToSet() throws {
        let store = try TimerStore()
        let workout = try store.id(of: "Timer", where: "name == \"Workout\"")
        let again = try store.folio(
            "insert", "Timer", "id=\(workout)", "name=Again", "durationInSeconds=1", "createdAt=2026-11-01T10:00:00Z")
        #expect(again.status == 65)
        #expect(again.errors.contains("already exists; change it with `folio set \(workout)"), "\(again.errors)")
        #expect(try store.folio("get", workout).output.contains("\"name\": \"Workout\""))
    }

    @Test func anEditorThatCannotStartIsAProgramFailureNotBadInput() throws {
        let store = try TimerStore()
        let workout = try store.id(of: "Timer", where: "name == \"Workout\"")
        var folio = store.folio
        folio.environment = ["EDITOR": store.folder("no-such-editor"), "VISUAL": ""]
        let run = try folio("edit", workout)
        #expect(run.status == 69, "\(run.errors)")
        #expect(
            run.errors.contains(
                "error: could not start the editor '\(store.folder("no-such-editor"))': No such file or directory;"
                    + " nothing was saved, the document is unchanged"),
            "\(run.errors)")
        #expect(
            try folio("help", "edit").output.replacingOccurrences(of: "\n", with: " ").contains(
                "69 git or the editor failed"))
    }

    @Test func aDocumentNamedWithALowerCaseUUIDIsReportedWithItsRightName() throws {
        let store = try TimerStore()
        let id = UUID()
        let folder = store.root + "/Timer/2026/11/05"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(
            #"{"$entity": "Timer", "name": "Lower", "durationInSeconds": 1, "createdAt": "2026-11-05T10:00:00Z"}"#.utf8
        )
        .write(to: URL(fileURLWithPath: folder + "/" + id.uuidString.lowercased() + ".json"))
        let check = try store.folio("check")
        #expect(check.status == 1)
        #expect(
            check.output.contains("is named with a lower-case UUID; Folio names documents as \(id.uuidString).json"),
            "\(check.output)")
        #expect(!check.output.contains("free space"))
    }

    @Test func checkRefusesEntityNamesThatCouldNotBeFolders() throws {
        let store = try TimerStore()
        let manifest = store.root + "/folio.json"
        let text = try String(contentsOfFile: manifest, encoding: .utf8).replacingOccurrences(
            of: "\"TodoItem\": {", with: "\"../evil\": {")
        try text.write(toFile: manifest, atomically: true, encoding: .utf8)
        let check = try store.folio("check")
        #expect(check.status == 1)
        #expect(
            check.output.contains(#/folio\.json:\d+:\d+: error: the schema names an entity "\.\./evil"/#),
            "\(check.output)")
        let folder = try TemporaryDirectory()
        _ = try folder.create("schema.json", contents: Array(#"{"entities": {"a/b": {"properties": []}}}"#.utf8))
        let initialized = try FolioTool(folder: folder.path)("init", "Store", "--schema", "schema.json")
        #expect(initialized.status == 65)
        #expect(!FileManager.default.fileExists(atPath: folder("Store/folio.json")))
    }

    @Test func initRefusesAFolderThatHoldsFilesButWelcomesANewRepository() throws {
        let folder = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder("Taken/Sources"), withIntermediateDirectories: true)
        let taken = try FolioTool(folder: folder.path)("init", "Taken", "--time-zone", "UTC")
        #expect(taken.status == 65)
        #expect(taken.errors.contains("is not empty (it holds Sources)"))
        #expect(!FileManager.default.fileExists(atPath: folder("Taken/folio.json")))
        try FileManager.default.createDirectory(atPath: folder("Repository/.git"), withIntermediateDirectories: true)
        #expect(try FolioTool(folder: folder.path)("init", "Repository", "--time-zone", "UTC").status == 0)
    }

    @Test func aCSVFileWithoutItsHeaderIsRefusedNotImportedAsNothing() throws {
        let store = try TimerStore()
        _ = try store.folder.create("rows.csv", contents: Array("Solo,60,2026-11-01T10:00:00Z\n".utf8))
        let run = try store.folio("import", "Timer", "../rows.csv")
        #expect(run.status == 65)
        #expect(run.errors.contains("line 1 of a CSV file is its header"), "\(run.errors)")
        #expect(try store.folio("count", "Timer").output.trimmingCharacters(in: .whitespacesAndNewlines) == "2")
    }

    @Test func countsInMessagesAreSingularForOne() throws {
        let folder = try TemporaryDirectory()
        _ = try folder.create("schema.json", contents: Array(TimerStore.schema.utf8))
        #expect(
            try FolioTool(folder: folder.path)("init", "Store", "--time-zone", "UTC", "--schema", "schema.json").status
                == 0)
        let folio = FolioTool(folder: folder("Store"))
        #expect(
            try folio("insert", "Timer", "name=One", "durationInSeconds=1", "createdAt=2026-11-01T10:00:00Z").status
                == 0)
        let reindex = try folio("reindex")
        #expect(reindex.output.hasPrefix("Read 1 file in"), "\(reindex.output)")
        #expect(try folio("info").output.contains("in 1 document ("))
    }

    @Test func keysTheSchemaDoesNotKnowSurviveAnExportAndImport() throws {
        let store = try TimerStore()
        let workout = try store.id(of: "Timer", where: "name == \"Workout\"")
        let path = try store.path(of: workout)
        // A key a newer app version (or a person) added: a save keeps it, and so must a round trip.
        let text = try String(contentsOfFile: store.root + "/" + path, encoding: .utf8)
            .replacingOccurrences(of: "\n}", with: ",\n  \"mood\": \"calm\"\n}")
        try text.write(toFile: store.root + "/" + path, atomically: true, encoding: .utf8)
        let exported = try store.folio("export", "Timer")
        #expect(exported.status == 0)
        #expect(exported.output.contains("\"mood\""))
        _ = try store.folder.create("timers.ndjson", contents: Array(exported.output.utf8))
        try FileManager.default.removeItem(atPath: store.root + "/" + path)
        let imported = try store.folio("import", "Timer", "../timers.ndjson")
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(imported.errors.contains("kept keys Timer's schema does not know, as a save keeps them: mood"))
        let back = try store.folio("get", workout)
        #expect(back.output.contains("\"mood\": \"calm\""), "\(back.output)")
        #expect(back.output.contains("\"name\": \"Workout\""))
        // A typed property still gets its type checked.
        _ = try store.folder.create(
            "bad.ndjson",
            contents: Array(
                #"{"name": "Bad", "durationInSeconds": "long", "createdAt": "2026-11-01T10:00:00Z", "mood": 1}"#.utf8))
        #expect(try store.folio("import", "Timer", "../bad.ndjson").status == 65)
    }

    @Test func answersThatLeaveOutAnUnreadableDocumentSaySoAndExitOne() throws {
        let store = try TimerStore()
        let workout = try store.id(of: "Timer", where: "name == \"Workout\"")
        let path = try store.path(of: workout)
        let broken = try String(contentsOfFile: store.root + "/" + path, encoding: .utf8).replacingOccurrences(
            of: "\"name\":", with: "\"name\"")
        try broken.write(toFile: store.root + "/" + path, atomically: true, encoding: .utf8)
        for arguments in [
            ["count", "Timer"], ["query", "Timer"], ["aggregate", "Timer", "count"], ["export", "Timer"],
        ] {
            let run = try store.folio.run(arguments)
            #expect(run.status == 1, "\(arguments): \(run.status)")
            #expect(
                run.errors.contains("left out of the answer, since it cannot be read: \(path):"),
                "\(arguments): \(run.errors)")
        }
        #expect(try store.folio("count", "Timer").output == "1\n")
        // Another entity's answers do not depend on it.
        #expect(try store.folio("count", "TodoItem").status == 0)
        // Asked for by its identity, the document shows why it cannot be read.
        let get = try store.folio("get", workout)
        #expect(get.status == 65)
        #expect(get.errors.hasPrefix("\(path):"), "\(get.errors)")
        #expect(get.errors.contains("error: expected ':'"))
    }

    @Test func aDateComparedWithTextIsBadInputNotZero() throws {
        let store = try TimerStore()
        let run = try store.folio("count", "Timer", #"createdAt > "2026-10-01""#)
        #expect(run.status == 65)
        #expect(run.output.isEmpty)
        #expect(run.errors.contains("write the date as @2026-10-01"), "\(run.errors)")
        #expect(try store.folio("count", "Timer", "createdAt > @2026-10-01").output == "2\n")
    }
}
