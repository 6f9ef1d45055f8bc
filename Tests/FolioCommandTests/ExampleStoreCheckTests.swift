import FolioTestSupport
import Foundation
import Testing

/// The example stores in `Data/` stay clean: `folio check` finds nothing in any of them.
struct ExampleStoreCheckTests {
    static let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Data")

    @Test(arguments: ["TimerApp", "OneThing", "ForestFocus", "HealthSync", "Rowing"])
    func everyExampleStoreChecksCleanWithoutNotes(store: String) throws {
        // A copy: opening a store writes its cache in .folio/, and Data/ is never touched.
        let folder = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: Self.data.appendingPathComponent(store).path, toPath: folder(store))
        let run = try FolioTool(folder: folder.path)("check", "--store", store)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.hasSuffix(" checked: 0 errors, 0 notes\n"), "\(run.output)")
        #expect(run.errors.isEmpty)
    }

    @Test func aPropertyNamedLikeAColumnOfTheToolWinsInFields() throws {
        let folder = try TemporaryDirectory()
        try FileManager.default.copyItem(
            atPath: Self.data.appendingPathComponent("OneThing").path, toPath: folder("OneThing"))
        let run = try FolioTool(folder: folder.path)(
            "query", "DayEntry", "day == @2026-10-10", "--fields", "day,path", "--format", "csv", "--store", "OneThing")
        let lines = run.output.split(separator: "\n")
        #expect(lines.first == "day,path")
        // DayEntry's own `day` (midnight in Berlin), not the folder's day the tool would show.
        #expect(lines.last?.hasPrefix("2026-10-09T22:00:00Z,DayEntry/2026/10/10/") == true)
    }
}
