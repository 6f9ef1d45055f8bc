import FolioTestSupport
import Foundation
import Testing

@testable import FolioJSON

struct ValueCodingTests {
    @Test func randomDatesRoundTripBitExactThroughText() throws {
        var generator = SplitMix64(seed: 2026)
        for _ in 0..<50_000 {
            // Any instant from year 1000 to 3000, with every fraction a Double can hold.
            let interval = Double.random(in: -3.2e10...3.1e10, using: &generator)
            let date = Date(timeIntervalSinceReferenceDate: interval)
            let bytes = try JSONWriter().write(date.json)
            let back = try Date(json: JSONReader().read(bytes))
            #expect(back.timeIntervalSinceReferenceDate.bitPattern == interval.bitPattern, "\(interval)")
        }
    }

    @Test(arguments: [
        (0.0, "2001-01-01T00:00:00Z"), (0.25, "2001-01-01T00:00:00.25Z"), (-978_307_200, "1970-01-01T00:00:00Z"),
        (817_032_600, "2026-11-22T09:30:00Z"), (817_032_600.5, "2026-11-22T09:30:00.5Z"),
        (-63_113_904_000, "0001-01-01T00:00:00Z"),
        (-1, "2000-12-31T23:59:59Z"), (-0.5, "2000-12-31T23:59:59.5Z"),
    ])
    func datesUseOnlyTheFractionDigitsTheyNeed(_ interval: Double, _ text: String) throws {
        #expect(Date(timeIntervalSinceReferenceDate: interval).json == .string(text))
        #expect(try Date(json: .string(text)).timeIntervalSinceReferenceDate == interval)
    }

    @Test func aTenthOfASecondIsWrittenAsOneDigit() {
        let date = Date(timeIntervalSinceReferenceDate: 817_032_600 + 0.1)
        #expect(date.json == .string("2026-11-22T09:30:00.1Z"))
    }

    @Test func datesWithoutAnExactTextAreStoredAsSecondsAndRoundTrip() throws {
        for interval in [-1e-300, 1e17, -1e17, Double.greatestFiniteMagnitude] {
            let date = Date(timeIntervalSinceReferenceDate: interval)
            #expect(date.json == .double(interval))
            #expect(try Date(json: date.json).timeIntervalSinceReferenceDate.bitPattern == interval.bitPattern)
        }
    }

    @Test func offsetsAndLowerCaseSeparatorsAreAcceptedOnReading() throws {
        let expected = try Date(json: "2026-11-22T09:30:00Z")
        #expect(try Date(json: "2026-11-22T10:30:00+01:00") == expected)
        #expect(try Date(json: "2026-11-22T04:00:00-05:30") == expected)
        #expect(try Date(json: "2026-11-22t09:30:00z") == expected)
    }

    @Test(arguments: [
        "2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z", "2026-11-22T24:00:00Z", "2026-11-22T09:30:00", "2026-11-22",
        "2026-11-22T09:30:00.Z", "2026-11-22T09:30:00Z ", "26-11-22T09:30:00Z", "2026-11-22T09:60:00Z", "yesterday",
    ])
    func invalidDateTextIsRejectedWithTheExpectedForm(_ text: String) {
        let error = try? #require(throws: JSONError.self) { try Date(json: .string(text)) }
        #expect(error?.message.contains("ISO 8601") == true, "\(text)")
    }

    @Test func leapDayIsAccepted() throws {
        #expect(try Date(json: "2024-02-29T12:00:00Z").json == "2024-02-29T12:00:00Z")
    }

    @Test func nonFiniteDoublesAreStoredAsStrings() throws {
        #expect(Double.nan.json == "NaN")
        #expect(Double.infinity.json == "Infinity")
        #expect((-Double.infinity).json == "-Infinity")
        #expect(try Double(json: "NaN").isNaN)
        #expect(try Double(json: "-Infinity") == -.infinity)
        #expect(throws: JSONError.self) { try Double(json: "infinity") }
    }

    @Test func floatsAreWrittenWithTheirOwnShortestDigitsAndRoundTrip() throws {
        #expect(Float(0.1).json == .double(0.1))
        var generator = SplitMix64(seed: 9)
        for _ in 0..<20_000 {
            let float = Float(bitPattern: UInt32(truncatingIfNeeded: generator.next()))
            guard float.isFinite else { continue }
            let back = try Float(json: JSONReader().read(JSONWriter().write(float.json)))
            #expect(back.bitPattern == float.bitPattern, "\(float)")
        }
    }

    @Test func integersOfEveryWidthAreExactAndRangeChecked() throws {
        #expect(UInt64.max.json == .number("18446744073709551615"))
        #expect(try UInt64(json: JSONReader().read("18446744073709551615")) == .max)
        #expect(try Int8(json: 127) == 127)
        #expect(throws: JSONError.self) { try Int8(json: 128) }
        #expect(throws: JSONError.self) { try UInt(json: -1) }
        #expect(throws: JSONError.self) { try Int(json: 1.5) }
        #expect(try Int(json: 3.0) == 3)
    }

    @Test func decimalsKeepTheirDigits() throws {
        let decimal = Decimal(string: "12345678901234567890.123456789")!
        let text = try JSONWriter().string(for: decimal.json)
        #expect(text == "12345678901234567890.123456789\n")
        #expect(try Decimal(json: JSONReader().read(text)) == decimal)
        #expect(try Decimal(json: JSONReader().read("3.14")) == Decimal(string: "3.14")!)
    }

    @Test func uuidsDataAndURLsRoundTrip() throws {
        let uuid = UUID()
        #expect(uuid.json == .string(uuid.uuidString))
        #expect(try UUID(json: .string(uuid.uuidString.lowercased())) == uuid)
        #expect(throws: JSONError.self) { try UUID(json: "not-a-uuid") }
        let data = Data((0...255).map(UInt8.init))
        #expect(try Data(json: data.json) == data)
        #expect(Data([0xFF, 0x00]).json == "/wA=")
        #expect(throws: JSONError.self) { try Data(json: "%%%") }
        let url = URL(string: "https://example.com/a%20b?q=1")!
        #expect(try URL(json: url.json) == url)
    }

    @Test func optionalsArraysAndDictionariesCompose() throws {
        let value: [String: [Int?]] = ["b": [1, nil], "a": []]
        #expect(value.json == ["a": [], "b": [1, nil]], "dictionary keys are sorted")
        #expect(try [String: [Int?]](json: value.json) == value)
        #expect(try String?(json: nil) == nil)
    }

    @Test func typeMismatchNamesBothTypes() {
        let error = try? #require(throws: JSONError.self) { try String(json: 4) }
        #expect(error?.kind == .typeMismatch(expected: "a string", found: "number"))
    }
}
