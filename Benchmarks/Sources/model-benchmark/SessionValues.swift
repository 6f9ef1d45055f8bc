import BenchmarkSupport
import Foundation

/// One focus session's values, from which both sides build their model or record, so
/// that Folio and GRDB store exactly the same data.
///
/// Times and durations are whole quarter seconds: they are exact in binary, so both
/// sides give them back bit for bit (GRDB keeps milliseconds, Folio's ISO 8601 text
/// only the fraction digits needed), and the sums in `SessionDigest` are exact.
struct SessionValues {
    var id: UUID
    var startTime: Date
    var endTime: Date?
    var state: String
    var duration: TimeInterval
    var pausedDuration: TimeInterval
    var createdAt: Date

    /// 2025-01-01T00:00:00Z, in seconds since Foundation's reference date.
    private static let firstDay = 757_382_400.0
    private static let states = ["completed", "completed", "completed", "abandoned", "active", "paused"]

    /// `count` sessions from a seeded generator: the same values on every run. Their
    /// start times spread over the 365 days of 2025 (7,919 is prime, so consecutive
    /// sessions visit every day in turn), between 06:00 and 22:00.
    static func make(count: Int, seed: UInt64) -> [SessionValues] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { index in
            let day = Double(index * 7_919 % 365)
            let secondOfDay = Double(Int.random(in: 21_600..<79_200, using: &generator))
            let start = Date(
                timeIntervalSinceReferenceDate: firstDay + day * 86_400 + secondOfDay + quarter(0..<4, &generator))
            let state = states[Int.random(in: 0..<states.count, using: &generator)]
            let duration = quarter(240..<6_000, &generator)  // 1 to 25 minutes
            let paused = quarter(0..<2_400, &generator)
            let isOpen = state == "active" || state == "paused"
            return SessionValues(
                id: UUID.random(using: &generator),
                startTime: start,
                endTime: isOpen ? nil : start.addingTimeInterval(duration + paused),
                state: state,
                duration: duration,
                pausedDuration: paused,
                createdAt: start)
        }
    }

    /// A random whole number of quarter seconds in `quarters`, in seconds.
    static func quarter(_ quarters: Range<Int>, _ generator: inout SplitMix64) -> Double {
        Double(Int.random(in: quarters, using: &generator)) * 0.25
    }
}

extension UUID {
    /// A version 4 UUID from a seeded generator.
    static func random(using generator: inout SplitMix64) -> UUID {
        var bytes = (generator.next(), generator.next())
        return withUnsafeMutableBytes(of: &bytes) { raw in
            raw[6] = raw[6] & 0x0F | 0x40  // version 4
            raw[8] = raw[8] & 0x3F | 0x80  // RFC 4122 variant
            return UUID(uuid: raw.load(as: uuid_t.self))
        }
    }
}
