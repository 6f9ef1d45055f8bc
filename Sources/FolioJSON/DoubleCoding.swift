/// Doubles as stored values: finite ones as numbers, non-finite ones as the
/// strings `"NaN"`, `"Infinity"` and `"-Infinity"`, which JSON has no numbers for.
public enum DoubleCoding {
    /// The stored form of a double.
    public static func jsonValue(for value: Double) -> JSONValue {
        if value.isFinite { return .double(value) }
        if value.isNaN { return .string("NaN") }
        return .string(value < 0 ? "-Infinity" : "Infinity")
    }

    /// The double in a stored value: any number, or one of the three non-finite strings.
    public static func double(from value: JSONValue) throws(JSONError) -> Double {
        switch value {
        case .integer(let integer): return Double(integer)
        case .double(let double): return double
        case .number(let text):
            // Only numbers beyond Double's range or precision are kept as text; the
            // nearest double is the best a Double property can hold.
            return Double(text) ?? .nan
        case .string(let text):
            if let special = nonFinite(text) { return special }
            throw JSONError(
                .invalidValue(
                    "\"\(text)\" is not a number; the only strings a number may be are \"NaN\", \"Infinity\" and \"-Infinity\""
                ))
        default:
            throw JSONError(.typeMismatch(expected: "a number", found: value.typeName))
        }
    }

    /// The value of `"NaN"`, `"Infinity"` or `"-Infinity"`.
    static func nonFinite(_ text: String) -> Double? {
        switch text {
        case "NaN": .nan
        case "Infinity": .infinity
        case "-Infinity": -.infinity
        default: nil
        }
    }
}
