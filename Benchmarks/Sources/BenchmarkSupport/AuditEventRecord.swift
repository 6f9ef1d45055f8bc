import FolioJSON

/// An `AuditEventRecord` of Health Sync, as one document. The model has no `id`,
/// so Folio stores the identity it assigns as `"$id"`. `detailJSON` is JSON text
/// inside a string: quotes and newlines escaped, and non-ASCII names and places.
package struct AuditEventRecord: Codable, Equatable {
    package var entity: String
    package var version: Int
    package var assignedID: String
    package var eventType: String
    package var timestamp: String
    package var detailJSON: String

    private enum CodingKeys: String, CodingKey {
        case entity = "$entity", version = "$version", assignedID = "$id"
        case eventType, timestamp, detailJSON
    }

    /// The document as Folio writes it: metadata first, then properties in declaration order.
    package var json: JSONValue {
        [
            "$entity": .string(entity),
            "$version": .integer(Int64(version)),
            "$id": .string(assignedID),
            "eventType": .string(eventType),
            "timestamp": .string(timestamp),
            "detailJSON": .string(detailJSON),
        ]
    }

    static func sample(_ values: inout SampleValues) -> AuditEventRecord {
        let assignedID = values.uuid()
        let eventType = values.pick(SampleText.eventTypes)
        let timestamp = values.timestamp(values.instant())
        let ip = "192.168.\(values.integer(in: 0...255)).\(values.integer(in: 1...254))"
        let detail = """
            {
                "userId": "\(values.integer(in: 100...99_999))",
                "action": "\(eventType)",
                "ip": "\(ip)",
                "device": "\(values.pick(SampleText.deviceNames))",
                "place": "\(values.pick(SampleText.places))",
            \t"userAgent": "\(values.pick(SampleText.userAgents))",
                "path": "C:\\\\Users\\\\health\\\\export.csv"
            }
            """
        return AuditEventRecord(
            entity: "AuditEventRecord",
            version: 3,
            assignedID: assignedID,
            eventType: eventType,
            timestamp: timestamp,
            detailJSON: detail
        )
    }
}
