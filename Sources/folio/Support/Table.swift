import FolioJSON

/// Rows of text in aligned columns, as a terminal shows them.
struct Table {
    var columns: [String]
    var rows: [[String]]

    /// A value as a cell: text without quotes, null as nothing, anything else as JSON.
    static func cell(_ value: JSONValue) -> String {
        switch value {
        case .null: ""
        case .string(let text): text
        case .bool(let flag): flag ? "true" : "false"
        default: (try? JSONWriter().line(for: value)) ?? value.description
        }
    }

    /// Text safe to show on a terminal: a line break as a space, every other C0 or C1
    /// control character (escape sequences that would set the title, clear the screen or
    /// move the cursor) as a visible `\u{1B}`. JSON, NDJSON and CSV keep values exact.
    static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var shown = ""
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                shown += " "
            } else if isControl(scalar) {
                shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// The lines: a header, then a row each; cells longer than `maximumCellWidth` end in "…".
    /// The table's lines; within `width`, as many leading columns as fit whole (at least
    /// one), and how many did not.
    func lines(maximumCellWidth: Int?, width: Int? = nil) -> (lines: [String], hiddenColumns: Int) {
        func fit(_ text: String) -> String {
            let flat = Self.visible(text)
            guard let maximumCellWidth, flat.count > maximumCellWidth else { return flat }
            return String(flat.prefix(maximumCellWidth - 1)) + "…"
        }
        let cells = [columns.map(fit)] + rows.map { $0.map(fit) }
        var widths = columns.indices.map { column in cells.map { $0[column].count }.max() ?? 0 }
        if let width {
            var used = 0
            let shown = widths.prefix { column in
                defer { used += column + 2 }
                return used + column <= width
            }.count
            widths = Array(widths.prefix(max(shown, 1)))
        }
        let lines = cells.map { row in
            let line = zip(row, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }
                .joined(separator: "  ")
            // The blanks at the end go: found from the end, so a long value costs its length once
            // (a regular expression for them tried every blank of the line as a start).
            return String(line[..<(line.lastIndex { !$0.isWhitespace }.map(line.index(after:)) ?? line.startIndex)])
        }
        return (lines, columns.count - widths.count)
    }
}
