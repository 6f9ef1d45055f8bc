import FolioTestSupport
import Foundation
import Testing

/// insert, set, delete, restore, purge and edit: every change checked against the schema.
struct WritingCommandTests {
    @Test func insertWritesACanonicalDocumentInItsDayFolder() throws {
        let store = try TimerStore()
        let run = try store.folio(
            "insert", "Timer", "name=Tea", "durationInSeconds=240", "createdAt=2026-11-03T23:30:00Z", "notes:=null")
        #expect(run.status == 0)
        // 23:30 UTC is the next day in Berlin, whose days name the folders.
        let path = run.output.trimmingCharacters(in: .newlines)
        #expect(path.hasPrefix("Timer/2026/11/04/"))
        let text = try String(contentsOfFile: store.root + "/" + path, encoding: .utf8)
        let id = String(path.dropFirst("Timer/2026/11/04/".count).dropLast(".json".count))
        #expect(
            text == """
                {
                  "$entity": "Timer",
                  "$version": "1.0.0",
                  "id": "\(id)",
                  "name": "Tea",
                  "durationInSeconds": 240,
                  "createdAt": "2026-11-03T23:30:00Z",
                  "notes": null
                }

                """)
    }

    @Test func insertRefusesWhatBreaksTheSchemaAndWritesNothing() throws {
        let store = try TimerStore()
        let wrongType = try store.folio(
            "insert", "Timer", "name=Tea", "durationInSeconds=long", "createdAt=2026-11-03T10:00:00Z")
        #expect(wrongType.status == 65)
        #expect(wrongType.errors.contains("\"durationInSeconds\" is not a valid Int"))
        let missing = try store.folio("insert", "Timer", "name=Tea")
        #expect(missing.errors.contains("required property \"durationInSeconds\" (Int) is missing"))
        let dangling = try store.folio(
            "insert", "TodoItem", "text=x", "isCompleted=false", "createdAt=2026-11-03T10:00:00Z",
            "timer=00000000-0000-0000-0000-000000000000")
        #expect(dangling.errors.contains("which the store does not hold"))
        #expect(try store.folio("count", "Timer").output == "2\n")
        #expect(try store.folio("count", "TodoItem").output == "2\n")
    }

    @Test func setChangesPropertiesOfOneDocumentOrOfAllAQueryMatches() throws {
        let store = try TimerStore()
        let id = try store.id(of: "Timer", where: "name == \"Workout\"")
        #expect(try store.folio("set", id, "notes=Before breakfast").output == "1 document matched, 1 written\n")
        #expect(
            try store.folio("query", "Timer", "notes != nil", "--fields", "name,notes", "--format", "csv").output
                == "name,notes\nWorkout,Before breakfast\n")
        #expect(
            try store.folio("set", "TodoItem", "isCompleted == false", "isCompleted=true").output
                == "1 document matched, 1 written\n")
        #expect(try store.folio("count", "TodoItem", "isCompleted").output == "2\n")
        // Queries without comparison operators, and values with them, are told apart by the `name=` form.
        #expect(
            try store.folio("set", "TodoItem", "isCompleted", "isCompleted=false").output
                == "2 documents matched, 2 written\n")
        #expect(
            try store.folio("set", "TodoItem", "!isCompleted", "text=a < b", "isCompleted=true").output
                == "2 documents matched, 2 written\n")
        #expect(try store.folio("count", "TodoItem", "text == \"a < b\"").output == "2\n")
        #expect(
            try store.folio("set", "Timer", "name ~= \"^Work\"", "notes:=null").output
                == "1 document matched, 1 written\n")
        let bare = try store.folio("set", "TodoItem", "isCompleted=false")
        #expect(bare.status == 65)
        #expect(bare.errors.contains("give a query"))
    }

    @Test func deleteIsSoftAndCascadesRestoreUndoesItPurgeRemovesTheFiles() throws {
        let store = try TimerStore()
        let id = try store.id(of: "Timer", where: "name == \"Workout\"")
        let path = try store.path(of: id)
        #expect(
            try store.folio("delete", "Timer", "name == \"Workout\"").output.hasPrefix(
                "3 documents deleted (2 by cascade)"))
        #expect(try store.folio("count", "TodoItem").output == "0\n")
        #expect(try store.folio("count", "TodoItem", "--include-deleted").output == "2\n")
        #expect(try String(contentsOfFile: store.root + "/" + path, encoding: .utf8).contains("\"$deleted\": \""))
        #expect(try store.folio("restore", "Timer", "name == \"Workout\"").output == "3 documents restored\n")
        #expect(try store.folio("count", "TodoItem").output == "2\n")
        #expect(!(try String(contentsOfFile: store.root + "/" + path, encoding: .utf8).contains("$deleted")))

        _ = try store.folio("delete", id)
        #expect(try store.folio("purge", "--before", "2000-01-01").output == "0 documents purged\n")
        #expect(try store.folio("purge").output == "3 documents purged\n")
        #expect(!FileManager.default.fileExists(atPath: store.root + "/" + path))
        #expect(try store.folio("count", "TodoItem", "--include-deleted").output == "0\n")
    }

    @Test func purgeRemovesTheReferencesOtherDocumentsKeepToWhatItRemoves() throws {
        let folder = try TemporaryDirectory()
        _ = try folder.create(
            "schema.json",
            contents: Array(
                """
                {"entities": {
                  "Session": {"properties": [{"name": "title", "type": "String"}]},
                  "Device": {"properties": [
                    {"name": "name", "type": "String"},
                    {"name": "sessions", "destination": "Session", "toMany": true, "deleteRule": "nullify"},
                    {"name": "current", "destination": "Session", "toMany": false, "deleteRule": "nullify", "optional": true}
                  ]}
                }}
                """.utf8))
        #expect(
            try FolioTool(folder: folder.path)("init", "Store", "--time-zone", "UTC", "--schema", "schema.json").status
                == 0)
        let folio = FolioTool(folder: folder("Store"))
        for title in ["Morning", "Evening"] { #expect(try folio("insert", "Session", "title=\(title)").status == 0) }
        let ids = try folio("query", "Session", "--fields", "id", "--format", "csv").output.split(separator: "\n")
            .dropFirst().map(String.init)
        #expect(ids.count == 2)
        let morningRows = try folio("query", "Session", "title == \"Morning\"", "--fields", "id", "--format", "csv")
            .output.split(separator: "\n")
        let morning = String(morningRows.last ?? "")
        let evening = ids.first { $0 != morning } ?? ""
        #expect(
            try folio(
                "insert", "Device", "name=PM5", "sessions:=[\"\(morning)\", \"\(evening)\"]", "current=\(morning)"
            ).status == 0)

        #expect(try folio("delete", morning).status == 0)
        // Soft-deleted, the session is still referred to, so a restore would bring it back whole.
        #expect(try folio("query", "Device", "--format", "ndjson").output.contains(morning))
        let purged = try folio("purge")
        #expect(purged.output == "1 document purged; references to them removed from 1 document\n", "\(purged.output)")
        let device = try folio("query", "Device", "--format", "ndjson").output
        #expect(!device.contains(morning))
        #expect(
            device.contains("\"sessions\":[\"\(evening)\"]") || device.contains("\"sessions\": [\"\(evening)\"]"),
            "\(device)")
        #expect(device.contains("\"current\":null") || device.contains("\"current\": null"), "\(device)")
        let check = try folio("check")
        #expect(check.status == 0, "\(check.output)")
    }

    @Test func deleteOfAnEntityWithoutAQueryAsksForOne() throws {
        let store = try TimerStore()
        let run = try store.folio("delete", "Timer")
        #expect(run.status == 65)
        #expect(run.errors.contains("--all"))
        #expect(try store.folio("count", "Timer").output == "2\n")
    }

    @Test func editReopensAnInvalidEditWithTheErrorAndSavesOnlyAValidOne() throws {
        let store = try TimerStore()
        let id = try store.id(of: "Timer", where: "name == \"Coffee Break\"")
        let path = try store.path(of: id)
        let before = try String(contentsOfFile: store.root + "/" + path, encoding: .utf8)
        // The editor breaks the type on its first run, and on its second drops the tool's
        // comment lines and writes a valid change; each run is logged.
        let folio = try store.folio(
            editor: """
                log="$(dirname "$0")/editor.log"
                echo run >> "$log"
                if [ "$(wc -l < "$log")" -eq 1 ]; then
                  sed -i 's/"durationInSeconds": 600/"durationInSeconds": "ten minutes"/' "$1"
                else
                  grep -v '^//' "$1" | sed 's/"durationInSeconds": "ten minutes"/"durationInSeconds": 660/' > "$1.new" && mv "$1.new" "$1"
                fi
                """)
        let run = try folio("edit", id)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.errors.contains("\"durationInSeconds\" is not a valid Int"))
        #expect(run.output.hasPrefix("Saved \(path)"))
        #expect(try String(contentsOfFile: store.folder("editor.log"), encoding: .utf8) == "run\nrun\n")
        let after = try String(contentsOfFile: store.root + "/" + path, encoding: .utf8)
        #expect(
            after == before.replacingOccurrences(of: "\"durationInSeconds\": 600", with: "\"durationInSeconds\": 660"))
    }

    @Test func editGivingUpOnAnInvalidDocumentSavesNothing() throws {
        let store = try TimerStore()
        let id = try store.id(of: "Timer", where: "name == \"Coffee Break\"")
        let path = try store.path(of: id)
        let before = try String(contentsOfFile: store.root + "/" + path, encoding: .utf8)
        // Breaks the JSON once, then leaves the file as shown: the user gives up.
        let folio = try store.folio(
            editor: """
                grep -q '^//' "$1" || sed -i 's/"name": "Coffee Break",/"name": "Coffee Break"/' "$1"
                """)
        let run = try folio("edit", path)
        #expect(run.status == 65)
        #expect(run.errors.contains("Gave up; nothing saved."))
        #expect(try String(contentsOfFile: store.root + "/" + path, encoding: .utf8) == before)
    }

    @Test func datesAreTypedAsPeopleWriteThemInTheStoresTimeZone() throws {
        let store = try TimerStore()
        let local = try store.folio(
            "insert", "Timer", "name=Local", "durationInSeconds=1", "createdAt=2026-11-05 09:30")
        #expect(local.status == 0, "\(local.errors)")
        #expect(
            try store.folio("get", String(local.output.split(separator: "/").last!.prefix(36))).output.contains(
                #""createdAt": "2026-11-05T08:30:00Z""#))
        let day = try store.folio("insert", "Timer", "name=Day", "durationInSeconds=1", "createdAt=2026-11-06")
        #expect(
            try store.folio("get", String(day.output.split(separator: "/").last!.prefix(36))).output.contains(
                #""createdAt": "2026-11-05T23:00:00Z""#))
        #expect(try store.folio("insert", "Timer", "name=Now", "durationInSeconds=1", "createdAt=now").status == 0)
        #expect(try store.folio("insert", "Timer", "name=Today", "durationInSeconds=1", "createdAt=today").status == 0)
        #expect(try store.folio("count", "Timer", "createdAt >= @today").output.hasPrefix("2"))
        let impossible = try store.folio("insert", "Timer", "name=Never", "durationInSeconds=1", "createdAt=2026-02-30")
        #expect(impossible.status == 65)
        #expect(try store.folio("count", "Timer", "name == \"Never\"").output.hasPrefix("0"))
    }
}
