/// A table's column of dates, their fractions of a second written to one length: the
/// store writes each date with only the digits it needs (`10:00:00Z`, `10:00:00.5Z`,
/// `10:00:00.125Z`), which in a column read as different lengths of time; padded with
/// zeros to the longest (`10:00:00.000Z`, `10:00:00.500Z`, `10:00:00.125Z`) they line up
/// and compare digit by digit. JSON, NDJSON and CSV keep each date as it is stored.
enum DateColumn {
    /// The cells of a column, each date's fraction padded to the longest of the column's,
    /// when every cell that is not empty is a date (`YYYY-MM-DDTHH:MM:SS`, a fraction or
    /// not, then `Z` or an offset); otherwise, text that happens to look like a date among
    /// other text, the cells as they are.
    static func evened(_ cells: [String]) -> [String] {
        var parts: [(seconds: Substring, fraction: Substring, zone: Substring)?] = []
        parts.reserveCapacity(cells.count)
        for cell in cells {
            if cell.isEmpty {
                parts.append(nil)
            } else if let date = split(cell) {
                parts.append(date)
            } else {
                return cells
            }
        }
        let longest = parts.compactMap { $0?.fraction.count }.max() ?? 0
        guard parts.contains(where: { ($0?.fraction.count).map { $0 != longest } ?? false }) else { return cells }
        return zip(cells, parts).map { cell, date in
            guard let date else { return cell }
            let zeros = String(repeating: "0", count: longest - date.fraction.count)
            return date.seconds + "." + date.fraction + zeros + date.zone
        }
    }

    /// A date's text up to its seconds, its fraction's digits (maybe none) and its zone,
    /// or `nil` when the text is not a date.
    private static func split(_ text: String) -> (seconds: Substring, fraction: Substring, zone: Substring)? {
        // The longest date, with nanoseconds and an offset, has 35 characters.
        guard text.utf8.count <= 64 else { return nil }
        let utf8 = Array(text.utf8)
        func digits(_ range: Range<Int>) -> Bool {
            range.upperBound <= utf8.count && utf8[range].allSatisfy { (0x30...0x39).contains($0) }
        }
        func byte(_ index: Int, _ character: Character) -> Bool {
            index < utf8.count && utf8[index] == character.asciiValue
        }
        guard digits(0..<4), byte(4, "-"), digits(5..<7), byte(7, "-"), digits(8..<10), byte(10, "T"),
            digits(11..<13), byte(13, ":"), digits(14..<16), byte(16, ":"), digits(17..<19)
        else { return nil }
        var zoneStart = 19
        if byte(19, ".") {
            zoneStart = 20
            while digits(zoneStart..<zoneStart + 1) { zoneStart += 1 }
            guard zoneStart > 20 else { return nil }
        }
        let zoneLength = utf8.count - zoneStart
        let isZone =
            (zoneLength == 1 && byte(zoneStart, "Z"))
            || (zoneLength == 6 && (byte(zoneStart, "+") || byte(zoneStart, "-"))
                && digits(zoneStart + 1..<zoneStart + 3)
                && byte(zoneStart + 3, ":") && digits(zoneStart + 4..<zoneStart + 6))
        guard isZone else { return nil }
        // ASCII throughout, so byte offsets are character offsets.
        let index = { (offset: Int) in text.index(text.startIndex, offsetBy: offset) }
        let fractionStart = zoneStart > 19 ? 20 : 19
        return (text[..<index(19)], text[index(fractionStart)..<index(zoneStart)], text[index(zoneStart)...])
    }
}
