import Foundation
import Testing

/// info, ls, get, query, count, aggregate and export on a store made by the tool.
struct ReadingCommandTests {
    @Test func infoShowsEntitiesCountsSchemaAndTimeZone() throws {
        let store = try TimerStore()
        let run = try store.folio("info")
        #expect(run.status == 0)
        #expect(run.output.contains("Time zone    Europe/Berlin"))
        #expect(run.output.contains("Schema       1.0.0"))
        let timer = try #require(run.output.split(separator: "\n").first { $0.hasPrefix("Timer ") })
        #expect(timer.split(separator: " ", omittingEmptySubsequences: true).prefix(3) == ["Timer", "2", "0"])
        let json = try store.folio("info", "--format", "json")
        let info = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let rows = try #require(info["entities"] as? [[String: Any]])
        #expect(rows.map { $0["entity"] as? String } == ["Timer", "TodoItem"])
        #expect(rows.map { $0["documents"] as? Int } == [2, 2])
    }

    @Test func theStoreIsFoundInTheNearestFolderUpward() throws {
        let store = try TimerStore()
        let inner = FolioTool(folder: store.root + "/Timer")
        #expect(try inner("count", "Timer").output == "2\n")
        let elsewhere = FolioTool(folder: store.folder.path)
        #expect(try elsewhere("count", "Timer", "--store", "Timers").output == "2\n")
    }

    @Test func lsListsDayFoldersAndAnEntitysDocumentsInARange() throws {
        let store = try TimerStore()
        let folders = try store.folio("ls", "--format", "csv").output
        #expect(folders.contains("Timer,Timer/2026/11/01/,1"))
        #expect(folders.contains("TodoItem,TodoItem/2026/11/01/,2"))
        let documents = try store.folio("ls", "Timer", "--from", "2026-11-02", "--format", "csv").output.split(
            separator: "\n")
        #expect(documents.count == 2)
        #expect(documents[1].hasPrefix("Timer/2026/11/02/"))
    }

    @Test func getPrintsTheDocumentAsItIsOnDiskByIdentityOrPath() throws {
        let store = try TimerStore()
        let id = try store.id(of: "Timer", where: "name == \"Workout\"")
        let path = try store.path(of: id)
        let onDisk = try String(contentsOfFile: store.root + "/" + path, encoding: .utf8)
        #expect(try store.folio("get", id).output == onDisk)
        #expect(try store.folio("get", path).output == onDisk)
        let missing = try store.folio("get", "00000000-0000-0000-0000-000000000000")
        #expect(missing.status == 65)
        #expect(missing.errors.contains("no document"))
    }

    @Test func queryFiltersSortsPagesAndProjects() throws {
        let store = try TimerStore()
        let table = try store.folio(
            "query", "Timer", "durationInSeconds > 100", "--sort", "-durationInSeconds", "--fields",
            "name,durationInSeconds")
        #expect(table.output == "name          durationInSeconds\nWorkout       1500\nCoffee Break  600\n")
        let limited = try store.folio(
            "query", "Timer", "--sort", "name", "--limit", "1", "--offset", "1", "--fields", "name", "--format", "csv")
        #expect(limited.output == "name\nWorkout\n")
        let related = try store.folio(
            "query", "Timer", "todoItems.any(!isCompleted)", "--fields", "name", "--format", "ndjson")
        #expect(related.output == "{\"name\":\"Workout\"}\n")
        let json = try store.folio(
            "query", "TodoItem", "timer.name == \"Workout\"", "--sort", "text", "--format", "json")
        let documents = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(documents.map { $0["text"] as? String } == ["Run", "Stretch"])
        #expect(documents.allSatisfy { $0["$entity"] as? String == "TodoItem" })
    }

    @Test func explainDescribesThePlanOnStandardError() throws {
        let store = try TimerStore()
        let id = try store.id(of: "Timer", where: "name == \"Workout\"")
        let run = try store.folio("query", "Timer", "id == \"\(id)\"", "--fields", "name", "--explain")
        #expect(run.output == "name\nWorkout\n")
        #expect(run.errors.contains("plan: Timer: identity"))
        #expect(run.errors.contains("examined 1 of 2 documents, matched 1"))
    }

    @Test func countAndAggregateSummarize() throws {
        let store = try TimerStore()
        #expect(try store.folio("count", "TodoItem", "isCompleted").output == "1\n")
        #expect(
            try store.folio("aggregate", "Timer", "sum", "--of", "durationInSeconds / 60", "--format", "csv").output
                == "sum(durationInSeconds / 60),documents\n35,2\n")
        #expect(
            try store.folio("aggregate", "TodoItem", "count", "--group-by", "isCompleted", "--format", "csv").output
                == "isCompleted,count\nfalse,1\ntrue,1\n")
        let missing = try store.folio("aggregate", "Timer", "sum")
        #expect(missing.status == 65)
        #expect(missing.errors.contains("--of"))
    }

    @Test func exportWritesNDJSONAndCSVThatImportReadsBack() throws {
        let store = try TimerStore()
        let ndjson = try store.folio("export", "TodoItem").output
        #expect(ndjson.split(separator: "\n").count == 2)
        let csv = try store.folio("export", "Timer", "--format", "csv").output
        #expect(csv.hasPrefix("id,name,durationInSeconds,createdAt,notes\n"))
        #expect(csv.contains(",Coffee Break,600,2026-11-02T10:00:00Z,\n"))

        let copy = try TimerStore()
        _ = try copy.folio("delete", "TodoItem", "--all")
        _ = try copy.folio("purge")
        let imported = try copy.folio(
            "import", "TodoItem", "-", "--format", "ndjson",
            input: ndjson.replacingOccurrences(
                of: try store.id(of: "Timer", where: "name == \"Workout\""),
                with: try copy.id(of: "Timer", where: "name == \"Workout\"")))
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(imported.output == "2 records: 2 written, 0 unchanged\n")
        #expect(try copy.folio("count", "TodoItem", "timer.name == \"Workout\"").output == "2\n")
        let again = try copy.folio(
            "import", "Timer", "-", "--format", "csv",
            input: try copy.folio("export", "Timer", "--format", "csv").output)
        #expect(again.output == "2 records: 0 written, 2 unchanged\n")
    }

    @Test func outputCarriesNoColourWhenNotATerminalOrWithNoColor() throws {
        let store = try TimerStore()
        for environment in [[:], ["NO_COLOR": "1"]] {
            var folio = store.folio
            folio.environment = environment
            let run = try folio("query", "Timer", "nme == 1")
            #expect(!run.errors.contains("\u{1B}["))
            #expect(!(try folio("check").output.contains("\u{1B}[")))
        }
    }

    @Test func infoInJSONKeepsTheStoresOwnFactsAndCommandsOfferOnlyTheFormatsTheyWrite() throws {
        let store = try TimerStore()
        let info = try store.folio("info", "--format", "json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(info.output.utf8)) as? [String: Any])
        #expect(object["timeZone"] as? String == "Europe/Berlin" && object["schemaVersion"] as? String == "1.0.0")
        #expect(object["documents"] as? Int == 4)
        let bytes = try #require(object["bytes"] as? Int)
        let files = try FileManager.default.subpathsOfDirectory(atPath: store.root).filter {
            $0.hasSuffix(".json") && $0.contains("/") && !$0.hasPrefix(".")
        }
        let onDisk = try files.reduce(0) {
            $0 + ((try FileManager.default.attributesOfItem(atPath: store.root + "/" + $1)[.size] as? Int) ?? 0)
        }
        #expect(bytes == onDisk, "the documents' bytes, not the folders' or folio.json's")
        #expect((object["entities"] as? [[String: Any]])?.map { $0["entity"] as? String } == ["Timer", "TodoItem"])

        #expect(
            try store.folio("get", try store.id(of: "Timer", where: "name == \"Workout\""), "--format", "table").status
                == 64)
        #expect(try store.folio("export", "Timer", "--format", "json").status == 64)
        #expect(try store.folio("ls", "Timer").output.hasPrefix("path\n"))
        #expect(try store.folio("ls", "Timer", "--include-deleted").output.hasPrefix("path"))
        #expect(
            try store.folio("ls", "Timer", "--include-deleted").output.split(separator: "\n").first?.contains("deleted")
                == true)
    }

    @Test func tablesShowDatesInTheStoresTimeZoneAndOtherFormatsKeepTheStoredText() throws {
        let store = try TimerStore()
        let table = try store.folio("query", "Timer", "name == \"Workout\"", "--fields", "name,createdAt")
        #expect(table.output == "name     createdAt\nWorkout  2026-11-01T11:00:00+01:00\n", "\(table.output)")
        let csv = try store.folio("query", "Timer", "name == \"Workout\"", "--fields", "createdAt", "--format", "csv")
        #expect(csv.output == "createdAt\n2026-11-01T10:00:00Z\n")
    }

    @Test func aTooWideTableOfACommandWithoutFieldsPointsOnlyToJSON() throws {
        let store = try TimerStore()
        let inserted = try store.folio(
            "insert", "Timer", "name=Nap", "durationInSeconds=60", "createdAt=2026-11-20T10:00:00Z")
        #expect(inserted.status == 0, "\(inserted.errors)")
        var narrow = store.folio
        narrow.environment = ["COLUMNS": "30"]
        let run = try narrow("history")
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.errors.contains("did not fit in 30 columns; see all with --format json)"), "\(run.errors)")
        #expect(!run.errors.contains("--fields"), "\(run.errors)")
    }

    @Test func aTableKeepsTheColumnsThatFitTheWidthAndSaysHowToSeeTheRest() throws {
        let store = try TimerStore()
        var narrow = store.folio
        narrow.environment = ["COLUMNS": "30"]
        let run = try narrow("query", "Timer", "name == \"Workout\"", "--fields", "name,durationInSeconds,createdAt")
        #expect(run.output == "name     durationInSeconds\nWorkout  1500\n", "\(run.output)")
        #expect(
            run.errors.contains(
                "(1 more column did not fit in 30 columns; choose them with --fields, or see all with --format json)"),
            "\(run.errors)")
        // A pipe without COLUMNS gets every column; other formats are never cut.
        #expect(
            try store.folio("query", "Timer", "name == \"Workout\"", "--fields", "name,durationInSeconds,createdAt")
                .output.contains("createdAt"))
        #expect(
            try narrow(
                "query", "Timer", "name == \"Workout\"", "--fields", "name,durationInSeconds,createdAt", "--format",
                "csv"
            ).output.contains("createdAt"))
    }
}
