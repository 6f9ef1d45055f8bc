import Foundation

/// Dates as Folio stores them: ISO 8601 in UTC with only the fraction digits needed.
///
/// `2026-11-22T09:30:00Z`, `2026-11-22T09:30:00.25Z`. The text reads back to the
/// exact same `Date` (the same bits of `timeIntervalSinceReferenceDate`): the
/// writer picks the fewest fraction digits for which the reader's arithmetic,
/// whole seconds plus the fraction, gives the original double. The rare date that
/// no such text can carry (beyond years 0000-9999, or within a rounding error of
/// 2001-01-01 on its negative side) is stored as a JSON number of seconds since
/// 2001-01-01T00:00:00Z instead, which is also bit-exact.
public enum ISO8601Timestamp {
    /// Seconds from 1970-01-01 to 2001-01-01, Foundation's reference date.
    private static let referenceFromUnixEpoch: Int64 = 978_307_200
    /// Whole seconds within this bound are exact in a `Double`.
    private static let exactSecondsBound = 9_007_199_254_740_992.0  // 2^53

    /// The stored form of a date: ISO 8601 text, or seconds since 2001 when no text is exact.
    public static func jsonValue(for date: Date) -> JSONValue {
        let interval = date.timeIntervalSinceReferenceDate
        guard interval.isFinite, interval.magnitude < exactSecondsBound else {
            return DoubleCoding.jsonValue(for: interval)
        }
        let whole = interval.rounded(.down)
        let fraction = interval - whole
        let seconds = Int64(whole)
        guard fraction >= 0, fraction < 1,
            let digits = fractionDigits(seconds: seconds, fraction: fraction, interval: interval),
            let text = format(referenceSeconds: seconds, fractionDigits: digits)
        else { return .double(interval) }
        return .string(text)
    }

    /// The date in a stored value: ISO 8601 text (UTC `Z` or an offset like `+01:00`) or seconds since 2001.
    public static func date(from value: JSONValue) throws(JSONError) -> Date {
        switch value {
        case .string(let text):
            if let date = parse(text) { return date }
            if let interval = DoubleCoding.nonFinite(text) { return Date(timeIntervalSinceReferenceDate: interval) }
            throw JSONError(.invalidValue("\"\(text)\" is not an ISO 8601 date such as 2026-11-22T09:30:00Z"))
        case .integer(let seconds): return Date(timeIntervalSinceReferenceDate: Double(seconds))
        case .double(let seconds): return Date(timeIntervalSinceReferenceDate: seconds)
        default: throw JSONError(.typeMismatch(expected: "a date (ISO 8601 text)", found: value.typeName))
        }
    }

    /// The fewest fraction digits (as text, without the point) that read back exactly.
    private static func fractionDigits(seconds: Int64, fraction: Double, interval: Double) -> String? {
        if fraction == 0 { return "" }
        func readsBack(_ digits: String) -> Bool { Double(seconds) + Double("0." + digits)! == interval }
        var scale = 1.0
        for count in 1...17 {
            scale *= 10
            let scaled = (fraction * scale).rounded()
            guard scaled < scale else { continue }
            let digits = String(Int64(scaled))
            let padded = String(repeating: "0", count: count - digits.count) + digits
            if readsBack(padded) { return padded }
        }
        // The fraction's own shortest digits always read back to it exactly.
        let exact = plainDigits(fraction)
        return readsBack(exact) ? exact : nil
    }

    /// The digits after the point of a fraction in [0, 1), from its shortest text, without exponent.
    private static func plainDigits(_ fraction: Double) -> String {
        let text = fraction.description  // "0.25" or "1.5e-05"
        guard let e = text.firstIndex(of: "e") else { return String(text.dropFirst(2)) }
        let mantissa = text[..<e].replacingOccurrences(of: ".", with: "")
        let exponent = Int(text[text.index(after: e)...])!  // negative for fractions
        return String(repeating: "0", count: -exponent - 1) + mantissa
    }

    private static func format(referenceSeconds: Int64, fractionDigits: String) -> String? {
        let (unix, overflow) = referenceSeconds.addingReportingOverflow(referenceFromUnixEpoch)
        guard !overflow else { return nil }
        let days = unix.floorDiv(86_400)
        let secondOfDay = unix - days * 86_400
        let (year, month, day) = CivilCalendar.date(fromDaysSinceUnixEpoch: days)
        guard (0...9999).contains(year) else { return nil }
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
        text += pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if !fractionDigits.isEmpty { text += "." + fractionDigits }
        return text + "Z"
    }

    private static func pad(_ number: Int64, _ width: Int) -> String {
        let digits = String(number)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, strictly (no out-of-range fields).
    static func parse(_ text: String) -> Date? {
        // Read in place: copying the text into an array cost an allocation per date, and
        // every fetched model decodes its dates here (a range query parses one per row).
        var text = text
        return text.withUTF8 { parse($0) }
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var index = 0
        func number(_ width: Int) -> Int64? {
            guard index + width <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[index..<(index + width)] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            index += width
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
            expect("Tt"), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
            let second = number(2),
            (1...12).contains(month), day >= 1, day <= CivilCalendar.daysIn(month: month, year: year),
            hour < 24, minute < 60, second < 60
        else { return nil }

        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                index += 1
            }
            guard index > start else { return nil }
            fraction = Double("0." + String(decoding: bytes[start..<index], as: UTF8.self))!
        }
        var offsetSeconds: Int64 = 0
        if expect("Zz") {
        } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign: Int64 = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let offsetHours = number(2), expect(":"), let offsetMinutes = number(2), offsetHours < 24,
                offsetMinutes < 60
            else { return nil }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }

        let days = CivilCalendar.daysSinceUnixEpoch(year: year, month: month, day: day)
        let unix = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSinceReferenceDate: Double(unix - referenceFromUnixEpoch) + fraction)
    }
}

/// The proleptic Gregorian calendar as day counts (Howard Hinnant's civil-date algorithms).
/// Shared with the store, which checks day folders against it.
package enum CivilCalendar {
    static func daysSinceUnixEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    package static func date(fromDaysSinceUnixEpoch days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    package static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

extension Int64 {
    /// Division rounding toward negative infinity, for splitting seconds into days.
    package func floorDiv(_ divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
