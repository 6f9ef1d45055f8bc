import Foundation

/// What a fetch must give back, summed so that checking 100,000 sessions costs little:
/// how many, their identities, start times and durations, and how many are still open.
/// Computed outside the clock, from the values saved and from the models or records fetched.
struct SessionDigest: Equatable, CustomStringConvertible {
    private(set) var count = 0
    private(set) var identities: UInt64 = 0
    /// Exact: every time is a whole number of quarter seconds below 2^50.
    private(set) var startTimes = 0.0
    private(set) var durations = 0.0
    private(set) var openSessions = 0

    init() {}

    init(_ sessions: [SessionValues]) {
        for session in sessions {
            add(id: session.id, startTime: session.startTime, endTime: session.endTime, duration: session.duration)
        }
    }

    mutating func add(id: UUID, startTime: Date, endTime: Date?, duration: Double) {
        count += 1
        let halves = withUnsafeBytes(of: id.uuid) {
            ($0.load(as: UInt64.self), $0.load(fromByteOffset: 8, as: UInt64.self))
        }
        identities &+= halves.0 &* 31 &+ halves.1
        startTimes += startTime.timeIntervalSinceReferenceDate
        durations += duration
        if endTime == nil { openSessions += 1 }
    }

    var description: String {
        "\(count) sessions (identities \(identities), start times \(startTimes), durations \(durations), \(openSessions) open)"
    }
}
