import BenchmarkSupport
import Foundation

/// `TimerRecord`'s typed twin: the `Timer` model as an app declares it, with `Date`
/// and `UUID` properties, coded by `JSONEncoder`/`JSONDecoder` with `.iso8601` dates.
struct TypedTimerRecord: Codable, Equatable {
    var entity: String
    var version: Int
    var id: UUID
    var name: String
    var durationInSeconds: Int
    var icon: String
    var colorHex: String
    var createdAt: Date
    var updatedAt: Date
    var notes: String?
    var category: UUID?

    private enum CodingKeys: String, CodingKey {
        case entity = "$entity", version = "$version"
        case id, name, durationInSeconds, icon, colorHex, createdAt, updatedAt, notes, category
    }

    init(_ record: TimerRecord) throws {
        entity = record.entity
        version = record.version
        id = try TypedCoding.uuid(record.id)
        name = record.name
        durationInSeconds = record.durationInSeconds
        icon = record.icon
        colorHex = record.colorHex
        createdAt = try TypedCoding.date(record.createdAt)
        updatedAt = try TypedCoding.date(record.updatedAt)
        notes = record.notes
        category = try record.category.map(TypedCoding.uuid)
    }

    /// The record as `.iso8601` writes it: dates cut to whole seconds.
    var atWholeSeconds: TypedTimerRecord {
        var copy = self
        copy.createdAt = createdAt.wholeSeconds
        copy.updatedAt = updatedAt.wholeSeconds
        return copy
    }
}
