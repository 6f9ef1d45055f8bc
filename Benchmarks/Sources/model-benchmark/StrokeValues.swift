import BenchmarkSupport
import Foundation

/// One rowing session and its strokes, the values both sides save stroke by stroke, as
/// the Rowing app does with a PM5 monitor's data (one save per stroke, about every 2.5 s).
struct StrokeValues {
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

    /// The session every stroke belongs to.
    struct Session {
        var id: UUID
        var athleteID: UUID
        var pm5DeviceID = "PM5-430912345"
        /// 2025-03-14T07:30:00Z.
        var startTime = Date(timeIntervalSinceReferenceDate: 763_630_200)
    }

    static func session(seed: UInt64) -> Session {
        var generator = SplitMix64(seed: seed)
        return Session(id: UUID.random(using: &generator), athleteID: UUID.random(using: &generator))
    }

    /// `count` strokes of a steady piece at about 24 strokes a minute.
    static func make(count: Int, after start: Date, seed: UInt64) -> [StrokeValues] {
        var generator = SplitMix64(seed: seed)
        var distance = 0.0
        return (0..<count).map { index in
            let length = SessionValues.quarter(38..<46, &generator)  // 9.5 to 11.25 m
            distance += length
            let power = SessionValues.quarter(720..<880, &generator)
            return StrokeValues(
                timestamp: start.addingTimeInterval(Double(index) * 2.5),
                distance: distance,
                pace: SessionValues.quarter(420..<500, &generator),
                strokeRate: Int.random(in: 22...26, using: &generator),
                power: power,
                strokeCount: index + 1,
                heartRate: index % 10 == 0 ? nil : Int.random(in: 135...172, using: &generator),
                strokePhase: StrokePhase.allCases[index % StrokePhase.allCases.count],
                driveTime: SessionValues.quarter(3..<4, &generator),
                recoveryTime: SessionValues.quarter(6..<8, &generator),
                strokeLength: 1.5,
                peakForce: SessionValues.quarter(2_400..<3_200, &generator),
                averageForce: SessionValues.quarter(1_400..<1_900, &generator),
                workPerStroke: power * 0.75)
        }
    }
}
