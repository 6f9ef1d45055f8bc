import FolioJSON

/// A `Timer` of the Timer app (schema V2, with its `Category`), as one document.
package struct TimerRecord: Codable, Equatable {
    package var entity: String
    package var version: Int
    package var id: String
    package var name: String
    package var durationInSeconds: Int
    package var icon: String
    package var colorHex: String
    package var createdAt: String
    package var updatedAt: String
    package var notes: String?
    /// The to-one `Category`, by UUID.
    package var category: String?

    private enum CodingKeys: String, CodingKey {
        case entity = "$entity", version = "$version"
        case id, name, durationInSeconds, icon, colorHex, createdAt, updatedAt, notes, category
    }

    /// The document as Folio writes it: metadata first, then properties in declaration order.
    package var json: JSONValue {
        [
            "$entity": .string(entity),
            "$version": .integer(Int64(version)),
            "id": .string(id),
            "name": .string(name),
            "durationInSeconds": .integer(Int64(durationInSeconds)),
            "icon": .string(icon),
            "colorHex": .string(colorHex),
            "createdAt": .string(createdAt),
            "updatedAt": .string(updatedAt),
            "notes": notes.map(JSONValue.string) ?? .null,
            "category": category.map(JSONValue.string) ?? .null,
        ]
    }

    static func sample(_ values: inout SampleValues) -> TimerRecord {
        let created = values.instant()
        return TimerRecord(
            entity: "Timer",
            version: 2,
            id: values.uuid(),
            name: values.pick(SampleText.timerNames),
            durationInSeconds: values.integer(in: 30...7_200),
            icon: values.pick(SampleText.icons),
            colorHex: values.pick(SampleText.colors),
            createdAt: values.timestamp(created),
            updatedAt: values.timestamp(created + Double(values.integer(in: 0...864_000))),
            notes: values.chance(0.7) ? values.pick(SampleText.notes) : nil,
            category: values.chance(0.8) ? values.uuid() : nil
        )
    }
}
