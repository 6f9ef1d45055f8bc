// Forest Focus's model and its state enum (seed 002, T009 and T010), as the seed writes
// them, with `import Folio` in place of `import SwiftData`.
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
    var state: String  // "active", "paused", "completed", "abandoned"

    // Duration tracking
    var duration: TimeInterval  // Actual focus time (excludes paused time)
    var pausedDuration: TimeInterval  // Total time spent paused

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

enum SessionState: String, Codable, CaseIterable {
    case active
    case paused
    case completed
    case abandoned

    var displayName: String {
        switch self {
        case .active: return "Active"
        case .paused: return "Paused"
        case .completed: return "Completed"
        case .abandoned: return "Abandoned"
        }
    }

    var canTransitionTo: [SessionState] {
        switch self {
        case .active:
            return [.paused, .completed, .abandoned]
        case .paused:
            return [.active, .abandoned]
        case .completed, .abandoned:
            return []  // Terminal states
        }
    }

    func canTransition(to newState: SessionState) -> Bool {
        return canTransitionTo.contains(newState)
    }
}

extension FocusSession {
    var sessionState: SessionState? {
        return SessionState(rawValue: state)
    }

    func canTransition(to newState: SessionState) -> Bool {
        guard let currentState = sessionState else { return false }
        return currentState.canTransition(to: newState)
    }
}
