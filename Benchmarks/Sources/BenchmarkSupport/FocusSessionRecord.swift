import FolioJSON

/// A `FocusSession` of Forest Focus (with the optional `notes` its v1.1 adds), as one document.
package struct FocusSessionRecord: Codable, Equatable {
    package var entity: String
    package var version: Int
    package var id: String
    package var startTime: String
    package var endTime: String?
    package var state: String
    /// Focused seconds, excluding pauses, at most 1500 (as 1499.25).
    package var duration: Double
    package var pausedDuration: Double
    package var createdAt: String
    package var notes: String?

    private enum CodingKeys: String, CodingKey {
        case entity = "$entity", version = "$version"
        case id, startTime, endTime, state, duration, pausedDuration, createdAt, notes
    }

    /// The document as Folio writes it: metadata first, then properties in declaration order.
    package var json: JSONValue {
        [
            "$entity": .string(entity),
            "$version": .integer(Int64(version)),
            "id": .string(id),
            "startTime": .string(startTime),
            "endTime": endTime.map(JSONValue.string) ?? .null,
            "state": .string(state),
            "duration": .double(duration),
            "pausedDuration": .double(pausedDuration),
            "createdAt": .string(createdAt),
            "notes": notes.map(JSONValue.string) ?? .null,
        ]
    }

    static func sample(_ values: inout SampleValues) -> FocusSessionRecord {
        let start = values.instant()
        let state = values.pick(SampleText.focusStates)
        let duration = values.decimal(in: 60...1_500, places: 2)  // at most 25 minutes
        let paused = values.decimal(in: 0...600, places: 2)
        return FocusSessionRecord(
            entity: "FocusSession",
            version: 2,
            id: values.uuid(),
            startTime: values.timestamp(start),
            endTime: state == "active" || state == "paused" ? nil : values.timestamp(start + duration + paused),
            state: state,
            duration: duration,
            pausedDuration: paused,
            createdAt: values.timestamp(start),
            notes: values.chance(0.5) ? values.pick(SampleText.focusNotes) : nil
        )
    }
}
