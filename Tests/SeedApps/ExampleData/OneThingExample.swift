import Folio
import Foundation

/// `Data/OneThing`: October 2026, one `DayEntry` a day, made by the seed's fetch-or-create
/// "today" each morning.
///
/// Most days the one thing was done (timer run, then completed); some days it was left
/// unfinished, one Sunday the app was opened and nothing written, and on the last day the
/// timer is still running (`startedAt` set). Days are midnights in Europe/Berlin, so the
/// entries after the 25th (the end of summer time) sit an hour later in UTC.
enum OneThingExample {
    /// What the one thing was, day by day; empty where nothing was written.
    static let tasks = [
        "Draft the quarterly report outline", "Call the landlord about the heating",
        "Finish chapter 4 of the Swift book",
        "", "Fix the flaky login test", "Plan next week's meals", "Write the migration guide intro",
        "Review Jonas's pull request", "Renew the passport", "Clean up the photo library",
        "Sketch the onboarding screens",
        "Prepare the team retro", "Bike repair: new brake pads", "Reply to the conference CFP",
        "Refactor the sync engine",
        "Book dentist appointment", "Write 500 words of the blog post", "Back up the laptop",
        "Read the SwiftData WWDC notes",
        "Sort out travel expenses", "Ship the settings screen", "Tidy the garage", "Draft the hiring rubric",
        "Pay the electricity bill", "Prototype the widget", "Call grandma", "Benchmark the JSON parser",
        "Update the CV",
        "Write tests for the importer", "Plan the weekend hike", "Outline the November goals",
    ]

    static func write(to folder: URL) throws {
        try writeEntries(to: folder)
        // The app keeps one entry per day in its own code (fetch-or-create); recorded as a
        // rule, it lets `folio check` catch two devices' "today" after a git merge.
        let store = try DocumentStore.open(at: folder.path, durability: .none)
        var manifest = store.manifest
        manifest.rules = StoreRules(unique: ["DayEntry": [["day"]]])
        try store.commit([], manifest: manifest)
        try store.close()
    }

    private static func writeEntries(to folder: URL) throws {
        var random = ExampleRandom(seed: 0x0000_0002)
        let container = try ModelContainer(for: DayEntry.self, configurations: ExampleData.configuration(folder))
        let context = ModelContext(container)
        for (index, task) in tasks.enumerated() {
            let morning = ExampleClock.date(2026, 10, 1 + index, 7, random.int(5...55), random.int(0...59))
            let entry = try fetchOrCreateToday(context: context, now: morning, id: random.uuid())
            guard !task.isEmpty else { continue }
            entry.taskText = task
            entry.updatedAt = ExampleClock.seconds(random.int(20...90), after: morning)
            try context.save()

            // Work in one to three stretches of the timer.
            var clock = ExampleClock.seconds(random.int(1800...7200), after: entry.updatedAt)
            let stretches = random.int(1...3)
            let isLastDay = index == tasks.count - 1
            for stretch in 1...stretches {
                entry.startedAt = clock
                entry.updatedAt = clock
                if isLastDay && stretch == stretches {
                    break  // still running when the example ends
                }
                let worked = 60 * random.int(10...70)
                clock = ExampleClock.seconds(worked, after: clock)
                entry.elapsedSeconds += worked
                entry.startedAt = nil
                entry.updatedAt = clock
                clock = ExampleClock.seconds(random.int(1200...5400), after: clock)
            }
            if !isLastDay && random.chance(0.82) {
                entry.completedAt = entry.updatedAt
            }
            try context.save()
        }
    }

    /// The seed's fetch-or-create "today" (section 4), at a given moment, with a given
    /// identity for a new entry.
    static func fetchOrCreateToday(context: ModelContext, now: Date, id: UUID) throws -> DayEntry {
        let today = ExampleClock.calendar.startOfDay(for: now)

        let descriptor = FetchDescriptor<DayEntry>(
            predicate: #Predicate { $0.day == today },
            sortBy: []
        )

        if let existing = try context.fetch(descriptor).first {
            return existing
        }

        let entry = DayEntry(id: id, day: today, createdAt: now, updatedAt: now)
        context.insert(entry)
        try context.save()
        return entry
    }
}
