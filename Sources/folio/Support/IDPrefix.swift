import Foundation

/// The start of a document's id as a person gives it back to a command, the way git takes
/// an abbreviated commit hash: 4 to 32 of the UUID's hexadecimal digits, in either case,
/// with its hyphens where the UUID has them or without them (`0f6c1e2a`, `0F6C1E2A-3B`,
/// `0f6c1e2a3b`). A table shows ids so (see `DocumentIDs.abbreviations`).
struct IDPrefix: CustomStringConvertible {
    /// The fewest digits a prefix has, as git's shortest abbreviation: fewer would match
    /// several documents in any store of a few hundred.
    static let fewestDigits = 4

    /// The digits, each 0 to 15.
    let digits: [UInt8]
    /// The text as given.
    let description: String

    /// The prefix `text` writes, or `nil` when it is not one: a character other than a
    /// hexadecimal digit or a hyphen, a hyphen where a UUID has none, or too few or too many digits.
    init?(_ text: String) {
        var digits: [UInt8] = []
        var afterHyphen = false
        for character in text {
            if character == "-" {
                // A UUID's hyphens come after its 8th, 12th, 16th and 20th digits.
                guard !afterHyphen, [8, 12, 16, 20].contains(digits.count) else { return nil }
                afterHyphen = true
                continue
            }
            guard let digit = character.hexDigitValue, character.isASCII else { return nil }
            digits.append(UInt8(digit))
            afterHyphen = false
        }
        guard (Self.fewestDigits...32).contains(digits.count), !afterHyphen else { return nil }
        (self.digits, description) = (digits, text)
    }

    /// The lowest and the highest id that start with the prefix, as 128-bit numbers.
    var range: ClosedRange<DocumentIDs.Key> {
        var low = DocumentIDs.Key(high: 0, low: 0)
        var high = DocumentIDs.Key(high: 0, low: 0)
        for position in 0..<32 {
            let digit = position < digits.count ? UInt64(digits[position]) : 0
            let filler = position < digits.count ? digit : 0xF
            let shift = UInt64(60 - 4 * (position % 16))
            if position < 16 {
                low.high |= digit << shift
                high.high |= filler << shift
            } else {
                low.low |= digit << shift
                high.low |= filler << shift
            }
        }
        return low...high
    }
}
