import FolioTestSupport

@testable import FolioJSON

/// Random JSON values for property tests, biased toward the edge cases that break codecs.
struct RandomJSON {
    var generator: SplitMix64

    init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    static let edgeIntegers: [Int64] = [
        0, 1, -1, .max, .min, .max - 1, .min + 1, 1 << 53, (1 << 53) + 1, -(1 << 53) - 1,
    ]
    static let edgeDoubles: [Double] = [
        0.1, -0.0, 0.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 1.7976931348623157e308,
        -1.7976931348623157e308, 2.2250738585072014e-308,
        1e-7, 1e16, 1e21, 123456789.125, 2702.194, 0.30000000000000004, 9_007_199_254_740_994, 1.5, 100.0,
    ]
    static let edgeStrings: [String] = [
        "", "\"", "\\", "/", "\u{0}", "\u{1}", "\u{1F}", "\u{7F}", "\u{8}\u{C}\n\r\t", "\u{2028}\u{2029}",
        "😀", "👩🏽‍💻", "\u{10FFFF}", "\u{FEFF}", "é", "e\u{301}", "\\u0041", "Tea \"green\" \\ 100%", "𝄞 clef",
    ]

    mutating func integer() -> Int64 {
        Bool.random(using: &generator)
            ? Self.edgeIntegers.randomElement(using: &generator)! : Int64.random(in: .min ... .max, using: &generator)
    }

    mutating func double() -> Double {
        if Bool.random(using: &generator) { return Self.edgeDoubles.randomElement(using: &generator)! }
        while true {  // any finite bit pattern, subnormals included
            let candidate = Double(bitPattern: generator.next())
            if candidate.isFinite { return candidate }
        }
    }

    mutating func string() -> String {
        if Int.random(in: 0..<3, using: &generator) == 0 { return Self.edgeStrings.randomElement(using: &generator)! }
        let length = Int.random(in: 0..<12, using: &generator)
        var scalars = String.UnicodeScalarView()
        for _ in 0..<length {
            let plane = Int.random(in: 0..<10, using: &generator)
            let value: UInt32 =
                switch plane {
                case 0..<5: UInt32.random(in: 0x20..<0x7F, using: &generator)
                case 5: UInt32.random(in: 0..<0x20, using: &generator)
                case 6..<8: UInt32.random(in: 0x80..<0xD800, using: &generator)
                case 8: UInt32.random(in: 0xE000..<0x10000, using: &generator)
                default: UInt32.random(in: 0x10000...0x10FFFF, using: &generator)
                }
            scalars.append(Unicode.Scalar(value)!)
        }
        return String(scalars)
    }

    /// A value nested at most `depth` levels.
    mutating func value(depth: Int = 4) -> JSONValue {
        let kind = Int.random(in: 0..<(depth > 0 ? 9 : 6), using: &generator)
        switch kind {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .integer(integer())
        case 3: return .double(double())
        case 4: return .string(string())
        case 5:
            return .number(
                ["1e400", "-1e400", "123456789012345678901234567890", "0.10000000000000000001", "-0", "1e-400"]
                    .randomElement(using: &generator)!)
        case 6: return .array((0..<Int.random(in: 0..<5, using: &generator)).map { _ in value(depth: depth - 1) })
        default:
            var object = JSONObject()
            for _ in 0..<Int.random(in: 0..<6, using: &generator) { object[string()] = value(depth: depth - 1) }
            return .object(object)
        }
    }
}
