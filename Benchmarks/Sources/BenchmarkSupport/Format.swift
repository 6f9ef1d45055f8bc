import Foundation

/// Number formatting for the report, the same in every locale.
package enum Format {
    /// An integer with thousands separators: 100,000.
    package static func grouped(_ value: Int) -> String {
        let digits = Array(String(value.magnitude))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return value < 0 ? "-" + text : text
    }

    package static func decimal(_ value: Double, places: Int) -> String {
        String(format: "%.\(places)f", value)
    }

    /// A rate with as many digits as are meaningful: 123,456, 12.3, 1.23.
    package static func rate(_ value: Double) -> String {
        switch value {
        case 1_000...: grouped(Int(value.rounded()))
        case 10...: decimal(value, places: 1)
        default: decimal(value, places: 2)
        }
    }

    /// A duration in seconds, for medians, ratios and the formats above.
    package static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    package static func milliseconds(_ seconds: Double) -> String {
        decimal(seconds * 1_000, places: 1) + " ms"
    }

    package static func ratio(_ value: Double) -> String {
        decimal(value, places: 2) + "×"
    }
}
