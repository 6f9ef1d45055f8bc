// Health Sync's models (seed 003), with `import Folio` in place of `import SwiftData`.
// The seed declares them without initializers, which neither SwiftData nor Swift
// accepts for these classes; the nearest valid form adds the initializer its own code
// calls. `HealthDataType` is the app's, outside the data-model document; a minimal one
// stands in for it.
import Folio
import Foundation

enum HealthDataType: String, CaseIterable {
    case steps, heartRate, sleep, workouts
}

@Model
final class SyncConfiguration {
    var enabledTypesCSV: String = HealthDataType.allCases
        .map(\.rawValue)
        .joined(separator: ",")
    var lastExportAt: Date?
    var createdAt: Date = Date()

    var enabledTypes: [HealthDataType] {
        get {
            enabledTypesCSV.split(separator: ",")
                .compactMap { HealthDataType(rawValue: String($0)) }
        }
        set {
            enabledTypesCSV = newValue.map(\.rawValue).joined(separator: ",")
        }
    }

    init() {}
}

@Model
final class PairedDevice {
    var name: String
    var tokenHash: String
    var createdAt: Date
    var expiresAt: Date
    var lastSeenAt: Date?
    var isActive: Bool

    init(name: String, tokenHash: String, createdAt: Date, expiresAt: Date, lastSeenAt: Date?, isActive: Bool) {
        self.name = name
        self.tokenHash = tokenHash
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.lastSeenAt = lastSeenAt
        self.isActive = isActive
    }
}

@Model
final class AuditEventRecord {
    var eventType: String
    var timestamp: Date
    var detailJSON: String

    init(eventType: String, timestamp: Date, detailJSON: String) {
        self.eventType = eventType
        self.timestamp = timestamp
        self.detailJSON = detailJSON
    }
}

@Model
final class Playlist {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \Song.playlist)
    var songs: [Song] = []

    init(name: String) { self.name = name }
}

@Model
final class Song {
    var name: String
    var playlist: Playlist?

    init(name: String) { self.name = name }
}
