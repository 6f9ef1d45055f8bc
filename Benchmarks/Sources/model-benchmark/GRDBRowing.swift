import Foundation
import GRDB

/// The `RowingSession` model's fields as a GRDB record.
struct GRDBRowingSession: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "rowingSession"

    var id: UUID
    var athleteID: UUID
    var teamID: UUID?
    var pm5DeviceID: String
    var sessionType: SessionType
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

    init(_ session: StrokeValues.Session) {
        id = session.id
        athleteID = session.athleteID
        pm5DeviceID = session.pm5DeviceID
        sessionType = .training
        startTime = session.startTime
        totalDistance = 0
        totalTime = 0
        averagePace = 0
        averageStrokeRate = 0
        averagePower = 0
        maxPower = 0
        dragFactor = 0
        isComplete = false
        createdAt = session.startTime
        modifiedAt = session.startTime
    }
}

/// The `PerformanceMetric` model's fields as a GRDB record; `sessionID` is the foreign
/// key that the model's `session` relationship is in Folio.
struct GRDBPerformanceMetric: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "performanceMetric"

    var id: UUID
    var sessionID: UUID
    var timestamp: Date
    var distance: Double
    var pace: Double
    var strokeRate: Int
    var power: Double
    var strokeCount: Int
    var heartRate: Int?
    var strokePhase: StrokePhase
    var driveTime: Double
    var recoveryTime: Double
    var strokeLength: Double
    var peakForce: Double
    var averageForce: Double
    var workPerStroke: Double

    init(id: UUID, sessionID: UUID, _ stroke: StrokeValues) {
        self.id = id
        self.sessionID = sessionID
        timestamp = stroke.timestamp
        distance = stroke.distance
        pace = stroke.pace
        strokeRate = stroke.strokeRate
        power = stroke.power
        strokeCount = stroke.strokeCount
        heartRate = stroke.heartRate
        strokePhase = stroke.strokePhase
        driveTime = stroke.driveTime
        recoveryTime = stroke.recoveryTime
        strokeLength = stroke.strokeLength
        peakForce = stroke.peakForce
        averageForce = stroke.averageForce
        workPerStroke = stroke.workPerStroke
    }
}

// Stored by raw value, as Folio stores them.
extension SessionType: DatabaseValueConvertible {}
extension StrokePhase: DatabaseValueConvertible {}

enum GRDBRowing {
    /// Both tables; the metrics' foreign key is indexed, as GRDB's `belongsTo` does.
    static func createTables(_ db: Database) throws {
        try db.create(table: GRDBRowingSession.databaseTableName) { table in
            table.primaryKey("id", .blob)
            table.column("athleteID", .blob).notNull()
            table.column("teamID", .blob)
            table.column("pm5DeviceID", .text).notNull()
            table.column("sessionType", .text).notNull()
            table.column("startTime", .datetime).notNull()
            table.column("endTime", .datetime)
            for name in [
                "totalDistance", "totalTime", "averagePace", "averageStrokeRate", "averagePower", "maxPower",
                "dragFactor",
            ] {
                table.column(name, .double).notNull()
            }
            table.column("isComplete", .boolean).notNull()
            table.column("createdAt", .datetime).notNull()
            table.column("modifiedAt", .datetime).notNull()
        }
        try db.create(table: GRDBPerformanceMetric.databaseTableName) { table in
            table.primaryKey("id", .blob)
            table.column("sessionID", .blob).notNull().indexed().references(
                GRDBRowingSession.databaseTableName, onDelete: .cascade)
            table.column("timestamp", .datetime).notNull()
            for name in ["distance", "pace"] { table.column(name, .double).notNull() }
            table.column("strokeRate", .integer).notNull()
            table.column("power", .double).notNull()
            table.column("strokeCount", .integer).notNull()
            table.column("heartRate", .integer)
            table.column("strokePhase", .text).notNull()
            for name in ["driveTime", "recoveryTime", "strokeLength", "peakForce", "averageForce", "workPerStroke"] {
                table.column(name, .double).notNull()
            }
        }
    }
}
