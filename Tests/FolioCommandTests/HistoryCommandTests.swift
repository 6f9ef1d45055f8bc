import FolioTestSupport
import Foundation
import Testing

/// `folio history` and `folio watch`: the store's transactions, and changes as they happen.
struct HistoryCommandTests {
    /// Edits the file of the document a query selects, as a person would: text replaced, saved.
    func handEdit(_ store: TimerStore, _ entity: String, where query: String, replacing old: String, with new: String)
        throws
    {
        let path =
            try store.folio("query", entity, query, "--fields", "path", "--format", "csv").output
            .split(separator: "\n").last.map(String.init) ?? ""
        let file = store.root + "/" + path
        let text = try String(contentsOfFile: file, encoding: .utf8)
        try text.replacingOccurrences(of: old, with: new).write(toFile: file, atomically: true, encoding: .utf8)
    }

    @Test func historyListsEachChangeWithItsTokenAndAuthorAndFiltersThem() throws {
        let store = try TimerStore()
        let before = try store.folio("history", "--format", "ndjson")
        let seeded = before.output.split(separator: "\n").count
        #expect(before.status == 0 && seeded > 0, "the store's setup was written by the tool")
        let id = try store.id(of: "Timer", where: "name == \"Workout\"")
        #expect(try store.folio("set", "Timer", "name == \"Workout\"", "durationInSeconds=99").status == 0)
        let lines = try store.folio("history", "--format", "ndjson").output.split(separator: "\n")
        #expect(lines.count == seeded + 1)
        let last = try #require(lines.last.map { String($0) })
        #expect(last.contains("\"author\":\"folio\""))
        #expect(last.contains("\"change\":\"update\""))
        #expect(last.contains("\"id\":\"\(id)\""))
        #expect(last.contains("\"attributes\":[\"durationInSeconds\"]"))

        let token = try #require(last.split(separator: ",").first?.split(separator: ":").last.flatMap { Int($0) })
        #expect(
            try store.folio("history", "--since", "\(token)").output.split(separator: "\n").count == 1, "a header only")
        #expect(try store.folio("history", "--author", "external", "--format", "ndjson").output.isEmpty)
        #expect(
            try store.folio("history", "--entity", "TodoItem", "--format", "ndjson").output.split(separator: "\n")
                .allSatisfy { $0.contains("\"entity\":\"TodoItem\"") })
    }

    @Test func aHandEditIsRecordedAsExternalByTheNextCommand() throws {
        let store = try TimerStore()
        try handEdit(store, "Timer", where: "name == \"Coffee Break\"", replacing: "Coffee Break", with: "Tea Break")
        let external = try store.folio("history", "--author", "external", "--format", "ndjson")
        #expect(external.status == 0)
        #expect(external.output.contains("\"change\":\"update\""))
        #expect(external.output.contains("\"attributes\":[\"name\"]"))
    }

    @Test func watchPrintsChangesFromOtherCommandsAndHandEditsAsTheyHappen() throws {
        let store = try TimerStore()
        let watch = Process()
        watch.executableURL = URL(fileURLWithPath: FolioTool.path)
        watch.arguments = ["watch", "Timer", "durationInSeconds > 100", "--limit", "3"]
        watch.currentDirectoryURL = URL(fileURLWithPath: store.root)
        let output = Pipe()
        watch.standardOutput = output
        try watch.run()
        defer { if watch.isRunning { watch.terminate() } }
        Thread.sleep(forTimeInterval: 0.5)  // let it start watching; a change before that is not a failure, only missed

        #expect(
            try store.folio("insert", "Timer", "name=Long", "durationInSeconds=600", "createdAt=2026-11-05T10:00:00Z")
                .status == 0)
        #expect(
            try store.folio("insert", "Timer", "name=Short", "durationInSeconds=5", "createdAt=2026-11-05T10:00:00Z")
                .status == 0, "does not match: no line")
        Thread.sleep(forTimeInterval: 0.3)
        try handEdit(store, "Timer", where: "name == \"Long\"", replacing: "\"Long\"", with: "\"Longer\"")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(try store.folio("set", "Timer", "name == \"Longer\"", "durationInSeconds=60").status == 0)

        let deadline = Date().addingTimeInterval(10)
        while watch.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!watch.isRunning, "stopped after three changes")
        let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: "\n")
        #expect(lines.count == 3)
        guard lines.count == 3 else { return }
        #expect(lines[0].contains("\"change\":\"insert\"") && lines[0].contains("\"author\":\"folio\""))
        #expect(lines[1].contains("\"change\":\"update\"") && lines[1].contains("\"author\":\"external\""))
        #expect(lines[1].contains("\"name\":\"Longer\""))
        #expect(lines[2].contains("\"change\":\"delete\""), "no longer matches")
        #expect(lines[2].contains("\"file\":\"Timer/2026/11/05/"), "a delete names its file too: \(lines[2])")
    }
}
