import Foundation
import GRDB

/// The `FocusSession` model's fields as a GRDB record: a `Codable` struct that GRDB
/// reads and writes through its generated coding, the usual way to use GRDB.
struct GRDBFocusSession: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "focusSession"

    var id: UUID
    var startTime: Date
    var endTime: Date?
    var state: String
    var duration: TimeInterval
    var pausedDuration: TimeInterval
    var createdAt: Date

    init(_ values: SessionValues) {
        id = values.id
        startTime = values.startTime
        endTime = values.endTime
        state = values.state
        duration = values.duration
        pausedDuration = values.pausedDuration
        createdAt = values.createdAt
    }

    /// The table, keyed by the UUID as GRDB stores one (16 bytes), with no other index,
    /// as Folio's documents have none.
    static func createTable(_ db: Database) throws {
        try db.create(table: databaseTableName) { table in
            table.primaryKey("id", .blob)
            table.column("startTime", .datetime).notNull()
            table.column("endTime", .datetime)
            table.column("state", .text).notNull()
            table.column("duration", .double).notNull()
            table.column("pausedDuration", .double).notNull()
            table.column("createdAt", .datetime).notNull()
        }
    }
}
