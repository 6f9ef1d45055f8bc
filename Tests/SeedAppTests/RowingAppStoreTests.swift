import Folio
import FolioTestSupport
import Foundation
import Testing

@testable import SeedApps

/// Records strokes off the main actor, with a context of its own.
@ModelActor
actor StrokeRecorder {
    func record(strokes: Int, sessionID: UUID) throws -> Int {
        for stroke in 0..<strokes {
            let metric = PerformanceMetric(sessionID: sessionID)
            metric.strokeCount = stroke + 1
            modelContext.insert(metric)
            try modelContext.save()
        }
        return try modelContext.fetchCount(FetchDescriptor<PerformanceMetric>())
    }
}

/// The Rowing app (seed 004) end to end: enums and optional enums, `Data`, UUID foreign
/// keys beside relationships, one save per stroke, background contexts.
struct RowingAppStoreTests {
    func container(at folder: TemporaryDirectory) throws -> ModelContainer {
        try ModelContainer(
            for: Athlete.self, PM5Device.self, configurations: ModelConfiguration(url: folder.url, durability: .none))
    }

    func text(of entity: String, _ id: UUID, in folder: TemporaryDirectory) throws -> String {
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder(entity)))
        let file = try #require(enumerator.compactMap { $0 as? String }.first { $0.hasSuffix(id.uuidString + ".json") })
        return try String(contentsOfFile: folder(entity + "/" + file), encoding: .utf8)
    }

    @Test func enumsOptionalEnumsAndDataAreStoredAndReadBack() throws {
        let folder = try TemporaryDirectory()
        let athlete = Athlete(name: "John Doe", email: "john@icloud.com", userRole: .coach)
        do {
            let context = ModelContext(try container(at: folder))
            context.insert(athlete)
            #expect(
                athlete.preferredBoat == nil && athlete.weight == nil,
                "optionals the initializer leaves unset start at nil")
            try context.save()
            athlete.weight = 75.0
            athlete.preferredBoat = .single
            athlete.profileImageData = Data([0, 1, 2, 254, 255])
            try context.save()
        }
        let document = try text(of: "Athlete", athlete.id, in: folder)
        #expect(document.contains("\"userRole\": \"coach\""))
        #expect(document.contains("\"preferredBoat\": \"Single\""), "enums are stored by raw value")
        #expect(document.contains("\"profileImageData\": \"AAEC/v8=\""), "Data is inline base64")

        let context = ModelContext(try container(at: folder))
        let reread = try #require(try context.fetch(FetchDescriptor<Athlete>()).first)
        #expect(reread.userRole == .coach && reread.preferredBoat == .single && reread.weight == 75.0)
        #expect(reread.profileImageData == Data([0, 1, 2, 254, 255]) && reread.teamID == nil)
    }

    @Test func oneSavePerStrokeBuildsTheSessionAndItsForeignKeysQueryIt() throws {
        let folder = try TemporaryDirectory()
        let athlete = Athlete(name: "John Doe", email: "john@icloud.com")
        let session = RowingSession(athleteID: athlete.id, pm5DeviceID: "PM5-12345")
        let start = Date(timeIntervalSinceReferenceDate: 817_000_000)
        do {
            let context = ModelContext(try container(at: folder))
            context.insert(athlete)
            try context.save()
            context.insert(session)
            session.athlete = athlete
            try context.save()
            for stroke in 0..<40 {
                let metric = PerformanceMetric(
                    sessionID: session.id, timestamp: start.addingTimeInterval(Double(stroke) * 2.5))
                metric.power = 150.0 + Double(stroke)
                metric.strokeRate = 24
                metric.strokeCount = stroke + 1
                metric.strokePhase = stroke % 2 == 0 ? .drive : .recovery
                metric.heartRate = stroke % 3 == 0 ? nil : 140 + stroke
                context.insert(metric)
                metric.session = session
                try context.save()  // frequent saves for real-time data, as the seed does
            }
            session.isComplete = true
            session.endTime = start.addingTimeInterval(100)
            try context.save()
        }
        let context = ModelContext(try container(at: folder))
        let sessionID = session.id
        let metrics = try context.fetchOnDocuments(
            FetchDescriptor<PerformanceMetric>(
                predicate: #Predicate { metric in metric.sessionID == sessionID }, sortBy: [SortDescriptor(\.timestamp)]
            ))
        #expect(metrics.count == 40)
        #expect(metrics.map(\.strokeCount) == Array(1...40))
        #expect(
            metrics[0].strokePhase == .drive && metrics[1].strokePhase == .recovery && metrics[0].heartRate == nil
                && metrics[1].heartRate == 141)

        let athleteID = athlete.id
        let recent = try context.fetchOnDocuments(
            FetchDescriptor<RowingSession>(
                predicate: #Predicate { session in session.athleteID == athleteID && session.isComplete },
                sortBy: [SortDescriptor(\.startTime, order: .reverse)]))
        let reread = try #require(recent.first)
        #expect(reread.metrics.count == 40, "the relationship is the documents pointing back")
        #expect(reread.athlete?.name == "John Doe")
        let averagePower = reread.metrics.map(\.power).reduce(0, +) / Double(reread.metrics.count)
        #expect(averagePower == 169.5)
    }

    @Test func deletingAnAthleteCascadesThroughSessionsToMetrics() throws {
        let context = ModelContext(
            try ModelContainer(for: Athlete.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let athlete = Athlete(name: "John Doe", email: "john@icloud.com")
        context.insert(athlete)
        let session = RowingSession(athleteID: athlete.id, pm5DeviceID: "PM5-1")
        athlete.sessions.append(session)
        session.metrics = [PerformanceMetric(sessionID: session.id), PerformanceMetric(sessionID: session.id)]
        try context.save()
        #expect(
            try context.fetchCount(FetchDescriptor<PerformanceMetric>()) == 2,
            "newly related models are inserted with their owner")
        context.delete(athlete)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<RowingSession>()) == 0)
        #expect(try context.fetchCount(FetchDescriptor<PerformanceMetric>()) == 0)
    }

    @Test func aToManyWithoutInverseIsStoredAsSortedIdentities() throws {
        let folder = try TemporaryDirectory()
        let device = PM5Device(serialNumber: "430000001", hardwareVersion: "1", firmwareVersion: "170")
        let sessions = (0..<3).map { _ in RowingSession(athleteID: UUID(), pm5DeviceID: "430000001") }
        do {
            let context = ModelContext(try container(at: folder))
            context.insert(device)
            device.sessions = sessions
            try context.save()
        }
        let sorted = sessions.map(\.id.uuidString).sorted()
        let document = try text(of: "PM5Device", device.id, in: folder)
        #expect(document.contains("\"sessions\": [\n    \"" + sorted.joined(separator: "\",\n    \"") + "\"\n  ]"))
        let context = ModelContext(try container(at: folder))
        let reread = try #require(try context.fetch(FetchDescriptor<PM5Device>()).first)
        #expect(Set(reread.sessions.map(\.id)) == Set(sessions.map(\.id)))
    }

    @Test func aBackgroundContextSavesWhatTheMainContextThenFetches() async throws {
        let folder = try TemporaryDirectory()
        let container = try container(at: folder)
        let identifier = try await Task.detached {
            let context = ModelContext(container)
            let athlete = Athlete(name: "Background", email: "bg@example.com")
            context.insert(athlete)
            try context.save()
            return athlete.persistentModelID
        }.value
        let context = ModelContext(container)
        let athlete = try #require(context.model(for: identifier) as? Athlete)
        #expect(athlete.name == "Background")
    }

    @Test func aModelActorSavesStrokesOffTheMainActor() async throws {
        let folder = try TemporaryDirectory()
        let container = try container(at: folder)
        let recorder = StrokeRecorder(modelContainer: container)
        let sessionID = UUID()
        #expect(try await recorder.record(strokes: 12, sessionID: sessionID) == 12)
        let metrics = try ModelContext(container).fetchOnDocuments(
            FetchDescriptor<PerformanceMetric>(predicate: #Predicate { $0.sessionID == sessionID }))
        #expect(metrics.count == 12)
    }
}
