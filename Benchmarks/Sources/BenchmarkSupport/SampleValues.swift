import FolioJSON
import Foundation

/// Deterministic field values for the sample records: identifiers, dates, numbers
/// and text, drawn from a seeded generator and formatted as Folio stores them.
package struct SampleValues {
    /// 2025-01-01T00:00:00Z, in seconds since Foundation's reference date.
    private static let firstInstant = 757_382_400.0
    /// The dates span two years from `firstInstant`.
    private static let spanInSeconds = 2 * 365 * 86_400

    private var generator: SplitMix64

    package init(seed: UInt64) {
        generator = SplitMix64(seed: seed)
    }

    /// A random version-4 UUID, as its `uuidString`.
    mutating func uuid() -> String {
        var bytes = (generator.next(), generator.next())
        bytes.0 = bytes.0 & ~0xF000 | 0x4000  // version 4
        bytes.1 = bytes.1 & ~(0xC0 << 56) | (0x80 << 56)  // RFC 4122 variant
        let uuid = withUnsafeBytes(of: (bytes.0.bigEndian, bytes.1.bigEndian)) { raw in
            UUID(uuid: raw.load(as: uuid_t.self))
        }
        return uuid.uuidString
    }

    /// A moment within the sampled two years, in seconds since 2001, in whole
    /// seconds or with a short fraction (as `...:00.25Z`).
    mutating func instant() -> Double {
        let seconds = Double(Int.random(in: 0..<Self.spanInSeconds, using: &generator))
        return Self.firstInstant + seconds + pick([0, 0, 0, 0.25, 0.5, 0.125])
    }

    /// A moment as Folio stores a `Date`.
    func timestamp(_ instant: Double) -> String {
        ISO8601Timestamp.jsonValue(for: Date(timeIntervalSinceReferenceDate: instant)).stringValue!
    }

    /// A whole number in a range.
    mutating func integer(in range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &generator)
    }

    /// A decimal with up to `places` fraction digits (as 2702.194 for 3 places).
    mutating func decimal(in range: ClosedRange<Double>, places: Int) -> Double {
        let scale = (0..<places).reduce(1.0) { product, _ in product * 10 }
        let units = Int.random(in: Int(range.lowerBound * scale)...Int(range.upperBound * scale), using: &generator)
        return Double(units) / scale
    }

    /// True with the given probability.
    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &generator) < probability
    }

    /// One of the options, uniformly.
    mutating func pick<Element>(_ options: [Element]) -> Element {
        options.randomElement(using: &generator)!
    }
}
