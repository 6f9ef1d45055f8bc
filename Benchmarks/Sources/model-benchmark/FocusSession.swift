// Forest Focus's model (seed 002), as the seed writes it (the copy in
// Tests/SeedAppTests/ForestFocusModels.swift), with `import Folio` in place of
// `import SwiftData`.
import Folio
import Foundation

@Model
final class FocusSession {
    // Primary key
    var id: UUID

    // Timestamps
    var startTime: Date
    var endTime: Date?

    // State tracking
    var state: String // "active", "paused", "completed", "abandoned"

    // Duration tracking
    var duration: TimeInterval // Actual focus time (excludes paused time)
    var pausedDuration: TimeInterval // Total time spent paused

    // Metadata
    var createdAt: Date

    init(
        id: UUID = UUID(),
        startTime: Date = Date(),
        endTime: Date? = nil,
        state: String = "active",
        duration: TimeInterval = 0,
        pausedDuration: TimeInterval = 0,
        createdAt: Date = Date()
    ) {
        self.id = id
        self.startTime = startTime
        self.endTime = endTime
        self.state = state
        self.duration = duration
        self.pausedDuration = pausedDuration
        self.createdAt = createdAt
    }
}
