import BenchmarkSupport
import Foundation

/// `AuditEventRecord`'s typed twin, with `Date` and `UUID` properties.
struct TypedAuditEventRecord: Codable, Equatable {
    var entity: String
    var version: Int
    var assignedID: UUID
    var eventType: String
    var timestamp: Date
    var detailJSON: String

    private enum CodingKeys: String, CodingKey {
        case entity = "$entity", version = "$version", assignedID = "$id"
        case eventType, timestamp, detailJSON
    }

    init(_ record: AuditEventRecord) throws {
        entity = record.entity
        version = record.version
        assignedID = try TypedCoding.uuid(record.assignedID)
        eventType = record.eventType
        timestamp = try TypedCoding.date(record.timestamp)
        detailJSON = record.detailJSON
    }

    /// The record as `.iso8601` writes it: dates cut to whole seconds.
    var atWholeSeconds: TypedAuditEventRecord {
        var copy = self
        copy.timestamp = timestamp.wholeSeconds
        return copy
    }
}
