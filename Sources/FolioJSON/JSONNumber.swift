/// How number text becomes a `JSONValue` and how doubles become text.
///
/// The rule that keeps hand-written numbers safe: a number is `.integer` or
/// `.double` only when writing that value back gives the same number (the same
/// decimal value, perhaps spelled differently, as `1.50` for `1.5`); otherwise it
/// stays `.number` with its text.
enum JSONNumber {
    /// The value of a number's text, which must already match JSON's number grammar.
    static func value(ofValidText text: UnsafeBufferPointer<UInt8>) -> JSONValue {
        var isInteger = true
        for byte in text where byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            isInteger = false
            break
        }
        if isInteger, let integer = parseInt64(text) { return .integer(integer) }
        if !isInteger, let double = fastPathDouble(text) { return .double(double) }

        let string = String(decoding: text, as: UTF8.self)
        guard !isInteger, let double = Double(string), double.isFinite else { return .number(string) }
        let digitCount = significantDigitCount(text)
        if digitCount <= 15, digitCount == 0 ? double == 0 : double.magnitude >= .leastNormalMagnitude {
            // At most 15 significant digits and a normal double (or a written zero): the
            // shortest text of the double has the same digits (15 = DBL_DIG), so no
            // comparison is needed. Underflow to zero and subnormals take the slow path.
            return .double(double)
        }
        let canonical = canonicalText(double)
        let same = canonical.utf8.withContiguousStorageIfAvailable { DecimalForm($0) == DecimalForm(text) } ?? false
        return same ? .double(double) : .number(string)
    }

    /// Exact powers of ten that a `Double` holds: 10^0 ... 10^22.
    private static let exactPowersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { value, _ in value * 10 }
    }

    /// Clinger's fast path: a decimal of at most 15 significant digits whose power of ten is
    /// at most 22 is `mantissa × 10^e` or `mantissa ÷ 10^-e` with both operands exact, so one
    /// correctly rounded operation gives the same double `strtod` would. Such a number is
    /// also one whose shortest text has its digits (15 = DBL_DIG), so it is a `.double`.
    /// `nil` sends the text to the general path.
    private static func fastPathDouble(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        let negative = text.first == UInt8(ascii: "-")
        if negative { index = 1 }
        var mantissa: UInt64 = 0
        var digits = 0  // digits in the mantissa, from the first non-zero one
        var fractionDigits = 0
        var inFraction = false
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                if mantissa != 0 || byte != UInt8(ascii: "0") {
                    digits += 1
                    if digits > 15 { return nil }
                    mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
                }
                if inFraction { fractionDigits += 1 }
            } else {
                break  // e or E
            }
            index += 1
        }
        var exponent = 0
        if index < text.count {
            index += 1
            var exponentNegative = false
            if text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                exponentNegative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            while index < text.count {
                exponent = exponent * 10 + Int(text[index] - UInt8(ascii: "0"))
                if exponent > 400 { return nil }
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        exponent -= fractionDigits
        guard exponent >= -22, exponent <= 22 else { return mantissa == 0 ? (negative ? -0.0 : 0.0) : nil }
        var value = Double(mantissa)
        value = exponent < 0 ? value / exactPowersOfTen[-exponent] : value * exactPowersOfTen[exponent]
        return negative ? -value : value
    }

    /// An exact `Int64`, or `nil` on overflow and for `-0` (which would lose its sign).
    private static func parseInt64(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        var index = 0
        let negative = text.first == UInt8(ascii: "-")
        if negative { index = 1 }
        var magnitude: UInt64 = 0
        while index < text.count {
            let digit = UInt64(text[index] &- UInt8(ascii: "0"))
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            magnitude = sum
            index += 1
        }
        if negative {
            if magnitude == 0 { return nil }
            if magnitude <= UInt64(Int64.max) { return -Int64(magnitude) }
            return magnitude == UInt64(Int64.max) + 1 ? .min : nil
        }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    /// The count of mantissa digits between the first and last non-zero digit.
    private static func significantDigitCount(_ text: UnsafeBufferPointer<UInt8>) -> Int {
        var first = -1
        var last = -1
        var position = 0
        for byte in text {
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { break }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { continue }
            if byte != UInt8(ascii: "0") {
                if first < 0 { first = position }
                last = position
            }
            position += 1
        }
        return first < 0 ? 0 : last - first + 1
    }

    /// The canonical text of a finite double: the shortest digits that read back to the
    /// same bits, with a JSON-style exponent (`1e-7`, `1e16`, `-0.0`, `0.1`, `100.0`).
    static func canonicalText(_ value: Double) -> String {
        let text = value.description  // shortest round-trip digits (Swift's Errol/SwiftDtoa)
        guard let e = text.utf8.firstIndex(of: UInt8(ascii: "e")) else { return text }
        // Swift writes exponents as e-07 / e+16; JSON needs neither the plus nor the padding.
        var exponent = text.utf8[text.utf8.index(after: e)...]
        var result = String(text[..<e]) + "e"
        if exponent.first == UInt8(ascii: "-") { result += "-" }
        if exponent.first == UInt8(ascii: "-") || exponent.first == UInt8(ascii: "+") {
            exponent = exponent.dropFirst()
        }
        while exponent.count > 1, exponent.first == UInt8(ascii: "0") { exponent = exponent.dropFirst() }
        return result + String(Substring(exponent))
    }

    /// Whether a text is a JSON number, for `.number` values about to be written.
    static func isValidText(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        func digits() -> Int {
            let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        if bytes.first == UInt8(ascii: "0") {
            bytes = bytes.dropFirst()
        } else if digits() == 0 {
            return false
        }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            if digits() == 0 { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            if digits() == 0 { return false }
        }
        return bytes.isEmpty
    }
}

/// A decimal number reduced to sign, significant digits and exponent, so two
/// spellings of one value (`1.50`, `15e-1`) compare equal.
private struct DecimalForm: Equatable {
    var negative = false
    var digits: [UInt8] = []
    /// The value is 0.d1d2d3... × 10^exponent.
    var exponent = 0

    init(_ text: UnsafeBufferPointer<UInt8>) {
        var index = 0
        if index < text.count, text[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        var pointPosition: Int?
        var digitCount = 0
        var leadingZeros = 0
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: ".") {
                pointPosition = digitCount
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                if digits.isEmpty, byte == UInt8(ascii: "0") {
                    leadingZeros += 1
                } else {
                    digits.append(byte)
                }
                digitCount += 1
            } else {
                break
            }
            index += 1
        }
        var explicitExponent = 0
        if index < text.count {  // e or E
            index += 1
            var exponentNegative = false
            if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                exponentNegative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            while index < text.count {
                explicitExponent = min(explicitExponent * 10 + Int(text[index] - UInt8(ascii: "0")), 1_000_000)
                index += 1
            }
            if exponentNegative { explicitExponent = -explicitExponent }
        }
        while digits.last == UInt8(ascii: "0") { digits.removeLast() }
        exponent = (pointPosition ?? digitCount) - leadingZeros + explicitExponent
        if digits.isEmpty { exponent = 0 }
    }
}
