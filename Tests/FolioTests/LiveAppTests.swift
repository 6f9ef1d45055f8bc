import Folio
import FolioTestSupport
import Foundation
import Testing

@testable import FolioCore

/// Forest Focus's session, as `StoreWorkload session-inserter` writes it from another process.
@Model final class FocusSession {
    var id: UUID
    var startTime: Date
    var state: String
    var duration: TimeInterval

    init(id: UUID = UUID(), startTime: Date, state: String = "active", duration: TimeInterval = 0) {
        self.id = id
        self.startTime = startTime
        self.state = state
        self.duration = duration
    }
}

/// An app keeps a live list of sessions while another process saves, a person edits a file,
/// and `git pull` brings another clone's commit: the list and the history follow, in order.
@MainActor struct LiveAppTests {
    let gitEnvironment: [String: String] = {
        var environment = ProcessInfo.processInfo.environment
        environment.merge([
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_AUTHOR_NAME": "Tester",
            "GIT_AUTHOR_EMAIL": "tester@example.invalid", "GIT_COMMITTER_NAME": "Tester",
            "GIT_COMMITTER_EMAIL": "tester@example.invalid",
        ]) { $1 }
        return environment
    }()

    @discardableResult
    func git(_ arguments: String..., in folder: String) throws -> ProcessRun {
        let run = try ProcessRun("/usr/bin/env", ["git"] + arguments, in: folder, environment: gitEnvironment)
        #expect(run.status == 0, "git \(arguments.joined(separator: " ")): \(run.errors)")
        return run
    }

    @Test func aLiveListFollowsAnotherProcessAHandEditAndAPullAndTheHistorySaysSoInOrder() async throws {
        let folder = try TemporaryDirectory()
        let laptop = folder("laptop")
        try FileManager.default.createDirectory(atPath: laptop, withIntermediateDirectories: true)
        try git("init", "-q", "--initial-branch=main", in: laptop)

        var configuration = ModelConfiguration(url: URL(fileURLWithPath: laptop + "/Sessions"), durability: .none)
        configuration.timeZone = TimeZone(identifier: "UTC")
        let container = try ModelContainer(for: FocusSession.self, configurations: configuration)
        let app = ModelContext(container)
        app.author = "app"
        let morning = FocusSession(startTime: Date(timeIntervalSinceReferenceDate: 814_000_000))
        app.insert(morning)
        try app.save()
        try git("add", "-A", in: laptop)
        try git("commit", "-q", "-m", "first session", in: laptop)

        // Another clone adds a session and commits it.
        try git("clone", "-q", laptop, folder("phone"), in: folder.path)
        do {
            var phoneConfiguration = ModelConfiguration(
                url: URL(fileURLWithPath: folder("phone") + "/Sessions"), durability: .none)
            phoneConfiguration.watchesFiles = false
            let phone = ModelContext(try ModelContainer(for: FocusSession.self, configurations: phoneConfiguration))
            phone.author = "phone"
            phone.insert(FocusSession(startTime: Date(timeIntervalSinceReferenceDate: 816_000_000), state: "completed"))
            try phone.save()
            try git("add", "-A", in: folder("phone"))
            try git("commit", "-q", "-m", "a session on the phone", in: folder("phone"))
        }

        let sessions = try ResultsObserver(
            fetchDescriptor: FetchDescriptor<FocusSession>(sortBy: [SortDescriptor(\.startTime)]), modelContext: app)
        #expect(sessions.results.count == 1)

        // Another process saves two sessions.
        let other = try ChildProcess(["session-inserter", laptop + "/Sessions", "2"])
        let otherProcess = String(other.process.processIdentifier)
        let finished = other.finish()
        #expect(finished.status == 0, "\(finished.errors)")
        #expect(await eventually { sessions.results.count == 3 })

        // A person edits the first session's file.
        let file = try #require(
            FileManager.default.enumerator(atPath: laptop + "/Sessions/FocusSession")?.allObjects
                .compactMap { $0 as? String }.first { $0.hasSuffix(morning.id.uuidString + ".json") })
        let path = laptop + "/Sessions/FocusSession/" + file
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "\"active\"", with: "\"paused\"").write(
            toFile: path, atomically: true, encoding: .utf8)
        #expect(await eventually { morning.state == "paused" && sessions.lastChange.updated == [0] })

        // git pull brings the phone's session.
        try git("pull", "-q", "--no-rebase", folder("phone"), "main", in: laptop)
        #expect(await eventually { sessions.results.count == 4 })
        #expect(sessions.results.map(\.state) == ["paused", "active", "active", "completed"])

        // The history, in order: the app's save, the other process's two, the edit, the pull.
        let history = try app.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(history.map(\.author) == ["app", "other-app", "other-app", "external", "external"])
        // Each transaction names the program that wrote it; what was found on disk, none.
        let thisProgram = Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
        #expect(history.map(\.bundleIdentifier) == [thisProgram, "StoreWorkload", "StoreWorkload", "", ""])
        let thisProcess = String(ProcessInfo.processInfo.processIdentifier)
        #expect(history.map(\.processIdentifier) == [thisProcess, otherProcess, otherProcess, "", ""])
        guard history.count == 5 else { return }
        guard case .update(let edit as DefaultHistoryUpdate<FocusSession>) = history[3].changes.first else {
            Issue.record("the hand edit is not an update: \(history[3].changes)")
            return
        }
        #expect(edit.changedPersistentIdentifier == morning.persistentModelID)
        #expect(edit.updatedAttributes.map { $0 as AnyKeyPath } == [\FocusSession.state as AnyKeyPath])
        guard case .insert = history[4].changes.first else {
            Issue.record("the pulled session is not an insert: \(history[4].changes)")
            return
        }
        #expect(history[4].changes.count == 1)
    }
}
