import BenchmarkSupport
import Foundation

/// `PerformanceMetricRecord`'s typed twin, with `Date` and `UUID` properties.
struct TypedPerformanceMetricRecord: Codable, Equatable {
    var entity: String
    var version: Int
    var id: UUID
    var sessionID: UUID
    var timestamp: Date
    var distance: Double
    var pace: Double
    var strokeRate: Int
    var power: Double
    var strokeCount: Int
    var heartRate: Int?
    var strokePhase: String
    var driveTime: Double
    var recoveryTime: Double
    var strokeLength: Double
    var peakForce: Double
    var averageForce: Double
    var workPerStroke: Double
    var session: UUID?

    private enum CodingKeys: String, CodingKey {
        case entity = "$entity", version = "$version"
        case id, sessionID, timestamp, distance, pace, strokeRate, power, strokeCount, heartRate, strokePhase
        case driveTime, recoveryTime, strokeLength, peakForce, averageForce, workPerStroke, session
    }

    init(_ record: PerformanceMetricRecord) throws {
        entity = record.entity
        version = record.version
        id = try TypedCoding.uuid(record.id)
        sessionID = try TypedCoding.uuid(record.sessionID)
        timestamp = try TypedCoding.date(record.timestamp)
        distance = record.distance
        pace = record.pace
        strokeRate = record.strokeRate
        power = record.power
        strokeCount = record.strokeCount
        heartRate = record.heartRate
        strokePhase = record.strokePhase
        driveTime = record.driveTime
        recoveryTime = record.recoveryTime
        strokeLength = record.strokeLength
        peakForce = record.peakForce
        averageForce = record.averageForce
        workPerStroke = record.workPerStroke
        session = try record.session.map(TypedCoding.uuid)
    }

    /// The record as `.iso8601` writes it: dates cut to whole seconds.
    var atWholeSeconds: TypedPerformanceMetricRecord {
        var copy = self
        copy.timestamp = timestamp.wholeSeconds
        return copy
    }
}
