// The Rowing app's models (seed 004), as the seed writes them (the copy in
// Tests/SeedApps/RowingAppModels.swift, which model-benchmark's RowingSession.swift and
// PerformanceMetric.swift also copy), with `import Folio` in place of `import SwiftData`,
// `case catch` in backticks, as Swift needs, and two changes: the classes are `final`, and
// `PerformanceMetric` declares `#Index<PerformanceMetric>([\.sessionID])`, the index the
// benchmark's manifest adds. All four models are declared, so that the schema the app's
// container records is the store's manifest exactly and opening the store writes nothing
// (`Scale.checkSchema` makes sure).
import Folio
import Foundation

@Model
final class Athlete {
    @Attribute(.unique) var id: UUID
    var name: String
    var email: String  // CloudKit provides via Apple ID
    var teamID: UUID?
    var profileImageData: Data?  // Local storage
    var preferredBoat: BoatType?
    var weight: Double?  // kg
    var height: Double?  // cm
    var userRole: UserRole  // Athlete, Coach, Admin
    var createdAt: Date
    var modifiedAt: Date
    var isActive: Bool

    // Relationships
    @Relationship(deleteRule: .cascade) var sessions: [RowingSession] = []

    init(name: String, email: String, userRole: UserRole = .athlete) {
        self.id = UUID()
        self.name = name
        self.email = email
        self.userRole = userRole
        self.createdAt = Date()
        self.modifiedAt = Date()
        self.isActive = true
    }
}

enum UserRole: String, Codable, CaseIterable {
    case athlete = "athlete"
    case coach = "coach"
    case admin = "admin"
}

enum BoatType: String, Codable, CaseIterable {
    case single = "Single"
    case double = "Double"
    case four = "Four"
    case eight = "Eight"
}

@Model
final class RowingSession {
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
    @Relationship var athlete: Athlete?
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

@Model
final class PerformanceMetric {
    #Index<PerformanceMetric>([\.sessionID])
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

@Model
final class PM5Device {
    @Attribute(.unique) var id: UUID
    var serialNumber: String
    var hardwareVersion: String
    var firmwareVersion: String
    var manufacturer: String
    var nickname: String?  // User-friendly name
    var lastConnected: Date?
    var isActive: Bool
    var createdAt: Date
    var modifiedAt: Date

    // Relationships
    @Relationship var sessions: [RowingSession] = []

    init(serialNumber: String, hardwareVersion: String, firmwareVersion: String, manufacturer: String = "Concept2") {
        self.id = UUID()
        self.serialNumber = serialNumber
        self.hardwareVersion = hardwareVersion
        self.firmwareVersion = firmwareVersion
        self.manufacturer = manufacturer
        self.isActive = true
        self.createdAt = Date()
        self.modifiedAt = Date()
    }
}
