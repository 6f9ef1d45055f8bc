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

    /// The lines: a header, then a row each; cells longer than `maximumCellWidth` end in "…".
    /// The table's lines; within `width`, as many leading columns as fit whole (at least
    /// one), and how many did not.
    func lines(maximumCellWidth: Int?, width: Int? = nil) -> (lines: [TerminalText], hiddenColumns: Int) {
        func fit(_ text: String) -> String {
            // A line break shows as a blank, every other control as `\u{1B}`.
            let flat = Terminal.visible(text, lineBreaks: .blanks)
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
            return TerminalText(
                visible: String(
                    line[..<(line.lastIndex { !$0.isWhitespace }.map(line.index(after:)) ?? line.startIndex)]))
        }
        return (lines, columns.count - widths.count)
    }
}
