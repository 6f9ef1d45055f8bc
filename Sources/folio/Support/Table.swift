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
    func lines(maximumCellWidth: Int?) -> [String] {
        func fit(_ text: String) -> String {
            let flat = text.replacingOccurrences(of: "\n", with: " ")
            guard let maximumCellWidth, flat.count > maximumCellWidth else { return flat }
            return String(flat.prefix(maximumCellWidth - 1)) + "…"
        }
        let cells = [columns.map(fit)] + rows.map { $0.map(fit) }
        let widths = columns.indices.map { column in cells.map { $0[column].count }.max() ?? 0 }
        return cells.map { row in
            zip(row, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }.joined(separator: "  ")
                .replacing(/\s+$/, with: "")
        }
    }
}
