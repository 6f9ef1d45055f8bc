import Folio
import Foundation

// The Timer app's sample data (seed 000, "Sample Data"), as the seed writes it.
extension Timer {
    static var sampleData: [Timer] {
        [
            Timer(
                name: "Workout",
                durationInSeconds: 1500,  // 25 min
                icon: "figure.run",
                colorHex: "#FF3B30",
                notes: "Remember to hydrate!"
            ),
            Timer(
                name: "Study Session",
                durationInSeconds: 2700,  // 45 min
                icon: "book.fill",
                colorHex: "#007AFF"
            ),
            Timer(
                name: "Coffee Break",
                durationInSeconds: 600,  // 10 min
                icon: "cup.and.saucer.fill",
                colorHex: "#8E8E93"
            ),
            Timer(
                name: "Meditation",
                durationInSeconds: 1200,  // 20 min
                icon: "sparkles",
                colorHex: "#5856D6",
                notes: "Focus on breathing"
            ),
        ]
    }
}

extension TodoItem {
    static func sampleData(for timer: Timer) -> [TodoItem] {
        switch timer.name {
        case "Workout":
            return [
                TodoItem(text: "Warm up 5 minutes", sortOrder: 0),
                TodoItem(text: "20 push-ups", sortOrder: 1),
                TodoItem(text: "30 squats", sortOrder: 2),
                TodoItem(text: "Plank 1 minute", sortOrder: 3),
                TodoItem(text: "Cool down stretch", sortOrder: 4),
            ]
        case "Study Session":
            return [
                TodoItem(text: "Review chapter 3", sortOrder: 0),
                TodoItem(text: "Complete practice problems", sortOrder: 1),
            ]
        default:
            return []
        }
    }
}

/// `Data/TimerApp`: the seed's four sample timers and seven to-dos, at schema 1.0.0 (the
/// seed's V1, before `category` and the `colorHex` rename), so that `Migrations/TimerApp`
/// has a store to migrate.
///
/// The timers were made in January 2026 and the to-dos added the same day, as the seed's
/// "Add TodoItem to Timer" does; the Study Session's to-dos are all done and the Workout's
/// first two, so the seed's "timers with incomplete to-dos" query finds the Workout alone.
enum TimerAppExample {
    /// The to-dos ticked off, by text, with the day of January they were.
    static let completed = [
        "Warm up 5 minutes": 12, "20 push-ups": 12, "Review chapter 3": 9, "Complete practice problems": 14,
    ]

    static func write(to folder: URL) throws {
        var random = ExampleRandom(seed: 0x0000_0001)
        let context = ModelContext(
            try ModelContainer(for: Timer.self, TodoItem.self, configurations: ExampleData.configuration(folder)))
        for (index, timer) in Timer.sampleData.enumerated() {
            timer.id = random.uuid()
            let created = ExampleClock.date(2026, 1, 5 + index, 19, 10 + random.int(0...40), random.int(0...59))
            timer.createdAt = created
            timer.updatedAt = created
            context.insert(timer)
            for todo in TodoItem.sampleData(for: timer) {
                todo.id = random.uuid()
                let added = ExampleClock.seconds(60 + 25 * todo.sortOrder + random.int(0...20), after: created)
                todo.createdAt = added
                todo.updatedAt = added
                timer.todoItems.append(todo)
                timer.updatedAt = added
            }
        }
        try context.save()

        // Ticking off a to-do, as the seed's "Toggle TodoItem Completion" does.
        for timer in try context.fetch(FetchDescriptor<Timer>(sortBy: [SortDescriptor(\.createdAt)])) {
            for todo in timer.todoItems.sorted(by: { $0.sortOrder < $1.sortOrder }) {
                guard let day = completed[todo.text] else { continue }
                let now = ExampleClock.date(2026, 1, day, 7, 30 + todo.sortOrder * 6, random.int(0...59))
                todo.isCompleted.toggle()
                todo.updatedAt = now
                todo.timer?.updatedAt = max(todo.timer?.updatedAt ?? now, now)
                try context.save()
            }
        }
    }
}
