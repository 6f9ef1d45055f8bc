import Folio
import Foundation

/// `Data/ForestFocus`: a year of focus sessions, 1 November 2025 to 31 October 2026, as
/// the seed's state machine leaves them.
///
/// Weekdays hold up to five 25-minute sessions, weekends fewer, and two weeks of August
/// none (a holiday, which breaks the streak). About one session in seven was abandoned
/// early; some were paused on the way. Every finished session is `completed` (duration
/// 1500 s) or `abandoned` (less), with its `endTime`; the very last one, on the evening
/// of 31 October, is still `active`, the only one, as the seed requires.
enum ForestFocusExample {
    static let firstDay = ExampleClock.date(2025, 11, 1)
    static let days = 365
    /// The holiday: no sessions from the first of these days to the last.
    static let holiday = ExampleClock.date(2026, 8, 3)...ExampleClock.date(2026, 8, 16, 23, 59)

    static func write(to folder: URL) throws {
        var random = ExampleRandom(seed: 0x0000_0003)
        let context = ModelContext(
            try ModelContainer(for: FocusSession.self, configurations: ExampleData.configuration(folder)))
        for dayIndex in 0..<days {
            let day = ExampleClock.day(dayIndex, after: firstDay)
            guard !holiday.contains(day) else { continue }
            let weekend = ExampleClock.isWeekend(day)
            let count = weekend ? random.pick([0, 0, 1, 1, 2]) : random.pick([0, 1, 2, 2, 3, 3, 3, 4, 5])
            // The first session of the day starts between 8:00 and 10:00 (weekends 9:30 to 11:30).
            var clock = ExampleClock.seconds(60 * (weekend ? random.int(570...690) : random.int(480...600)), after: day)
            for _ in 0..<count {
                let session = FocusSession(
                    id: random.uuid(), startTime: clock, state: SessionState.active.rawValue, createdAt: clock)
                context.insert(session)
                finish(session, random: &random)
                try context.save()
                // A break, often a long one (meetings, lunch) before the next.
                clock = ExampleClock.seconds(
                    60 * random.pick([5, 5, 10, 15, 30, 45, 60, 90, 120]), after: session.endTime!)
            }
        }
        // The session under way when the example ends: planted, not finished.
        let evening = ExampleClock.date(2026, 10, 31, 20, 12, 41)
        context.insert(
            FocusSession(id: random.uuid(), startTime: evening, state: SessionState.active.rawValue, createdAt: evening)
        )
        try context.save()
    }

    /// Runs an active session to its end: pauses on the way, then completed at 25 minutes
    /// of focus or abandoned before.
    static func finish(_ session: FocusSession, random: inout ExampleRandom) {
        let pauses = random.pick([0, 0, 0, 0, 1, 1, 2])
        session.pausedDuration = TimeInterval((0..<pauses).reduce(0) { total, _ in total + random.int(20...400) })
        if random.chance(0.86) {
            session.state = SessionState.completed.rawValue
            session.duration = 1500.0  // 25 minutes
        } else {
            session.state = SessionState.abandoned.rawValue
            session.duration = TimeInterval(random.int(45...1440))
        }
        session.endTime = ExampleClock.seconds(Int(session.duration + session.pausedDuration), after: session.startTime)
    }
}
