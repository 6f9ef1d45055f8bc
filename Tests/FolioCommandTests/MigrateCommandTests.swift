import FolioTestSupport
import Foundation
import Testing

/// `folio migrate` with the committed plan for the Timer app's example store, on a copy.
struct MigrateCommandTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A copy of `Data/TimerApp` (at V1) in a temporary folder, and the tool run there;
    /// the folder is removed when the first value goes, so keep it named.
    func timerStore() throws -> (TemporaryDirectory, FolioTool) {
        let folder = try TemporaryDirectory()
        try FileManager.default.copyItem(
            atPath: Self.repository.appendingPathComponent("Data/TimerApp").path, toPath: folder("TimerApp"))
        return (folder, FolioTool(folder: folder("TimerApp")))
    }

    func snapshot(_ root: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: root)! where !path.hasPrefix(".folio") {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isFolder), !isFolder.boolValue {
                files[path] = try Data(contentsOf: URL(fileURLWithPath: root + "/" + path))
            }
        }
        return files
    }

    @Test func aDryRunPrintsTheDiffAndTheSummaryAndWritesNothing() throws {
        let (folder, folio) = try timerStore()
        let before = try snapshot(folder("TimerApp"))
        let plan = Self.repository.appendingPathComponent("Migrations/TimerApp").path
        let run = try folio("migrate", "--plan", plan, "--dry-run")
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.hasPrefix("diff --git a/Timer/"))
        #expect(run.output.contains("-  \"colorHex\": \"#FF3B30\",\n+  \"color\": \"#FF3B30\","))
        #expect(run.output.contains("diff --git a/folio.json b/folio.json"))
        #expect(!run.output.contains("\u{1B}["))
        #expect(
            run.errors.contains(
                "Dry run 1.0.0 → 2.0.0 (nothing written):\n  Timer: 4 changed, 0 unchanged, 0 deleted, 0 failed\n  TodoItem: 0 changed, 7 unchanged, 0 deleted, 0 failed"
            ))
        #expect(try snapshot(folder("TimerApp")) == before)

        let prefixed = try folio("migrate", "--plan", plan, "--dry-run", "--path-prefix", "Data/TimerApp/")
        #expect(prefixed.output.hasPrefix("diff --git a/Data/TimerApp/Timer/"))
    }

    @Test func applyingMigratesToV2AndTheStoreStillChecksClean() throws {
        let (folder, folio) = try timerStore()
        defer { withExtendedLifetime(folder) {} }
        let plan = Self.repository.appendingPathComponent("Migrations/TimerApp").path
        let dry = try folio("migrate", "--plan", plan, "--dry-run")
        let applied = try folio("migrate", "--plan", plan)
        #expect(applied.status == 0)
        #expect(applied.output.isEmpty)
        #expect(applied.errors.hasPrefix("Migrated 1.0.0 → 2.0.0:"))
        #expect(try folio("info").output.contains("Schema       2.0.0"))
        #expect(
            try folio("query", "Timer", "category == \"General\"", "--fields", "name", "--format", "csv").output.split(
                separator: "\n"
            ).count == 5)
        let check = try folio("check")
        #expect(check.status == 0, "\(check.output)")
        // Nothing left to do: a second dry run prints no diff.
        let again = try folio("migrate", "--plan", plan, "--dry-run")
        #expect(again.output.isEmpty)
        #expect(again.errors.hasPrefix("The store is at 2.0.0 already, where the plan ends:"), "\(again.errors)")
        #expect(!dry.output.isEmpty)
    }

    @Test func aPlanFolderThatDoesNotExistIsAClearError() throws {
        let (folder, folio) = try timerStore()
        defer { withExtendedLifetime(folder) {} }
        let run = try folio("migrate", "--plan", "/nonexistent/plan")
        // A name that leads nowhere is bad input, not a disk failure (74, with a free-space hint).
        #expect(run.status == 65)
        #expect(run.errors.contains("there is no migration plan folder at /nonexistent/plan"))
        #expect(!run.errors.contains("free space"))
    }

    @Test func aPlanThatEndsBelowTheStoresVersionIsRefusedAndWritesNothing() throws {
        let (folder, folio) = try timerStore()
        let plan = Self.repository.appendingPathComponent("Migrations/TimerApp").path
        #expect(try folio("migrate", "--plan", plan).status == 0)
        try FileManager.default.createDirectory(atPath: folder("Later"), withIntermediateDirectories: true)
        _ = try folder.create(
            "Later/002-to-3.0.0.json",
            contents: Array(
                #"{"from": "2.0.0", "to": "3.0.0", "operations": [{"op": "addProperty", "entity": "Timer", "property": "mood", "type": "String", "default": "calm"}]}"#
                    .utf8))
        #expect(try folio("migrate", "--plan", folder("Later")).status == 0)
        #expect(try folio("info").output.contains("Schema       3.0.0"))
        let before = try snapshot(folder("TimerApp"))

        // The 1 -> 2 plan again, on a store at 3.0.0: it used to print "Migrated 3.0.0 → 2.0.0" and write 2.0.0.
        for arguments in [["migrate", "--plan", plan], ["migrate", "--plan", plan, "--dry-run"]] {
            let again = try folio.run(arguments)
            #expect(again.status == 65)
            #expect(
                again.errors.contains(
                    "the store is at schema 3.0.0, newer than 2.0.0, where this migration ends; a migration never lowers a store's version"
                ), "\(again.errors)")
        }
        #expect(try snapshot(folder("TimerApp")) == before)
        #expect(try folio("info").output.contains("Schema       3.0.0"))
        #expect(try folio("check").status == 0)
    }

    @Test func aStageWhoseQueryNestsTooDeeplyIsAClearErrorNotACrash() throws {
        let (folder, folio) = try timerStore()
        try FileManager.default.createDirectory(atPath: folder("Deep"), withIntermediateDirectories: true)
        let deep = String(repeating: "(", count: 600) + "name == nil" + String(repeating: ")", count: 600)
        _ = try folder.create(
            "Deep/001-to-2.0.0.json",
            contents: Array(
                #"{"from": "1.0.0", "to": "2.0.0", "operations": [{"op": "deleteDocuments", "entity": "Timer", "where": "\#(deep)"}]}"#
                    .utf8))
        let before = try snapshot(folder("TimerApp"))
        let run = try folio("migrate", "--plan", folder("Deep"))
        #expect(run.status == 65)
        #expect(run.errors.contains("nests more than 100 levels deep"), "\(run.errors.prefix(500))")
        #expect(try snapshot(folder("TimerApp")) == before)
    }
}
