// The Rowing app's stroke-by-stroke metric (seed 004), as the seed writes it (the copy
// in Tests/SeedApps/RowingAppModels.swift), with `import Folio` in place of
// `import SwiftData` and `case catch` in backticks, as Swift needs.
import Folio
import Foundation

@Model
class PerformanceMetric {
    @Attribute(.unique) var id: UUID
    var sessionID: UUID  // Foreign key to RowingSession
    var timestamp: Date
    var distance: Double  // cumulative meters
    var pace: Double  // current 500m pace in seconds
    var strokeRate: Int  // current SPM
    var power: Double  // current watts
    var strokeCount: Int
    var heartRate: Int?  // optional HR
    var strokePhase: StrokePhase
    var driveTime: Double  // seconds
    var recoveryTime: Double  // seconds
    var strokeLength: Double  // meters
    var peakForce: Double  // peak force this stroke
    var averageForce: Double  // average force
    var workPerStroke: Double  // joules

    // Relationships
    @Relationship var session: RowingSession?

    init(sessionID: UUID, timestamp: Date = Date()) {
        self.id = UUID()
        self.sessionID = sessionID
        self.timestamp = timestamp
        self.distance = 0
        self.pace = 0
        self.strokeRate = 0
        self.power = 0
        self.strokeCount = 0
        self.strokePhase = .catch
        self.driveTime = 0
        self.recoveryTime = 0
        self.strokeLength = 0
        self.peakForce = 0
        self.averageForce = 0
        self.workPerStroke = 0
    }
}

enum StrokePhase: String, Codable, CaseIterable {
    case `catch` = "catch"
    case drive = "drive"
    case finish = "finish"
    case recovery = "recovery"
}
