import Folio
import Foundation

/// Forest Focus's session (seed 002) in shape, with `state` indexed (`#Index`), so one
/// equality runs on an index and another (`pausedDuration`) on a scan. `startTime`, the
/// first required date, names each document's day folder.
@Model
final class FocusSession {
    #Index<FocusSession>([\.state])
    @Attribute(.unique) var id: UUID
    var startTime: Date
    var endTime: Date?
    var state: String
    var duration: TimeInterval
    var pausedDuration: TimeInterval
    var createdAt: Date

    init(
        id: UUID, startTime: Date, endTime: Date?, state: String, duration: TimeInterval, pausedDuration: TimeInterval,
        createdAt: Date
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

extension FocusSession {
    /// The observed result: the paused sessions, by start time.
    static var paused: FetchDescriptor<FocusSession> {
        FetchDescriptor(predicate: #Predicate { $0.state == "paused" }, sortBy: [SortDescriptor(\.startTime)])
    }
}
