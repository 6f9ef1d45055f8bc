import Folio
import FolioTestSupport
import Foundation
import Testing

@testable import SeedApps

/// OneThing (seed 001): fetch-or-create today's entry, one entry per day, across launches.
struct OneThingStoreTests {
    /// The seed's fetch-or-create, verbatim but for the day passed in (the seed uses `.now`).
    func fetchOrCreateToday(context: ModelContext, now: Date) throws -> DayEntry {
        let today = Calendar.current.startOfDay(for: now)

        let descriptor = FetchDescriptor<DayEntry>(
            predicate: #Predicate { $0.day == today },
            sortBy: []
        )

        if let existing = try context.fetchOnDocuments(descriptor).first {
            return existing
        }

        let entry = DayEntry(day: today)
        context.insert(entry)
        try context.save()
        return entry
    }

    @Test func todaysEntryIsCreatedOnceAndFoundAfterRelaunch() throws {
        let folder = try TemporaryDirectory()
        let configuration = ModelConfiguration(schema: Schema([DayEntry.self]), url: folder.url, durability: .none)
        let morning = Date(timeIntervalSinceReferenceDate: 817_000_000)
        let first: DayEntry
        do {
            let context = ModelContext(
                try ModelContainer(for: Schema([DayEntry.self]), configurations: [configuration]))
            first = try fetchOrCreateToday(context: context, now: morning)
            first.taskText = "Write the release notes"
            try context.save()
            #expect(try fetchOrCreateToday(context: context, now: morning.addingTimeInterval(3600)) === first)
        }
        let context = ModelContext(try ModelContainer(for: Schema([DayEntry.self]), configurations: [configuration]))
        let again = try fetchOrCreateToday(context: context, now: morning.addingTimeInterval(7200))
        #expect(again.id == first.id && again.taskText == "Write the release notes")
        let tomorrow = try fetchOrCreateToday(context: context, now: morning.addingTimeInterval(86_400))
        #expect(tomorrow.id != first.id)
        #expect(try context.fetchCount(FetchDescriptor<DayEntry>()) == 2)
    }
}
