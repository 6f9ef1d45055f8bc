import BenchmarkSupport
import Foundation

/// `RowingSessionRecord`'s typed twin, with `Date` and `UUID` properties.
struct TypedRowingSessionRecord: Codable, Equatable {
    var entity: String
    var version: Int
    var id: UUID
    var athleteID: UUID
    var teamID: UUID?
    var pm5DeviceID: String
    var sessionType: String
    var startTime: Date
    var endTime: Date?
    var totalDistance: Double
    var totalTime: Double
    var averagePace: Double
    var averageStrokeRate: Double
    var averagePower: Double
    var maxPower: Double
    var dragFactor: Double
    var isComplete: Bool
    var createdAt: Date
    var modifiedAt: Date
    var athlete: UUID?

    private enum CodingKeys: String, CodingKey {
        case entity = "$entity", version = "$version"
        case id, athleteID, teamID, pm5DeviceID, sessionType, startTime, endTime, totalDistance, totalTime
        case averagePace, averageStrokeRate, averagePower, maxPower, dragFactor, isComplete, createdAt, modifiedAt
        case athlete
    }

    init(_ record: RowingSessionRecord) throws {
        entity = record.entity
        version = record.version
        id = try TypedCoding.uuid(record.id)
        athleteID = try TypedCoding.uuid(record.athleteID)
        teamID = try record.teamID.map(TypedCoding.uuid)
        pm5DeviceID = record.pm5DeviceID
        sessionType = record.sessionType
        startTime = try TypedCoding.date(record.startTime)
        endTime = try record.endTime.map(TypedCoding.date)
        totalDistance = record.totalDistance
        totalTime = record.totalTime
        averagePace = record.averagePace
        averageStrokeRate = record.averageStrokeRate
        averagePower = record.averagePower
        maxPower = record.maxPower
        dragFactor = record.dragFactor
        isComplete = record.isComplete
        createdAt = try TypedCoding.date(record.createdAt)
        modifiedAt = try TypedCoding.date(record.modifiedAt)
        athlete = try record.athlete.map(TypedCoding.uuid)
    }

    /// The record as `.iso8601` writes it: dates cut to whole seconds.
    var atWholeSeconds: TypedRowingSessionRecord {
        var copy = self
        copy.startTime = startTime.wholeSeconds
        copy.endTime = endTime?.wholeSeconds
        copy.createdAt = createdAt.wholeSeconds
        copy.modifiedAt = modifiedAt.wholeSeconds
        return copy
    }
}
