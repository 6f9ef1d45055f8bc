import Folio
import FolioTestSupport
import Foundation
import Testing

@testable import SeedApps

/// The example stores committed in `Data/`: the generator rebuilds them byte for byte,
/// and each opens cleanly with the content the README describes. The committed stores
/// are only read; anything that opens a store works on a copy.
struct ExampleDataTests {
    /// The repository's `Data/` folder, found from this file.
    static let dataFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "Data", directoryHint: .isDirectory)

    /// The documents of each store, by entity.
    static let counts: [String: [String: Int]] = [
        "TimerApp": ["Timer": 4, "TodoItem": 7],
        "OneThing": ["DayEntry": 31],
        "ForestFocus": ["FocusSession": 754],
        "HealthSync": ["SyncConfiguration": 1, "PairedDevice": 4, "AuditEventRecord": 271],
        "Rowing": ["Athlete": 1, "PM5Device": 1, "RowingSession": 40, "PerformanceMetric": 714],
    ]

    /// The `ExampleStores` executable built beside the tests.
    static var generatorPath: String {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = testBinary.deletingLastPathComponent()
        // The test binary may be inside a bundle folder (`*.xctest/...`); the executable sits beside the bundle.
        while !FileManager.default.fileExists(atPath: folder.appending(path: "ExampleStores").path), folder.path != "/"
        {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appending(path: "ExampleStores").path
    }

    /// Every file under a folder but Folio's local state (`.folio/`), with its bytes, by
    /// path relative to the folder.
    static func files(under root: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = try #require(FileManager.default.enumerator(atPath: root.path))
        while let relative = enumerator.nextObject() as? String {
            if relative.split(separator: "/").contains(".folio") { continue }
            var isFolder: ObjCBool = false
            let path = root.appending(path: relative).path
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else {
                continue
            }
            files[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
        }
        return files
    }

    /// A copy of a committed store without its local state, to open without touching `Data/`.
    static func copy(of store: String, into folder: TemporaryDirectory) throws -> URL {
        let copy = folder.url.appending(path: store, directoryHint: .isDirectory)
        try FileManager.default.copyItem(at: dataFolder.appending(path: store), to: copy)
        let state = copy.appending(path: ".folio")
        if FileManager.default.fileExists(atPath: state.path) { try FileManager.default.removeItem(at: state) }
        return copy
    }

    @Test func theGeneratorRebuildsTheCommittedStoresByteForByteInAnyTimeZone() throws {
        let folder = try TemporaryDirectory()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.generatorPath)
        process.arguments = [folder.path]
        // A zone none of the stores use (UTC+13:45 in summer): the output must not depend on it.
        process.environment = ProcessInfo.processInfo.environment.merging(["TZ": "Pacific/Chatham"]) { $1 }
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "ExampleStores failed: \(message)")

        let committed = try FileManager.default.contentsOfDirectory(atPath: Self.dataFolder.path).sorted()
        #expect(
            committed == (ExampleData.storeNames + ["README.md"]).sorted(),
            "Data/ holds the five stores and its README, nothing else")
        for store in ExampleData.storeNames {
            let expected = try Self.files(under: Self.dataFolder.appending(path: store))
            let generated = try Self.files(under: folder.url.appending(path: store))
            let missing = Set(expected.keys).subtracting(generated.keys).sorted()
            let extra = Set(generated.keys).subtracting(expected.keys).sorted()
            let differing = expected.keys.filter { generated[$0] != nil && generated[$0] != expected[$0] }.sorted()
            #expect(missing.isEmpty, "\(store): committed but not generated: \(missing.prefix(5))")
            #expect(extra.isEmpty, "\(store): generated but not committed: \(extra.prefix(5))")
            #expect(
                differing.isEmpty,
                "\(store): \(differing.count) file(s) differ, such as \(differing.prefix(5)); run scripts/make-example-data.sh"
            )
            #expect(expected.keys.contains("folio.json") && expected.keys.contains(".gitignore"))
        }
    }

    @Test(arguments: ExampleData.storeNames)
    func eachCommittedStoreOpensWithoutIssuesAndHoldsTheDocumentedCounts(_ name: String) throws {
        let folder = try TemporaryDirectory()
        let store = try DocumentStore.open(at: try Self.copy(of: name, into: folder).path)
        #expect(store.issues.isEmpty, "\(store.issues)")
        #expect(store.documentCounts.filter { $0.value > 0 } == Self.counts[name])
        #expect(store.manifest.timeZone.identifier == "Europe/Berlin")
        #expect(
            store.manifest.schemaVersion == "1.0.0", "TimerApp is at the seed's V1, for Migrations/TimerApp to migrate")
    }

    @Test func theTimerStoreShowsTheSeedsSampleTimersWithOneStillToDo() throws {
        let folder = try TemporaryDirectory()
        let context = ModelContext(
            try ModelContainer(
                for: Timer.self, TodoItem.self,
                configurations: ModelConfiguration(url: try Self.copy(of: "TimerApp", into: folder))))
        let timers = try context.fetch(FetchDescriptor<Timer>(sortBy: [SortDescriptor(\.createdAt)]))
        #expect(timers.map(\.name) == Timer.sampleData.map(\.name))
        #expect(timers.map(\.durationInSeconds) == [1500, 2700, 600, 1200])
        #expect(timers.map { $0.todoItems.count } == [5, 2, 0, 0])
        let open = try context.fetchOnDocuments(
            FetchDescriptor<Timer>(
                predicate: #Predicate<Timer> { timer in
                    timer.todoItems.contains { !$0.isCompleted }
                }))
        #expect(open.map(\.name) == ["Workout"])
    }

    @Test func theFocusStoreHasAYearOfSessionsAndOneActive() throws {
        let folder = try TemporaryDirectory()
        let context = ModelContext(
            try ModelContainer(
                for: FocusSession.self,
                configurations: ModelConfiguration(url: try Self.copy(of: "ForestFocus", into: folder))))
        let current = try context.fetchOnDocuments(
            FetchDescriptor<FocusSession>(
                predicate: #Predicate<FocusSession> { session in
                    session.state == "active" || session.state == "paused"
                }))
        #expect(current.count == 1 && current.first?.endTime == nil)
        let sessions = try context.fetch(FetchDescriptor<FocusSession>(sortBy: [SortDescriptor(\.startTime)]))
        #expect(sessions.allSatisfy { $0.sessionState != nil && $0.duration <= 1500 && $0.pausedDuration >= 0 })
        #expect(sessions.filter { $0.state == "completed" }.allSatisfy { $0.duration == 1500 && $0.endTime != nil })
        #expect(sessions.first.map { ExampleClock.calendar.component(.month, from: $0.startTime) } == 11)
        #expect(sessions.last === current.first)
    }

    @Test func theOneThingStoreHasOneEntryForEachDayOfOctober() throws {
        let folder = try TemporaryDirectory()
        let context = ModelContext(
            try ModelContainer(
                for: DayEntry.self, configurations: ModelConfiguration(url: try Self.copy(of: "OneThing", into: folder))
            ))
        let entries = try context.fetch(FetchDescriptor<DayEntry>(sortBy: [SortDescriptor(\.day)]))
        #expect(entries.map(\.day) == (0..<31).map { ExampleClock.day($0, after: ExampleClock.date(2026, 10, 1)) })
        #expect(
            entries.filter { $0.startedAt != nil }.map(\.day) == [ExampleClock.date(2026, 10, 31)],
            "only today's timer runs")
    }

    @Test func theRowingStoreRelatesTheAthletesSessionsAndTheirMetrics() throws {
        let folder = try TemporaryDirectory()
        let context = ModelContext(
            try ModelContainer(
                for: Athlete.self, PM5Device.self,
                configurations: ModelConfiguration(url: try Self.copy(of: "Rowing", into: folder))))
        let athlete = try #require(try context.fetch(FetchDescriptor<Athlete>()).first)
        #expect(athlete.sessions.count == 40 && athlete.profileImageData?.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        let device = try #require(try context.fetch(FetchDescriptor<PM5Device>()).first)
        #expect(Set(device.sessions.map(\.id)) == Set(athlete.sessions.map(\.id)))
        let last = try #require(athlete.sessions.max { $0.startTime < $1.startTime })
        #expect(
            last.sessionType == .test && last.metrics.count == 242
                && last.metrics.allSatisfy { $0.sessionID == last.id })
        #expect(athlete.sessions.allSatisfy { $0.isComplete && !$0.metrics.isEmpty })
    }

    @Test func theHealthSyncStoreHasItsSingletonAndItsDevices() throws {
        let folder = try TemporaryDirectory()
        let context = ModelContext(try HealthSyncExample.container(at: try Self.copy(of: "HealthSync", into: folder)))
        let configurations = try context.fetch(FetchDescriptor<SyncConfiguration>())
        #expect(configurations.count == 1 && configurations.first?.enabledTypes == [.steps, .heartRate, .sleep])
        let active = try context.fetchOnDocuments(
            FetchDescriptor<PairedDevice>(predicate: #Predicate { $0.isActive == true }))
        #expect(active.count == 3)
        let newest = try context.fetch(
            FetchDescriptor<AuditEventRecord>(sortBy: [SortDescriptor(\.timestamp, order: .reverse)], fetchLimit: 10))
        #expect(newest.count == 10 && newest.allSatisfy { $0.detailJSON.hasPrefix("{") })
    }
}
