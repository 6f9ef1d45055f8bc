import FolioTestSupport
import Testing

@testable import FolioJSON

/// Property tests: writing then reading gives the same value, and canonical text is a fixed point.
struct RoundTripTests {
    @Test(arguments: 0..<20)
    func randomValuesSurviveWriteThenRead(seed: UInt64) throws {
        var random = RandomJSON(seed: seed)
        for _ in 0..<100 {
            let value = random.value()
            let bytes = try JSONWriter().write(value)
            let read = try JSONReader().read(bytes)
            #expect(read == value, "seed \(seed): \(String(decoding: bytes, as: UTF8.self))")
            #expect(try JSONWriter().write(read) == bytes, "canonical text must be a fixed point")
        }
    }

    @Test(arguments: RandomJSON.edgeIntegers)
    func integersAreExact(_ integer: Int64) throws {
        let text = try canonical(.integer(integer))
        #expect(text == "\(integer)\n")
        #expect(try JSONReader().read(text) == .integer(integer))
    }

    @Test func randomDoubleBitPatternsRoundTripBitExact() throws {
        var random = RandomJSON(seed: 42)
        for _ in 0..<20_000 {
            let double = random.double()
            let read = try JSONReader().read(try JSONWriter().write([.double(double)]))
            guard case .array(let elements) = read, case .double(let back) = elements.first else {
                Issue.record("\(double) did not read back as a double but as \(read)")
                continue
            }
            #expect(back.bitPattern == double.bitPattern, "\(double)")
        }
    }

    @Test(arguments: [
        (0.1, "0.1"), (-0.0, "-0.0"), (1e-7, "1e-7"), (.leastNonzeroMagnitude, "5e-324"),
        (1.7976931348623157e308, "1.7976931348623157e308"),
        (1e16, "1e16"), (100.0, "100.0"), (2702.194, "2702.194"), (0.30000000000000004, "0.30000000000000004"),
        (-1.5e-10, "-1.5e-10"),
    ])
    func doublesAreWrittenInTheirShortestText(_ double: Double, _ expected: String) throws {
        #expect(try canonical(.double(double)) == expected + "\n")
    }

    @Test(arguments: [
        "1e400", "-1e400", "123456789012345678901234567890", "-9223372036854775809", "0.10000000000000000001", "-0",
        "1e-400", "2.4703282292062328e-324", "4.9406564584124654e-324",
    ])
    func numbersNoTypeHoldsExactlyKeepTheirText(_ text: String) throws {
        let value = try JSONReader().read("[\(text)]")
        #expect(value == .array([.number(text)]))
        #expect(try canonical(value) == "[\n  \(text)\n]\n")
    }

    @Test(arguments: [("1.50", 1.5), ("15e-1", 1.5), ("1E2", 100.0), ("0.000001", 1e-6), ("-0.0", -0.0)])
    func spellingsOfAnExactDoubleReadAsThatDouble(_ text: String, _ expected: Double) throws {
        #expect(try JSONReader().read(text) == .double(expected))
    }

    @Test func shortDecimalsReadAsTheDoubleStrtodGives() throws {
        var generator = SplitMix64(seed: 15)
        for _ in 0..<50_000 {
            let digits = String(UInt64.random(in: 0..<1_000_000_000_000_000, using: &generator))
            let point = Int.random(in: 0...digits.count, using: &generator)
            var text = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
            if text.hasPrefix(".") { text = "0" + text }
            if text.hasSuffix(".") { text += "0" }
            if Bool.random(using: &generator) { text += "e\(Int.random(in: -30...30, using: &generator))" }
            if Bool.random(using: &generator) { text = "-" + text }
            let expected = try #require(Double(text))
            switch try JSONReader().read(text) {
            case .double(let double): #expect(double.bitPattern == expected.bitPattern, "\(text)")
            case .number(let kept): #expect(kept == text)
            case let other: Issue.record("\(text) read as \(other)")
            }
        }
    }

    @Test func everyStringEdgeCaseRoundTrips() throws {
        for string in RandomJSON.edgeStrings {
            let bytes = try JSONWriter().write(.string(string))
            #expect(try JSONReader().read(bytes) == .string(string), "\(string.debugDescription)")
        }
    }

    @Test func stringsAreEscapedOnlyWhereJSONRequires() throws {
        let text = try canonical(.string("é/😀\u{2028}\u{7F}\"\\\n\t\u{1}"))
        #expect(text == "\"é/😀\u{2028}\u{7F}\\\"\\\\\\n\\t\\u0001\"\n")
    }

    @Test func everyEscapeReadsToItsCharacter() throws {
        let value = try JSONReader().read(#""\" \\ \/ \b \f \n \r \t \u0041 \u00e9 \ud83d\ude00 \u0000""#)
        #expect(value == .string("\" \\ / \u{8} \u{C} \n \r \t A é 😀 \u{0}"))
    }

    @Test func nulEscapeDoesNotTruncateTheString() throws {
        #expect(try JSONReader().read(#"["a\u0000b"]"#) == .array([.string("a\u{0}b")]))
    }
}
