import BenchmarkSupport
import Folio
import Foundation
import Glibc

/// Folio's side: `ModelContainer`, `ModelContext` and the `@Model` classes, as an app
/// written for SwiftData uses them.
struct FolioContender: Contender {
    let name = "Folio"

    func insertAndSave(_ sessions: [SessionValues], in folder: String, durability: DurabilityPair) throws -> Duration {
        let context = ModelContext(try Self.container(FocusSession.self, in: folder, durability: durability))
        sync()
        let time = try ContinuousClock().measure {
            for values in sessions { context.insert(Self.model(values)) }
            try context.save()
        }
        let saved = try context.fetchCount(FetchDescriptor<FocusSession>())
        guard saved == sessions.count, !context.hasChanges else {
            throw BenchmarkFailure("Folio saved \(saved) sessions, not \(sessions.count)")
        }
        return time
    }

    func reopenAndFetchAll(in folder: String) throws -> (time: Duration, fetched: SessionDigest) {
        var sessions: [FocusSession] = []
        let time = try ContinuousClock().measure {
            let context = ModelContext(try Self.container(FocusSession.self, in: folder, durability: .full))
            sessions = try context.fetch(FetchDescriptor<FocusSession>())
        }
        var digest = SessionDigest()
        for session in sessions {
            digest.add(
                id: session.id, startTime: session.startTime, endTime: session.endTime, duration: session.duration)
        }
        return (time, digest)
    }

    func singleSaves(registered: [SessionValues], new: [SessionValues], in folder: String, durability: DurabilityPair)
        throws -> [Duration]
    {
        _ = try insertAndSave(registered, in: folder, durability: durability)
        let context = ModelContext(try Self.container(FocusSession.self, in: folder, durability: durability))
        let fetched = try context.fetch(FetchDescriptor<FocusSession>())
        guard fetched.count == registered.count else {
            throw BenchmarkFailure("Folio fetched \(fetched.count) of \(registered.count) sessions")
        }
        sync()
        let clock = ContinuousClock()
        let times = try new.map { values in
            try clock.measure {
                context.insert(Self.model(values))
                try context.save()
            }
        }
        let saved = try context.fetchCount(FetchDescriptor<FocusSession>())
        guard saved == registered.count + new.count else {
            throw BenchmarkFailure("Folio holds \(saved) sessions after the single saves")
        }
        withExtendedLifetime(fetched) {}
        return times
    }

    func strokeSaves(
        session values: StrokeValues.Session, strokes: [StrokeValues], in folder: String, durability: DurabilityPair
    ) throws -> [Duration] {
        let context = ModelContext(
            try Self.container(RowingSession.self, PerformanceMetric.self, in: folder, durability: durability))
        let session = RowingSession(athleteID: values.athleteID, pm5DeviceID: values.pm5DeviceID)
        session.id = values.id
        session.startTime = values.startTime
        session.createdAt = values.startTime
        session.modifiedAt = values.startTime
        context.insert(session)
        try context.save()
        sync()
        let clock = ContinuousClock()
        // As the seed records strokes: set the values, insert, link to the session, save.
        let times = try strokes.map { stroke in
            try clock.measure {
                let metric = PerformanceMetric(sessionID: session.id, timestamp: stroke.timestamp)
                metric.distance = stroke.distance
                metric.pace = stroke.pace
                metric.strokeRate = stroke.strokeRate
                metric.power = stroke.power
                metric.strokeCount = stroke.strokeCount
                metric.heartRate = stroke.heartRate
                metric.strokePhase = stroke.strokePhase
                metric.driveTime = stroke.driveTime
                metric.recoveryTime = stroke.recoveryTime
                metric.strokeLength = stroke.strokeLength
                metric.peakForce = stroke.peakForce
                metric.averageForce = stroke.averageForce
                metric.workPerStroke = stroke.workPerStroke
                context.insert(metric)
                metric.session = session
                try context.save()
            }
        }
        let reread = ModelContext(
            try Self.container(RowingSession.self, PerformanceMetric.self, in: folder, durability: durability))
        let metrics = try reread.fetch(FetchDescriptor<PerformanceMetric>())
        guard metrics.count == strokes.count, metrics.allSatisfy({ $0.session?.id == values.id }) else {
            throw BenchmarkFailure(
                "Folio stored \(metrics.count) strokes of \(strokes.count), or some without their session")
        }
        return times
    }

    func memoryGrowth(warmUp: String, folder: String) throws -> (afterOpen: HeapUse, afterFetch: HeapUse) {
        do {
            let context = ModelContext(try Self.container(FocusSession.self, in: warmUp, durability: .full))
            _ = try context.fetch(FetchDescriptor<FocusSession>())
        }
        let before = try HeapUse()
        let container = try Self.container(FocusSession.self, in: folder, durability: .full)
        let afterOpen = try HeapUse()
        let context = ModelContext(container)
        let sessions = try context.fetch(FetchDescriptor<FocusSession>())
        let afterFetch = try HeapUse()
        withExtendedLifetime((container, context, sessions)) {}
        return (afterOpen.growth(since: before), afterFetch.growth(since: before))
    }

    /// A container over the store in `folder`/store, made when missing.
    static func container(_ types: any PersistentModel.Type..., in folder: String, durability: DurabilityPair) throws
        -> ModelContainer
    {
        try ModelContainer(
            for: Schema(types),
            configurations: [
                ModelConfiguration(
                    url: URL(filePath: folder + "/store", directoryHint: .isDirectory), durability: durability.folio)
            ])
    }

    private static func model(_ values: SessionValues) -> FocusSession {
        FocusSession(
            id: values.id, startTime: values.startTime, endTime: values.endTime, state: values.state,
            duration: values.duration, pausedDuration: values.pausedDuration, createdAt: values.createdAt)
    }
}
