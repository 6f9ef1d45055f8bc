import FolioJSON

/// Rows of text in aligned columns, as a terminal shows them.
struct Table {
    var columns: [String]
    var rows: [[String]]

    /// The fewest terminal columns a cut cell keeps, its "…" included: when the table's
    /// columns do not fit the line even cut to this, the columns at the right are left out.
    static let narrowestCut = 40

    /// A value as a cell: text without quotes, null as nothing, anything else as JSON.
    static func cell(_ value: JSONValue) -> String {
        switch value {
        case .null: ""
        case .string(let text): text
        case .bool(let flag): flag ? "true" : "false"
        default: (try? JSONWriter().line(for: value)) ?? value.description
        }
    }

    /// The table's lines, a header and then a row each, and how many columns were left out.
    /// Cells are measured as the terminal shows them (`DisplayWidth`: a Chinese character or
    /// an emoji takes two columns) and padded to their column's widest.
    ///
    /// Without `width` (output to a file or a pipe) every cell is whole. Within `width`: a
    /// table of one column is never cut (a path or a value stays whole to copy, and the
    /// terminal wraps what is longer); a table of several shows as many leading columns as
    /// fit with each cut to `narrowestCut` (at least one), and cuts only the widest of them,
    /// all to the one width that lets the line fill `width`, a cut cell ending in "…".
    func lines(width: Int? = nil) -> (lines: [TerminalText], hiddenColumns: Int) {
        // A line break shows as a blank, every other control as `\u{1B}`.
        let cells = ([columns] + rows).map { $0.map { Terminal.visible($0, lineBreaks: .blanks) } }
        let cellWidths = cells.map { $0.map { DisplayWidth.of($0) } }
        let natural = columns.indices.map { column in cellWidths.map { $0[column] }.max() ?? 0 }
        let (shown, cut) = Self.layout(natural, within: width)
        let widths = natural.prefix(shown).map { column in cut.map { min(column, $0) } ?? column }
        let lines = zip(cells, cellWidths).map { row, rowWidths in
            var line = ""
            for (column, width) in widths.enumerated() {
                if column > 0 { line += "  " }
                var (text, used) = (Substring(row[column]), rowWidths[column])
                if used > width {
                    (text, used) = DisplayWidth.prefix(of: text, fitting: width - 1)
                    (text, used) = (text + "…", used + 1)
                }
                line += text
                if column < widths.count - 1 { line += String(repeating: " ", count: width - used) }
            }
            // The blanks at the end go: found from the end, so a long value costs its length once
            // (a regular expression for them tried every blank of the line as a start).
            return TerminalText(
                visible: String(
                    line[..<(line.lastIndex { !$0.isWhitespace }.map(line.index(after:)) ?? line.startIndex)]))
        }
        return (lines, columns.count - widths.count)
    }

    /// How many leading columns of these natural widths show within `width`, and the width
    /// the widest of them are cut to (`nil`: none is cut).
    static func layout(_ widths: [Int], within width: Int?) -> (shown: Int, cut: Int?) {
        guard let width, widths.count > 1 else { return (widths.count, nil) }
        var used = 0
        let fitting = widths.prefix { column in
            defer { used += min(column, narrowestCut) + 2 }
            return used + min(column, narrowestCut) <= width
        }
        let shown = max(fitting.count, 1)
        // The columns narrower than the cut keep their width; the rest share what is left evenly.
        let room = width - 2 * (shown - 1)
        let narrowestFirst = widths.prefix(shown).sorted()
        var kept = 0
        for (index, column) in narrowestFirst.enumerated() {
            let rest = narrowestFirst.count - index
            if kept + column * rest > room { return (shown, max((room - kept) / rest, 1)) }
            kept += column
        }
        return (shown, nil)
    }
}
