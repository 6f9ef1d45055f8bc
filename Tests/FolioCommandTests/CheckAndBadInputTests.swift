import Foundation
import Testing

/// check on hand edits, and every kind of bad input: each a clear message and its exit code.
struct CheckAndBadInputTests {
    @Test func aCleanStoreChecksCleanWithExitZero() throws {
        let store = try TimerStore()
        let run = try store.folio("check")
        #expect(run.status == 0)
        #expect(run.output == "4 documents checked: 0 errors, 0 notes\n")
    }

    @Test func checkReportsHandEditsWithLineAndColumnAndExitsOne() throws {
        let store = try TimerStore()
        let todo = try store.path(of: try store.id(of: "TodoItem", where: "text == \"Run\""))
        let file = store.root + "/" + todo
        let text = try String(contentsOfFile: file, encoding: .utf8)
        try text.replacingOccurrences(of: "\"isCompleted\": true", with: "\"isCompleted\": \"yes\"")
            .replacingOccurrences(of: "\"text\"", with: "\"txt\"")
            .write(toFile: file, atomically: true, encoding: .utf8)
        let broken = "Timer/2026/11/01/00000000-0000-0000-0000-00000000000A.json"
        try "{\n  \"$entity\": \"Timer\",\n  \"name\" \"x\"\n}\n".write(
            toFile: store.root + "/" + broken, atomically: true, encoding: .utf8)

        let get = try store.folio("get", broken)
        #expect(get.status == 65)
        #expect(get.errors.hasPrefix(broken + ":3:10: error:"))

        let run = try store.folio("check")
        #expect(run.status == 1)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix(broken + ":3:10: error:") })
        #expect(lines.contains("\(todo): error: required property \"text\" (String) is missing"))
        #expect(
            lines.contains(
                "\(todo):5:3: note: \"txt\" is not in the schema (did you mean \"text\"?); Folio keeps it as it is"))
        #expect(
            lines.contains(
                "\(todo):6:3: error: \"isCompleted\" is not a valid Bool: expected true or false, found string"))
        #expect(lines.last == "5 documents checked: 3 errors, 1 note")
    }

    @Test func checkFindsDuplicatesDanglingAndOneSidedRelationshipsAndMisplacedFiles() throws {
        let store = try TimerStore()
        let workout = try store.id(of: "Timer", where: "name == \"Workout\"")
        let workoutPath = try store.path(of: workout)
        // A copy of Workout under another name but the same "id": a duplicate and a mismatch.
        let copyPath = "Timer/2026/11/01/11111111-1111-1111-1111-111111111111.json"
        try FileManager.default.copyItem(atPath: store.root + "/" + workoutPath, toPath: store.root + "/" + copyPath)
        // A to-do moved to another day's folder and pointed at a timer that does not exist.
        let todo = try store.path(of: try store.id(of: "TodoItem", where: "text == \"Run\""))
        let moved = todo.replacingOccurrences(of: "2026/11/01", with: "2026/11/09")
        try FileManager.default.createDirectory(
            atPath: store.root + "/TodoItem/2026/11/09", withIntermediateDirectories: true)
        let text = try String(contentsOfFile: store.root + "/" + todo, encoding: .utf8).replacingOccurrences(
            of: workout, with: "22222222-2222-2222-2222-222222222222")
        try text.write(toFile: store.root + "/" + moved, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: store.root + "/" + todo)

        let output = try store.folio("check").output
        #expect(
            output.contains(
                "\(copyPath):4:3: error: \"id\" is \"\(workout)\", but the file is named 11111111-1111-1111-1111-111111111111; they must agree"
            ))
        #expect(output.contains("is also held by"))
        #expect(
            output.contains(
                "\(moved):8:3: error: \"timer\" points at Timer 22222222-2222-2222-2222-222222222222, which the store does not hold"
            ))
        #expect(
            output.contains(
                "\(moved): error: the file is in the folder of 2026-11-09, but its \"createdAt\" falls on 2026-11-01; move it to TodoItem/2026/11/01/"
            ))
    }

    @Test func checkFlagsADollarIDThatNamesAnotherDocument() throws {
        let store = try TimerStore()
        let workout = try store.id(of: "Timer", where: "name == \"Workout\"")
        let path = try store.path(of: workout)
        // What a line merge of two paired documents can leave: the file's own "id", another's "$id".
        let other = "33333333-3333-3333-3333-333333333333"
        let text = try String(contentsOfFile: store.root + "/" + path, encoding: .utf8)
            .replacingOccurrences(of: "\"$version\"", with: "\"$id\": \"\(other)\",\n  \"$version\"")
        try text.write(toFile: store.root + "/" + path, atomically: true, encoding: .utf8)
        let check = try store.folio("check")
        #expect(check.status == 1)
        #expect(
            check.output.contains("error: \"$id\" is \"\(other)\", but the file is named \(workout); they must agree"),
            "\(check.output)")
    }

    @Test func unknownEntitiesAndPropertiesGetASuggestion() throws {
        let store = try TimerStore()
        let entity = try store.folio("query", "Timr")
        #expect(entity.status == 65)
        #expect(entity.errors.contains("Timr is not an entity of the store"))
        #expect(entity.errors.contains("did you mean Timer?"))
        let property = try store.folio("insert", "Timer", "nmae=Tea")
        #expect(property.status == 65)
        #expect(property.errors.contains("Timer has no property nmae; did you mean name?"))
        let field = try store.folio("query", "Timer", "--fields", "nam,durationInSeconds")
        #expect(field.errors.contains("did you mean"))
    }

    @Test func aMalformedQueryShowsWhereWithACaret() throws {
        let store = try TimerStore()
        let run = try store.folio("query", "Timer", "durationInSeconds >> 5")
        #expect(run.status == 65)
        #expect(run.output.isEmpty)
        let lines = run.errors.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[1] == "  durationInSeconds >> 5")
        #expect(lines[2].hasSuffix("^"))
        #expect(lines[2].count == lines[1].prefix { $0 != ">" }.count + 2)
    }

    @Test func aFolderThatIsNotAStoreExits66() throws {
        let folder = try FolioTool(folder: FileManager.default.temporaryDirectory.path)("info", "--store", "/proc/self")
        #expect(folder.status == 66)
        #expect(folder.errors.contains("not a Folio store"))
        let nowhere = try FolioTool(folder: "/")("count", "Timer")
        #expect(nowhere.status == 66)
        #expect(nowhere.errors.contains("no folio.json here or in any folder above"))
    }

    @Test func aLockedStoreFailsWithExit75AfterTheTimeout() throws {
        let store = try TimerStore()
        let descriptor = open(store.root + "/.folio/lock", O_RDWR | O_CREAT, 0o644)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        #expect(flock(descriptor, LOCK_EX) == 0)
        let run = try store.folio(
            "insert", "Timer", "name=Tea", "durationInSeconds=1", "createdAt=2026-11-03T10:00:00Z", "--lock-timeout",
            "0.5")
        #expect(run.status == 75)
        #expect(run.errors.contains("another process has been writing to this store"))
        flock(descriptor, LOCK_UN)
        #expect(try store.folio("count", "Timer").output == "2\n")
    }

    @Test func aFileChangedDuringAnEditIsAConflictAndNothingIsSaved() throws {
        let store = try TimerStore()
        let id = try store.id(of: "Timer", where: "name == \"Coffee Break\"")
        let path = store.root + "/" + (try store.path(of: id))
        // The editor changes the document; meanwhile someone else changed the file in the store.
        let folio = try store.folio(
            editor: """
                sed -i 's/"durationInSeconds": 600/"durationInSeconds": 700/' "$1"
                sed -i 's/"name": "Coffee Break"/"name": "Espresso"/' "\(path)"
                """)
        let run = try folio("edit", id)
        #expect(run.status == 75)
        #expect(run.errors.contains("conflict"))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\"name\": \"Espresso\""))
        #expect(text.contains("\"durationInSeconds\": 600"))
    }

    @Test func everyCommandsHelpHasAnExampleAndTheExitCodes() throws {
        let folio = FolioTool(folder: FileManager.default.temporaryDirectory.path)
        // Every command the tool has, as its own help dump lists them: a new one cannot be missed.
        let commands = try FolioTool.optionsByCommand().map(\.command).filter { $0 != ["help"] }
        #expect(commands.count > 30)
        for command in commands {
            let help = try folio.run(["help"] + command)
            #expect(help.status == 0)
            // The example runs the command, after an environment variable or from git's configuration.
            let example = help.output.components(separatedBy: "Example:\n").dropFirst().first ?? ""
            #expect(
                example.split(separator: "\n").first?.contains("folio \(command.joined(separator: " "))") == true,
                "\(command)")
            #expect(help.output.contains("Exit codes:"), "\(command)")
        }
    }

    @Test func everyCommandsHelpFitsEightyColumnsInWholeParagraphs() throws {
        var folio = FolioTool(folder: FileManager.default.temporaryDirectory.path)
        folio.environment = ["COLUMNS": "80"]
        let commands = [[]] + (try FolioTool.optionsByCommand().map(\.command).filter { $0 != ["help"] })
        for command in commands {
            let help = try folio.run(["help"] + command)
            #expect(help.status == 0, "\(command)")
            let lines = help.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for (index, line) in lines.enumerated() {
                // Usage lines too: the tool breaks them between arguments.
                #expect(line.count <= 80, "\(command): \(line)")
                // An example is one line: a wrapped one leaves its end at the margin.
                if line.hasPrefix("  folio "), index + 1 < lines.count {
                    let next = lines[index + 1]
                    #expect(next.isEmpty || next.hasPrefix("  "), "\(command): \(line) / \(next)")
                }
            }
            // Prose paragraphs are filled: no short line inside one, as hand wraps re-wrapped leave.
            for paragraph in help.output.components(separatedBy: "\n\n") {
                let prose = paragraph.split(separator: "\n").map(String.init)
                guard prose.count > 1,
                    prose.allSatisfy({ !$0.hasPrefix(" ") && !$0.hasSuffix(":") && !$0.hasPrefix("USAGE") })
                else { continue }
                for line in prose.dropLast() { #expect(line.count >= 50, "\(command): a ragged line: \(line)") }
            }
        }
    }
}
