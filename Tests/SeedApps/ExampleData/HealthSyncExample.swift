import Folio
import Foundation

/// `Data/HealthSync`: the tutorial app's configuration singleton, the devices paired with
/// it, and its audit trail from 3 January to 31 October 2026.
///
/// The models declare no `id`, so Folio assigns the identities that name the documents
/// (stored as `"$id"`); here they come from a seeded source (`AssignedIdentity`) so the
/// store is reproducible. Tokens are never stored: `tokenHash` holds 64 hex digits, as
/// a SHA-256 of the token would. One device was revoked the seed's soft way
/// (`isActive = false`), the record kept for the audit trail.
enum HealthSyncExample {
    struct Pairing {
        var name: String
        var paired: Date
        var validDays: Int
        /// When it was revoked, if it was.
        var revoked: Date?
    }

    static let pairings = [
        Pairing(name: "Lena's MacBook Pro", paired: ExampleClock.date(2026, 1, 3, 19, 42, 10), validDays: 365),
        Pairing(
            name: "Work laptop", paired: ExampleClock.date(2026, 1, 19, 9, 5, 33), validDays: 180,
            revoked: ExampleClock.date(2026, 5, 29, 17, 48, 2)),
        Pairing(name: "Lena's iPad", paired: ExampleClock.date(2026, 2, 14, 21, 17, 56), validDays: 365),
        Pairing(name: "Home server (nas.local)", paired: ExampleClock.date(2026, 4, 2, 11, 30, 4), validDays: 365),
    ]

    static func write(to folder: URL) throws {
        let identities = SeededIdentities(seed: 0x0000_0004)
        try AssignedIdentity.$source.withValue({ identities.next() }) {
            try write(into: ModelContext(try container(at: folder)))
        }
    }

    static func container(at folder: URL) throws -> ModelContainer {
        // The seed's container setup, with the store's folder named.
        let schema = Schema([
            SyncConfiguration.self,
            PairedDevice.self,
            AuditEventRecord.self,
        ])
        return try ModelContainer(for: schema, configurations: [ExampleData.configuration(folder)])
    }

    static func write(into context: ModelContext) throws {
        var random = ExampleRandom(seed: 0x0000_0005)
        let start = pairings[0].paired.addingTimeInterval(-300)

        // First launch: the seed's fetch-or-create of the configuration.
        let configuration = SyncConfiguration()
        configuration.createdAt = start
        context.insert(configuration)
        context.insert(
            AuditEventRecord(
                eventType: "config.created", timestamp: start,
                detailJSON: #"{"enabledTypes":"steps,heartRate,sleep,workouts"}"#))
        try context.save()

        var devices: [PairedDevice] = []
        var events: [(Date, String, String)] = []
        for pairing in pairings {
            let device = PairedDevice(
                name: pairing.name, tokenHash: random.hex(bytes: 32), createdAt: pairing.paired,
                expiresAt: ExampleClock.seconds(86_400 * pairing.validDays, after: pairing.paired), lastSeenAt: nil,
                isActive: true)
            devices.append(device)
            events.append(
                (pairing.paired, "device.paired", #"{"device":"\#(pairing.name)","validDays":\#(pairing.validDays)}"#))
            if let revoked = pairing.revoked {
                events.append((revoked, "device.revoked", #"{"device":"\#(pairing.name)","reason":"left the job"}"#))
            }
        }
        // The user stops syncing workouts in March.
        let narrowed = ExampleClock.date(2026, 3, 8, 10, 2, 45)
        events.append((narrowed, "config.changed", #"{"disabled":"workouts","enabledTypes":"steps,heartRate,sleep"}"#))

        // Each day, an export to one of the devices then paired, now and then a failure or
        // a rejected token.
        var day = ExampleClock.day(1, after: start)
        var lastExport = start
        while day < ExampleClock.date(2026, 11, 1) {
            let paired = zip(pairings, devices).filter { pairing, _ in
                pairing.paired < day && (pairing.revoked.map { $0 > ExampleClock.day(1, after: day) } ?? true)
            }
            let types = day < narrowed ? "steps,heartRate,sleep,workouts" : "steps,heartRate,sleep"
            if random.chance(0.85), !paired.isEmpty {
                let (pairing, device) = random.pick(paired)
                let moment = ExampleClock.seconds(60 * random.int(360...1380) + random.int(0...59), after: day)
                if random.chance(0.06) {
                    let reason = random.pick([
                        "network unreachable", "device asleep", "HealthKit authorization pending",
                    ])
                    events.append((moment, "export.failed", #"{"device":"\#(pairing.name)","error":"\#(reason)"}"#))
                } else {
                    let records = random.int(180...2400)
                    events.append(
                        (
                            moment, "export.completed",
                            #"{"device":"\#(pairing.name)","records":\#(records),"types":"\#(types)"}"#
                        ))
                    device.lastSeenAt = moment
                    lastExport = max(lastExport, moment)
                }
            }
            if random.chance(0.03) {
                let moment = ExampleClock.seconds(60 * random.int(0...1439), after: day)
                events.append(
                    (
                        moment, "auth.failed",
                        #"{"reason":"unknown token","remoteAddress":"192.168.1.\#(random.int(20...250))"}"#
                    ))
            }
            day = ExampleClock.day(1, after: day)
        }

        for device in devices { context.insert(device) }
        // In time order; events at the same second in the order they were made.
        let ordered = events.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(
            \.element)
        for (timestamp, type, detail) in ordered {
            context.insert(AuditEventRecord(eventType: type, timestamp: timestamp, detailJSON: detail))
        }
        // Revoked devices stay, inactive: the seed's soft delete.
        for (pairing, device) in zip(pairings, devices) where pairing.revoked != nil { device.isActive = false }
        configuration.enabledTypes = [.steps, .heartRate, .sleep]
        configuration.lastExportAt = lastExport
        try context.save()
    }
}
