import Folio
import Foundation
import Testing

@testable import SeedApps

/// Forest Focus (seed 002) on the seed's own in-memory test container: the state
/// machine in a string, newest completed first, the date range with `endTime ?? startTime`.
struct ForestFocusStoreTests {
    let context: ModelContext

    init() throws {
        // The seed's setUp, verbatim.
        let schema = Schema([FocusSession.self])
        let configuration = ModelConfiguration(isStoredInMemoryOnly: true)
        let container = try ModelContainer(for: schema, configurations: [configuration])
        context = ModelContext(container)
    }

    let day = Date(timeIntervalSinceReferenceDate: 817_000_000)

    func session(_ state: String, startingHour hour: Double, ended: Bool = true) -> FocusSession {
        let start = day.addingTimeInterval(hour * 3600)
        return FocusSession(
            startTime: start, endTime: ended ? start.addingTimeInterval(1500) : nil, state: state,
            duration: ended ? 1500 : 0)
    }

    /// The seed's Query 4.
    func fetchSessions(from startDate: Date, to endDate: Date, context: ModelContext) throws -> [FocusSession] {
        let descriptor = FetchDescriptor<FocusSession>(
            predicate: #Predicate { session in
                session.state == "completed" && session.endTime ?? session.startTime >= startDate
                    && session.endTime ?? session.startTime < endDate
            },
            sortBy: [SortDescriptor(\FocusSession.endTime, order: .reverse)]
        )
        return try context.fetchOnDocuments(descriptor)
    }

    @Test func completedSessionsComeNewestFirst() throws {
        for (state, hour) in [("completed", 1.0), ("abandoned", 2.0), ("completed", 3.0), ("completed", -30.0)] {
            context.insert(session(state, startingHour: hour))
        }
        try context.save()
        let completed = try context.fetchOnDocuments(
            FetchDescriptor<FocusSession>(
                predicate: #Predicate { $0.state == "completed" }, sortBy: [SortDescriptor(\.endTime, order: .reverse)])
        )
        #expect(completed.map(\.startTime) == [3.0, 1.0, -30.0].map { day.addingTimeInterval($0 * 3600) })
        let today = try fetchSessions(from: day, to: day.addingTimeInterval(86_400), context: context)
        #expect(today.count == 2)
        let totalMinutes = today.map(\.duration).reduce(0, +) / 60
        #expect(totalMinutes == 50)
    }

    @Test func atMostOneSessionIsActiveOrPaused() throws {
        context.insert(session("completed", startingHour: 1))
        let running = session("paused", startingHour: 2, ended: false)
        context.insert(running)
        try context.save()
        let current = try context.fetchOnDocuments(
            FetchDescriptor<FocusSession>(
                predicate: #Predicate { session in session.state == "active" || session.state == "paused" }))
        #expect(current.map(\.id) == [running.id])
        running.state = "completed"
        running.endTime = running.startTime.addingTimeInterval(1500)
        try context.save()
        #expect(
            try context.fetchOnDocuments(
                FetchDescriptor<FocusSession>(predicate: #Predicate { $0.state == "active" || $0.state == "paused" })
            ).isEmpty)
    }
}
