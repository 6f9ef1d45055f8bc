import ArgumentParser

/// The numbers a user types into options, each read by one of these: a value out of its
/// range (`nan`, `inf`, `1e308` seconds, a negative count, a digit string past 64 bits)
/// is refused before the command runs. ArgumentParser's message names the option and the
/// value, then says why and what to give instead, and the exit code is 64 (bad usage), as
/// for a value that does not parse at all. Each such option is declared with
/// `parsing: .unconditional`, so a value that starts with `-` (`-1`, `-inf`) reaches the
/// check and is refused for what it is, not read as another option.
enum NumberOption {
    /// Why a typed number was refused, and what to type instead.
    struct Refusal: Error, CustomStringConvertible {
        var description: String
    }

    /// The longest `--lock-timeout`, in seconds: a day.
    static let maximumLockTimeout: Double = 86_400

    /// Reads seconds: a finite number from 0 to `maximum` (`maximumName` says it in words),
    /// fractions included.
    static func seconds(upTo maximum: Double, _ maximumName: String) -> @Sendable (String) throws -> Double {
        { text in
            let wanted = "give a number of seconds from 0 to \(Int(maximum)) (\(maximumName)), such as 30 or 0.5"
            guard let seconds = Double(text), !seconds.isNaN else {
                throw Refusal(description: "it is not a number; \(wanted)")
            }
            guard seconds >= 0 else { throw Refusal(description: "it is negative; \(wanted)") }
            guard seconds <= maximum else { throw Refusal(description: "it is more than \(maximumName); \(wanted)") }
            return seconds
        }
    }

    /// Reads a whole number from `minimum` to the largest `Number` holds, in decimal digits
    /// with an optional sign.
    static func whole<Number: FixedWidthInteger & Sendable>(from minimum: Number) -> @Sendable (String) throws -> Number
    {
        { text in
            let wanted = "give a whole number from \(minimum) to \(Number.max)"
            if let number = Number(text, radix: 10) {
                guard number >= minimum else { throw Refusal(description: "it is less than \(minimum); \(wanted)") }
                return number
            }
            let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : Substring(text)
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw Refusal(description: "it is not a whole number; \(wanted)")
            }
            let bound = text.first == "-" ? "less than \(minimum)" : "more than \(Number.max)"
            throw Refusal(description: "it is \(bound); \(wanted)")
        }
    }
}
