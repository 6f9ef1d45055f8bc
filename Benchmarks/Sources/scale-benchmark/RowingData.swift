import BenchmarkSupport
import FolioJSON
import Foundation

/// The rowing records of one store: sessions of 720 strokes (the last one the rest), two
/// seconds apart, the sessions spread evenly over 2026, every value made by a generator
/// seeded with the session's number, so every run and every peer gets the same records.
///
/// Values are whole tenths or hundredths made from integers (and distances summed as whole
/// decimetres), so that their shortest text is short and every side reads back exactly
/// what was written. Sessions are made one at a time, when asked for: the million strokes
/// are never all held at once.
struct RowingData {
    static let strokesPerSession = 720
    static let strokePhases = ["catch", "drive", "finish", "recovery"]
    static let sessionTypes = ["Training", "Test", "Race"]
    /// 2026-01-01T00:00:00Z.
    static let yearStart = Date(timeIntervalSince1970: 1_767_225_600)

    /// Strokes in all.
    let strokes: Int

    var sessionCount: Int { (strokes + Self.strokesPerSession - 1) / Self.strokesPerSession }

    /// The session whose strokes the queries ask for: one in the middle of the year, with 720.
    var targetSession: Int { sessionCount / 2 }

    func strokeCount(ofSession index: Int) -> Int {
        index < sessionCount - 1 ? Self.strokesPerSession : strokes - Self.strokesPerSession * (sessionCount - 1)
    }

    /// Session `index` and its strokes.
    func session(_ index: Int) -> (session: SessionRecord, strokes: [StrokeRecord]) {
        // A hashed seed: SplitMix64 seeded with consecutive multiples of its own step would
        // give each session the previous one's stream, one value on.
        var seeding = SplitMix64(seed: 0x5CA1_EBE0 ^ UInt64(index))
        var random = Random(seed: seeding.next())
        let spacing = 365 * 86_400 / sessionCount
        let start = Self.yearStart.addingTimeInterval(
            Double(index * spacing + 5 * 3_600 + random.integer(in: 0...3_599)))
        let id = random.uuid()
        var strokes: [StrokeRecord] = []
        strokes.reserveCapacity(strokeCount(ofSession: index))
        var decimetres = 0
        for stroke in 0..<strokeCount(ofSession: index) {
            decimetres += random.integer(in: 80...120)
            strokes.append(
                StrokeRecord(
                    id: random.uuid(), sessionID: id, timestamp: start.addingTimeInterval(Double(2 * stroke)),
                    distance: Double(decimetres) / 10, pace: random.tenths(in: 950...1_600),
                    strokeRate: random.integer(in: 16...38), power: random.tenths(in: 800...9_000),
                    strokeCount: stroke + 1,
                    heartRate: random.integer(in: 0...9) < 8 ? random.integer(in: 90...195) : nil,
                    strokePhase: Self.strokePhases[random.integer(in: 0...3)],
                    driveTime: random.hundredths(in: 60...120), recoveryTime: random.hundredths(in: 100...250),
                    strokeLength: random.hundredths(in: 120...160), peakForce: random.tenths(in: 3_000...12_000),
                    averageForce: random.tenths(in: 1_500...7_000), workPerStroke: random.tenths(in: 2_000...11_000)))
        }
        let count = Double(strokes.count)
        let mean = { (value: KeyPath<StrokeRecord, Double>) in
            (strokes.reduce(0) { $0 + $1[keyPath: value] } / count * 10).rounded() / 10
        }
        let end = start.addingTimeInterval(2 * count)
        let session = SessionRecord(
            id: id, athleteID: random.uuid(), pm5DeviceID: String(random.integer(in: 430_000_000...439_999_999)),
            sessionType: Self.sessionTypes[random.integer(in: 0...2)], startTime: start, endTime: end,
            totalDistance: strokes.last?.distance ?? 0, totalTime: 2 * count, averagePace: mean(\.pace),
            averageStrokeRate: (strokes.reduce(0) { $0 + Double($1.strokeRate) } / count * 10).rounded() / 10,
            averagePower: mean(\.power), maxPower: strokes.map(\.power).max() ?? 0,
            dragFactor: Double(random.integer(in: 95...145)), isComplete: true, createdAt: start, modifiedAt: end)
        return (session, strokes)
    }
}

/// A `RowingSession`'s values (no athlete or team: the store holds none).
struct SessionRecord {
    var id: UUID
    var athleteID: UUID
    var pm5DeviceID: String
    var sessionType: String
    var startTime: Date
    var endTime: Date
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

    /// The document as Folio writes a new one: metadata, then the properties in declaration order.
    var content: JSONObject {
        JSONObject([
            ("$entity", "RowingSession"), ("$version", "1.0.0"), ("id", .string(id.uuidString)),
            ("athleteID", .string(athleteID.uuidString)), ("teamID", .null), ("pm5DeviceID", .string(pm5DeviceID)),
            ("sessionType", .string(sessionType)), ("startTime", date(startTime)), ("endTime", date(endTime)),
            ("totalDistance", .double(totalDistance)), ("totalTime", .double(totalTime)),
            ("averagePace", .double(averagePace)), ("averageStrokeRate", .double(averageStrokeRate)),
            ("averagePower", .double(averagePower)), ("maxPower", .double(maxPower)),
            ("dragFactor", .double(dragFactor)), ("isComplete", .bool(isComplete)), ("createdAt", date(createdAt)),
            ("modifiedAt", date(modifiedAt)), ("athlete", .null),
        ])
    }

    /// The `session` table's row, as SQL literals in the table's column order.
    var sqlValues: [String] {
        [
            SQL.text(id.uuidString), SQL.text(athleteID.uuidString), "NULL", SQL.text(pm5DeviceID),
            SQL.text(sessionType), SQL.text(dateText(startTime)), SQL.text(dateText(endTime)), "\(totalDistance)",
            "\(totalTime)", "\(averagePace)", "\(averageStrokeRate)", "\(averagePower)", "\(maxPower)",
            "\(dragFactor)", isComplete ? "1" : "0", SQL.text(dateText(createdAt)), SQL.text(dateText(modifiedAt)),
        ]
    }
}

/// A `PerformanceMetric`'s values: one stroke.
struct StrokeRecord {
    var id: UUID
    var sessionID: UUID
    var timestamp: Date
    var distance: Double
    var pace: Double
    var strokeRate: Int
    var power: Double
    var strokeCount: Int
    var heartRate: Int?
    var strokePhase: String
    var driveTime: Double
    var recoveryTime: Double
    var strokeLength: Double
    var peakForce: Double
    var averageForce: Double
    var workPerStroke: Double

    /// The stored properties, in declaration order (the relationship `session` last).
    var properties: [(String, JSONValue)] {
        [
            ("id", .string(id.uuidString)), ("sessionID", .string(sessionID.uuidString)),
            ("timestamp", date(timestamp)), ("distance", .double(distance)), ("pace", .double(pace)),
            ("strokeRate", .integer(Int64(strokeRate))), ("power", .double(power)),
            ("strokeCount", .integer(Int64(strokeCount))),
            ("heartRate", heartRate.map { .integer(Int64($0)) } ?? .null),
            ("strokePhase", .string(strokePhase)), ("driveTime", .double(driveTime)),
            ("recoveryTime", .double(recoveryTime)), ("strokeLength", .double(strokeLength)),
            ("peakForce", .double(peakForce)), ("averageForce", .double(averageForce)),
            ("workPerStroke", .double(workPerStroke)), ("session", .string(sessionID.uuidString)),
        ]
    }

    /// The document as Folio writes a new one: metadata, then the properties.
    var content: JSONObject {
        JSONObject([("$entity", "PerformanceMetric"), ("$version", "1.0.0")] + properties)
    }

    /// One NDJSON line (no newline) of the properties, as `folio import` reads them.
    var ndjson: String {
        "{" + properties.map { "\"\($0.0)\":\(Self.compact($0.1))" }.joined(separator: ",") + "}"
    }

    /// The `metric` table's row, as SQL literals in the table's column order.
    var sqlValues: [String] {
        [
            SQL.text(id.uuidString), SQL.text(sessionID.uuidString), SQL.text(dateText(timestamp)), "\(distance)",
            "\(pace)", "\(strokeRate)", "\(power)", "\(strokeCount)", heartRate.map(String.init) ?? "NULL",
            SQL.text(strokePhase), "\(driveTime)", "\(recoveryTime)", "\(strokeLength)", "\(peakForce)",
            "\(averageForce)", "\(workPerStroke)", SQL.text(sessionID.uuidString),
        ]
    }

    /// The few kinds of value a stroke holds, on one line.
    private static func compact(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .string(let text): "\"\(text)\""
        case .integer(let number): String(number)
        case .double(let number): "\(number)"
        default: "null"
        }
    }
}

/// A date's stored form, as Folio writes it.
func date(_ value: Date) -> JSONValue { ISO8601Timestamp.jsonValue(for: value) }

/// The same as text, for SQLite's columns.
func dateText(_ value: Date) -> String { date(value).stringValue ?? "\(value.timeIntervalSinceReferenceDate)" }

/// The records' random values, from a seeded `SplitMix64`.
struct Random {
    private var generator: SplitMix64

    init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    mutating func integer(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(generator.next() % UInt64(range.count))
    }

    mutating func tenths(in range: ClosedRange<Int>) -> Double { Double(integer(in: range)) / 10 }

    mutating func hundredths(in range: ClosedRange<Int>) -> Double { Double(integer(in: range)) / 100 }

    /// A version 4 UUID.
    mutating func uuid() -> UUID {
        var bytes = (0..<16).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
