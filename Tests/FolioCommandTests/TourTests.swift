import FolioTestSupport
import Foundation
import Testing

/// `folio tour`, the main job: every step runs on a copy of Data/ and does what it says.
struct TourTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test func theTourRunsEveryStepOnACopyAndLeavesDataAsItWas() throws {
        let before = try String(contentsOfFile: Self.repository + "/Data/TimerApp/folio.json", encoding: .utf8)
        // A tour killed earlier left its copy, naming a process that has ended since.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        let ended = process.processIdentifier
        let abandoned = FileManager.default.temporaryDirectory.appending(path: "folio-tour-abandoned\(ended)").path
        try FileManager.default.createDirectory(atPath: abandoned + "/Data", withIntermediateDirectories: true)
        try String(ended).write(toFile: abandoned + "/.tour-process", atomically: false, encoding: .utf8)
        let tour = try FolioTool(folder: Self.repository)("tour", "--data", "Data", "--migrations", "Migrations")
        #expect(tour.status == 0, "\(tour.errors)")
        let output = tour.output
        // The steps that fail on purpose are the only ones: the hand edit's check and the conflicted sync.
        let exits = output.split(separator: "\n").filter { $0.hasPrefix("(exit code") && $0.hasSuffix(")") }
        #expect(exits == ["(exit code 1)", "(exit code 1)"], "\(output)")
        #expect(output.contains("Saved TodoItem/"))
        #expect(output.contains("Buy green tea  false"))
        #expect(output.contains("Migrated 1.0.0 → 2.0.0:"))
        #expect(output.components(separatedBy: "Pushed; the store is in sync").count - 1 == 4)
        #expect(output.contains("\"$conflicts\": {"))
        #expect(output.contains("bob/Timers $ folio resolve"))
        #expect(output.contains("conflicts settled"))
        #expect(output.contains("Morning workout  Stretch first  1800"))
        // The past, read back: the record's history, a diff since the first commit, a value restored.
        #expect(output.contains("changed (merge)"), "\(output.suffix(3000))")
        let restored = output.split(separator: "\n").first { $0.hasPrefix("name ") && $0.hasSuffix(" Workout") }
        #expect(restored?.contains("Morning workout") == true, "\(output.suffix(3000))")
        #expect(output.contains("restored as first"), "\(output.suffix(3000))")
        // The narration is filled to 80 columns off a terminal.
        let closing = output.split(separator: "\n").first { $0.hasPrefix("That is Folio:") } ?? ""
        #expect(!closing.isEmpty && closing.count <= 80, "\(closing)")
        // A paragraph written across source lines is filled as one, not broken where the source was.
        #expect(output.contains("runs the folio tool"), "\(output.prefix(600))")
        // The clones' driver is the tour's own copy of the tool, never the build folder's binary.
        #expect(output.contains("/bin/folio\n"), "\(output)")
        // It ends with the line that puts the tool on PATH, or says it is there.
        let last = output.split(separator: "\n").suffix(2).joined(separator: "\n")
        #expect(last.contains("install -m 755 ") || last.contains("is the one on your PATH"), "\(last)")
        #expect(try String(contentsOfFile: Self.repository + "/Data/TimerApp/folio.json", encoding: .utf8) == before)
        #expect(!FileManager.default.fileExists(atPath: abandoned), "the abandoned copy is removed")
    }
}
