import FolioTestSupport
import Foundation

/// The example generator's dice: SplitMix64 from a fixed seed, with the few draws the
/// examples need written out here, so that the data never changes under a new standard
/// library (whose `random(in:using:)` may pick its numbers differently from one release to
/// the next). Fractions are drawn as whole numbers of tenths or hundredths and divided
/// once, so every `Double` is the nearest to a short decimal and prints as one.
struct ExampleRandom {
    private var generator: SplitMix64

    init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    /// 64 random bits.
    mutating func next() -> UInt64 { generator.next() }

    /// A whole number in the range (the modulo's bias is far below anything the examples show).
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// `true` with about this probability.
    mutating func chance(_ probability: Double) -> Bool {
        Double(next() >> 11) * 0x1p-53 < probability
    }

    /// A number of tenths in the range, as a `Double`: `tenths(12...15)` is 1.2 to 1.5.
    mutating func tenths(_ range: ClosedRange<Int>) -> Double { Double(int(range)) / 10 }

    /// A number of hundredths in the range, as a `Double`.
    mutating func hundredths(_ range: ClosedRange<Int>) -> Double { Double(int(range)) / 100 }

    /// One of the elements.
    mutating func pick<Element>(_ elements: [Element]) -> Element { elements[int(0...elements.count - 1)] }

    /// A version 4 UUID made of random bits.
    mutating func uuid() -> UUID {
        let high = next() & 0xFFFF_FFFF_FFFF_0FFF | 0x0000_0000_0000_4000
        let low = next() & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000
        let b =
            (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * $0)) }
            + (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * $0)) }
        return UUID(
            uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])
        )
    }

    /// Random bytes as lowercase hexadecimal, two digits a byte.
    mutating func hex(bytes: Int) -> String {
        let digits = Array("0123456789abcdef")
        return String((0..<bytes * 2).map { _ in digits[Int(next() >> 60)] })
    }
}
