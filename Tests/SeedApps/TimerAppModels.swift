// The Timer app's models (seed 000), as the seed writes them, with `import Folio` in
// place of `import SwiftData`.
import Folio
import Foundation

@Model
final class Timer {
    // Identifiers
    @Attribute(.unique) var id: UUID

    // Timer Properties
    var name: String
    var durationInSeconds: Int  // Total duration
    var icon: String  // SF Symbol name
    var colorHex: String  // Hex color code for UI

    // Metadata
    var createdAt: Date
    var updatedAt: Date

    // Relationships
    @Relationship(deleteRule: .cascade, inverse: \TodoItem.timer)
    var todoItems: [TodoItem] = []

    var notes: String?

    // Computed Properties (not persisted)
    var hours: Int {
        durationInSeconds / 3600
    }

    var minutes: Int {
        (durationInSeconds % 3600) / 60
    }

    var seconds: Int {
        durationInSeconds % 60
    }

    var formattedDuration: String {
        let h = hours
        let m = minutes
        let s = seconds

        if h > 0 {
            return String(format: "%02d:%02d:%02d", h, m, s)
        } else {
            return String(format: "%02d:%02d", m, s)
        }
    }

    // Initializer
    init(
        id: UUID = UUID(),
        name: String,
        durationInSeconds: Int,
        icon: String = "timer",
        colorHex: String = "#007AFF",
        notes: String? = nil
    ) {
        self.id = id
        self.name = name
        self.durationInSeconds = durationInSeconds
        self.icon = icon
        self.colorHex = colorHex
        self.notes = notes
        self.createdAt = Date()
        self.updatedAt = Date()
    }
}

@Model
final class TodoItem {
    // Identifiers
    @Attribute(.unique) var id: UUID

    // Properties
    var text: String
    var isCompleted: Bool
    var sortOrder: Int  // For custom ordering

    // Metadata
    var createdAt: Date
    var updatedAt: Date

    // Relationships
    var timer: Timer?

    // Initializer
    init(
        id: UUID = UUID(),
        text: String,
        isCompleted: Bool = false,
        sortOrder: Int = 0
    ) {
        self.id = id
        self.text = text
        self.isCompleted = isCompleted
        self.sortOrder = sortOrder
        self.createdAt = Date()
        self.updatedAt = Date()
    }
}
