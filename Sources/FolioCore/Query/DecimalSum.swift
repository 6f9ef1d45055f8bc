/// A sum of doubles that comes out as the numbers' written sum: 0.1 + 0.2 is 0.3, and the
/// minutes of a year of sessions `845688.93`, not `845688.9300000002`.
///
/// Two errors part a plain running sum from the numbers' written sum. Each addition rounds,
/// and over a million numbers the roundings add up to more than a cent; the sum here is
/// compensated (Neumaier's variant of Kahan summation: the part each addition rounds away
/// is kept and added back at the end), which leaves one rounding's error, whatever the
/// count. And the numbers were written in decimal, which a double holds only nearly: 0.1
/// is 0.1000000000000000055…, so even an exact sum of the doubles is not the decimal sum.
/// That error is removed by what decimal text promises: numbers written with at most `d`
/// digits after the point sum to a number with at most `d` too. So each number's digits
/// are found (the fewest with which its shortest decimal text reads back to it, as JSON
/// and Swift write it), and the sum is rounded to the most of them, but only when the
/// error bound of both (the doubles' distance from their decimals, `u·Σ|x|`, plus the
/// compensated sum's, `2u·|s|` and `n·u²·Σ|x|`, with `u` = 2⁻⁵³) is below a quarter of
/// the last digit kept, so that the rounding cannot go the wrong way. Numbers with no short
/// decimal text (`duration / 60`'s thirds) are summed without the rounding; the sum is
/// then the compensated one, shown in the shortest text that reads back to it.
struct DecimalSum {
    /// The running sum, and what its additions rounded away.
    private var sum = 0.0
    private var compensation = 0.0
    /// The sum of the numbers' magnitudes, for the error bound.
    private var magnitude = 0.0
    private var count = 0
    /// The most digits after the point any number needs; `nil` once one has no short
    /// decimal text.
    private var fractionDigits: Int? = 0

    /// The most digits after the point a number's decimal text is looked for with.
    private static let mostFractionDigits = 17

    /// Adds a number to the sum.
    mutating func add(_ number: Double) {
        count += 1
        magnitude += abs(number)
        let next = sum + number
        compensation += abs(sum) >= abs(number) ? (sum - next) + number : (number - next) + sum
        sum = next
        if let digits = fractionDigits, !Self.reads(number, withFractionDigits: digits) {
            fractionDigits = (digits + 1...Self.mostFractionDigits).first { Self.reads(number, withFractionDigits: $0) }
        }
    }

    /// The sum: the numbers' decimal sum when their digits tell it, else the compensated sum.
    var value: Double {
        let compensated = sum + compensation
        // An infinity or a NaN among the numbers, or a sum past the largest double.
        guard compensated.isFinite else { return sum }
        guard let digits = fractionDigits else { return compensated }
        let scale = Self.powerOfTen(digits)
        let unit = 0x1p-53
        let bound = unit * magnitude + 2 * unit * abs(compensated) + Double(count) * unit * unit * magnitude
        // Scaled to the last digit, the sum must stay an integer a double holds exactly.
        guard bound * scale < 0.25, abs(compensated) * scale < 0x1p50 else { return compensated }
        return (compensated * scale).rounded() / scale
    }

    /// Whether `number` is the double nearest to a decimal with `digits` digits after the
    /// point: the integer of its scaled value, scaled back, is the number again.
    private static func reads(_ number: Double, withFractionDigits digits: Int) -> Bool {
        // A whole number needs no digits after the point, however large.
        if number.rounded() == number { return true }
        let scale = powerOfTen(digits)
        let scaled = number * scale
        guard abs(scaled) < 0x1p52 else { return false }
        return scaled.rounded() / scale == number
    }

    /// 10 to the power `exponent`, exactly: a double holds every one up to 10²².
    private static func powerOfTen(_ exponent: Int) -> Double { powersOfTen[exponent] }

    private static let powersOfTen: [Double] = (0...mostFractionDigits).reduce(into: [1.0]) { powers, _ in
        powers.append(powers.last! * 10)
    }
}
