import BenchmarkSupport
import Foundation

/// `FocusSessionRecord`'s typed twin, with `Date` and `UUID` properties.
struct TypedFocusSessionRecord: Codable, Equatable {
    var entity: String
    var version: Int
    var id: UUID
    var startTime: Date
    var endTime: Date?
    var state: String
    var duration: Double
    var pausedDuration: Double
    var createdAt: Date
    var notes: String?

    private enum CodingKeys: String, CodingKey {
        case entity = "$entity", version = "$version"
        case id, startTime, endTime, state, duration, pausedDuration, createdAt, notes
    }

    init(_ record: FocusSessionRecord) throws {
        entity = record.entity
        version = record.version
        id = try TypedCoding.uuid(record.id)
        startTime = try TypedCoding.date(record.startTime)
        endTime = try record.endTime.map(TypedCoding.date)
        state = record.state
        duration = record.duration
        pausedDuration = record.pausedDuration
        createdAt = try TypedCoding.date(record.createdAt)
        notes = record.notes
    }

    /// The record as `.iso8601` writes it: dates cut to whole seconds.
    var atWholeSeconds: TypedFocusSessionRecord {
        var copy = self
        copy.startTime = startTime.wholeSeconds
        copy.endTime = endTime?.wholeSeconds
        copy.createdAt = createdAt.wholeSeconds
        return copy
    }
}
