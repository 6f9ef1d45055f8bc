// The Rowing app's session (seed 004), as the seed writes it (the copy in
// Tests/SeedApps/RowingAppModels.swift), with `import Folio` in place of
// `import SwiftData`. One change: no `athlete` relationship, since the benchmark
// saves strokes, not athletes (`athleteID`, the seed's foreign key, stays).
import Folio
import Foundation

@Model
class RowingSession {
    @Attribute(.unique) var id: UUID
    var athleteID: UUID  // Foreign key to Athlete
    var teamID: UUID?
    var pm5DeviceID: String
    var sessionType: SessionType
    var startTime: Date
    var endTime: Date?
    var totalDistance: Double  // meters
    var totalTime: Double  // seconds
    var averagePace: Double  // seconds per 500m
    var averageStrokeRate: Double  // SPM
    var averagePower: Double  // watts
    var maxPower: Double  // peak watts
    var dragFactor: Double
    var isComplete: Bool
    var createdAt: Date
    var modifiedAt: Date

    // Relationships
    @Relationship(deleteRule: .cascade) var metrics: [PerformanceMetric] = []

    init(athleteID: UUID, pm5DeviceID: String, sessionType: SessionType = .training) {
        self.id = UUID()
        self.athleteID = athleteID
        self.pm5DeviceID = pm5DeviceID
        self.sessionType = sessionType
        self.startTime = Date()
        self.totalDistance = 0
        self.totalTime = 0
        self.averagePace = 0
        self.averageStrokeRate = 0
        self.averagePower = 0
        self.maxPower = 0
        self.dragFactor = 0
        self.isComplete = false
        self.createdAt = Date()
        self.modifiedAt = Date()
    }
}

enum SessionType: String, Codable, CaseIterable {
    case training = "Training"
    case test = "Test"
    case race = "Race"
}
