import Glibc

/// Finds `\uD800`-`\uDFFF` escapes without their partner.
///
/// YAJL 2.1.0 accepts them silently, turning a lone high surrogate into `?` and
/// a lone low one into invalid UTF-8, so the reader checks the raw text itself.
enum SurrogateEscapes {
    /// The offset of the first unpaired surrogate escape's backslash, if any.
    ///
    /// Every backslash is taken as the start of an escape: inside strings that is
    /// what it is, and outside strings the text is invalid anyway and the parser
    /// reports that error (the reader keeps whichever error comes first).
    static func firstUnpaired(in text: UnsafeBufferPointer<UInt8>) -> Int? {
        scan(text, escapesBefore: text.count).unpaired
    }

    /// The offset of the first unpaired surrogate escape whose backslash is before `limit`, if
    /// any, else where the scan is to go on (at or past `limit`): text read in pieces is scanned
    /// up to the last bytes of each, which may begin an escape whose rest is in the next piece.
    static func scan(_ text: UnsafeBufferPointer<UInt8>, escapesBefore limit: Int) -> (unpaired: Int?, resume: Int) {
        guard let base = text.baseAddress else { return (nil, 0) }
        var index = 0
        while index < limit {
            guard let found = memchr(base + index, Int32(UInt8(ascii: "\\")), limit - index) else {
                return (nil, limit)
            }
            let backslash = UnsafeRawPointer(found) - UnsafeRawPointer(base)
            guard let unit = codeUnit(in: text, escapeAt: backslash) else {
                index = backslash + 2  // another escape (or a malformed one, which the parser reports)
                continue
            }
            switch unit {
            case 0xD800...0xDBFF:
                guard let low = codeUnit(in: text, escapeAt: backslash + 6), (0xDC00...0xDFFF).contains(low) else {
                    return (backslash, index)
                }
                index = backslash + 12
            case 0xDC00...0xDFFF:
                return (backslash, index)
            default:
                index = backslash + 6
            }
        }
        return (nil, index)
    }

    /// The longest escape the scan reads at once: a surrogate pair, `\uD83D\uDE00`.
    static let longestEscape = 12

    /// The UTF-16 unit of a `\uXXXX` escape starting at `offset`, or `nil` if none stands there.
    private static func codeUnit(in text: UnsafeBufferPointer<UInt8>, escapeAt offset: Int) -> UInt16? {
        guard offset + 6 <= text.count, text[offset] == UInt8(ascii: "\\"), text[offset + 1] == UInt8(ascii: "u") else {
            return nil
        }
        var unit: UInt16 = 0
        for byte in text[(offset + 2)..<(offset + 6)] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            unit = unit << 4 | UInt16(digit)
        }
        return unit
    }
}
