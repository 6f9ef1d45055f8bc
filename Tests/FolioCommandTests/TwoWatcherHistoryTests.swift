import FolioTestSupport
import Foundation
import Testing

/// Two processes watching one store (an app and `folio watch`, an app and its widget): a
/// change on disk is recorded once, whichever sees it first.
struct TwoWatcherHistoryTests {
    @Test func handEditsSeenByTwoWatchingProcessesAreRecordedOnce() throws {
        let store = try TimerStore()
        let before = try store.folio("history", "--author", "external", "--format", "ndjson").output
        #expect(before.isEmpty)
        var watchers: [Process] = []
        defer { for watcher in watchers where watcher.isRunning { watcher.terminate() } }
        for _ in 0..<2 {
            let watcher = Process()
            watcher.executableURL = URL(fileURLWithPath: FolioTool.path)
            watcher.arguments = ["watch", "Timer"]
            watcher.currentDirectoryURL = URL(fileURLWithPath: store.root)
            watcher.standardOutput = FileHandle.nullDevice
            watcher.standardError = FileHandle.nullDevice
            try watcher.run()
            watchers.append(watcher)
        }
        Thread.sleep(forTimeInterval: 1)  // both watching
        let path = store.root + "/" + (try store.path(of: try store.id(of: "Timer", where: "name == \"Workout\"")))
        for round in 0..<6 {
            // Each edit seen by both at once: their walks race for the write lock.
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let edited = text.replacingOccurrences(
                of: #""durationInSeconds" : [0-9]+|"durationInSeconds": [0-9]+"#,
                with: "\"durationInSeconds\": \(2000 + round)",
                options: .regularExpression)
            try edited.write(toFile: path, atomically: true, encoding: .utf8)
            // Until the edit is recorded (by a watcher, or by this third process), so that a
            // loaded machine cannot merge two edits into one.
            let deadline = Date().addingTimeInterval(30)
            while try externalRecords(store).count <= round, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
            Thread.sleep(forTimeInterval: 0.3)  // both watchers have had their look
        }
        for watcher in watchers { watcher.terminate() }
        let external = try externalRecords(store)
        let tokens = external.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["token"] as? NSNumber
        }
        #expect(external.count == 6, "\(external.count) records for 6 edits:\n\(external.joined(separator: "\n"))")
        #expect(Set(tokens).count == tokens.count)
    }

    func externalRecords(_ store: TimerStore) throws -> [Substring] {
        try store.folio("history", "--author", "external", "--format", "ndjson").output.split(separator: "\n")
    }
}
