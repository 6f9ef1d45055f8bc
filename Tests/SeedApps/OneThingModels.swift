// OneThing's model (seed 001), as the seed writes it, with `import Folio` in place of
// `import SwiftData`. `@Attribute(.indexed)` is Folio's (the seed uses it; SwiftData
// spells it `#Index`).
import Folio
import Foundation

@Model
final class DayEntry {
    // Identity
    @Attribute(.unique) var id: UUID

    // Day key (normalized to start-of-day in the user’s local calendar)
    @Attribute(.indexed) var day: Date

    // Content
    var taskText: String

    // Timer
    var startedAt: Date?  // nil when not running
    var elapsedSeconds: Int  // accumulated seconds (stopped time)

    // Completion
    var completedAt: Date?

    // Audit
    var createdAt: Date
    var updatedAt: Date

    init(
        id: UUID = UUID(),
        day: Date,
        taskText: String = "",
        startedAt: Date? = nil,
        elapsedSeconds: Int = 0,
        completedAt: Date? = nil,
        createdAt: Date = .now,
        updatedAt: Date = .now
    ) {
        self.id = id
        self.day = day
        self.taskText = taskText
        self.startedAt = startedAt
        self.elapsedSeconds = elapsedSeconds
        self.completedAt = completedAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
