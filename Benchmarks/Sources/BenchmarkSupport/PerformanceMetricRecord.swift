import FolioJSON

/// A `PerformanceMetric` of the PM5 rowing app (one per stroke), as one document.
package struct PerformanceMetricRecord: Codable, Equatable {
    package var entity: String
    package var version: Int
    package var id: String
    package var sessionID: String
    package var timestamp: String
    package var distance: Double
    package var pace: Double
    package var strokeRate: Int
    package var power: Double
    package var strokeCount: Int
    package var heartRate: Int?
    /// `StrokePhase`'s raw value.
    package var strokePhase: String
    package var driveTime: Double
    package var recoveryTime: Double
    package var strokeLength: Double
    package var peakForce: Double
    package var averageForce: Double
    package var workPerStroke: Double
    /// The to-one `RowingSession`, by UUID.
    package var session: String?

    private enum CodingKeys: String, CodingKey {
        case entity = "$entity", version = "$version"
        case id, sessionID, timestamp, distance, pace, strokeRate, power, strokeCount, heartRate, strokePhase
        case driveTime, recoveryTime, strokeLength, peakForce, averageForce, workPerStroke, session
    }

    /// The document as Folio writes it: metadata first, then properties in declaration order.
    package var json: JSONValue {
        [
            "$entity": .string(entity),
            "$version": .integer(Int64(version)),
            "id": .string(id),
            "sessionID": .string(sessionID),
            "timestamp": .string(timestamp),
            "distance": .double(distance),
            "pace": .double(pace),
            "strokeRate": .integer(Int64(strokeRate)),
            "power": .double(power),
            "strokeCount": .integer(Int64(strokeCount)),
            "heartRate": heartRate.map { .integer(Int64($0)) } ?? .null,
            "strokePhase": .string(strokePhase),
            "driveTime": .double(driveTime),
            "recoveryTime": .double(recoveryTime),
            "strokeLength": .double(strokeLength),
            "peakForce": .double(peakForce),
            "averageForce": .double(averageForce),
            "workPerStroke": .double(workPerStroke),
            "session": session.map(JSONValue.string) ?? .null,
        ]
    }

    static func sample(_ values: inout SampleValues) -> PerformanceMetricRecord {
        let sessionID = values.uuid()
        return PerformanceMetricRecord(
            entity: "PerformanceMetric",
            version: 1,
            id: values.uuid(),
            sessionID: sessionID,
            timestamp: values.timestamp(values.instant()),
            distance: values.decimal(in: 0...21_097, places: 3),
            pace: values.decimal(in: 95...160, places: 2),
            strokeRate: values.integer(in: 16...38),
            power: values.decimal(in: 80...900, places: 1),
            strokeCount: values.integer(in: 1...3_000),
            heartRate: values.chance(0.8) ? values.integer(in: 90...195) : nil,
            strokePhase: values.pick(SampleText.strokePhases),
            driveTime: values.decimal(in: 0.6...1.2, places: 3),
            recoveryTime: values.decimal(in: 1.0...2.5, places: 3),
            strokeLength: values.decimal(in: 1.2...1.6, places: 3),
            peakForce: values.decimal(in: 300...1_200, places: 1),
            averageForce: values.decimal(in: 150...700, places: 1),
            workPerStroke: values.decimal(in: 200...1_100, places: 2),
            session: sessionID
        )
    }
}
