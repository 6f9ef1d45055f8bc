import FolioJSON

/// A `RowingSession` of the PM5 rowing app, as one document.
package struct RowingSessionRecord: Codable, Equatable {
    package var entity: String
    package var version: Int
    package var id: String
    package var athleteID: String
    package var teamID: String?
    package var pm5DeviceID: String
    /// `SessionType`'s raw value.
    package var sessionType: String
    package var startTime: String
    package var endTime: String?
    package var totalDistance: Double
    package var totalTime: Double
    package var averagePace: Double
    package var averageStrokeRate: Double
    package var averagePower: Double
    package var maxPower: Double
    package var dragFactor: Double
    package var isComplete: Bool
    package var createdAt: String
    package var modifiedAt: String
    /// The to-one `Athlete`, by UUID.
    package var athlete: String?

    private enum CodingKeys: String, CodingKey {
        case entity = "$entity", version = "$version"
        case id, athleteID, teamID, pm5DeviceID, sessionType, startTime, endTime, totalDistance, totalTime
        case averagePace, averageStrokeRate, averagePower, maxPower, dragFactor, isComplete, createdAt, modifiedAt
        case athlete
    }

    /// The document as Folio writes it: metadata first, then properties in declaration order.
    package var json: JSONValue {
        [
            "$entity": .string(entity),
            "$version": .integer(Int64(version)),
            "id": .string(id),
            "athleteID": .string(athleteID),
            "teamID": teamID.map(JSONValue.string) ?? .null,
            "pm5DeviceID": .string(pm5DeviceID),
            "sessionType": .string(sessionType),
            "startTime": .string(startTime),
            "endTime": endTime.map(JSONValue.string) ?? .null,
            "totalDistance": .double(totalDistance),
            "totalTime": .double(totalTime),
            "averagePace": .double(averagePace),
            "averageStrokeRate": .double(averageStrokeRate),
            "averagePower": .double(averagePower),
            "maxPower": .double(maxPower),
            "dragFactor": .double(dragFactor),
            "isComplete": .bool(isComplete),
            "createdAt": .string(createdAt),
            "modifiedAt": .string(modifiedAt),
            "athlete": athlete.map(JSONValue.string) ?? .null,
        ]
    }

    static func sample(_ values: inout SampleValues) -> RowingSessionRecord {
        let start = values.instant()
        let time = values.decimal(in: 300...5_400, places: 1)
        let athleteID = values.uuid()
        let isComplete = values.chance(0.9)
        return RowingSessionRecord(
            entity: "RowingSession",
            version: 1,
            id: values.uuid(),
            athleteID: athleteID,
            teamID: values.chance(0.4) ? values.uuid() : nil,
            pm5DeviceID: "PM5-\(values.integer(in: 430_000_000...439_999_999))",
            sessionType: values.pick(SampleText.sessionTypes),
            startTime: values.timestamp(start),
            endTime: isComplete ? values.timestamp(start + time) : nil,
            totalDistance: values.decimal(in: 500...21_097, places: 3),
            totalTime: time,
            averagePace: values.decimal(in: 95...160, places: 2),
            averageStrokeRate: values.decimal(in: 16...38, places: 1),
            averagePower: values.decimal(in: 80...450, places: 1),
            maxPower: values.decimal(in: 300...900, places: 1),
            dragFactor: Double(values.integer(in: 95...145)),
            isComplete: isComplete,
            createdAt: values.timestamp(start),
            modifiedAt: values.timestamp(start + time + Double(values.integer(in: 0...600))),
            athlete: athleteID
        )
    }
}
