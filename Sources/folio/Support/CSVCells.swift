import FolioCore
import FolioJSON
import Foundation

/// How one document member is a CSV cell, in both directions: `folio export --format csv`
/// writes with `text(for:)`, `folio import` reads with `content(of:)`, and the export reads
/// each cell it writes back, so a value the cell cannot carry is found, never changed.
///
/// The conventions, for a column of each `Kind`:
/// - an empty cell is null; where null cannot be the value (a required attribute, and the
///   metadata columns) it sets nothing: a new document takes the initial value, a stored
///   one keeps its own;
/// - `""`, an empty quoted cell, is the empty text;
/// - `(absent)` is a member the document does not have;
/// - a `'` in front of text is taken off when the text would read otherwise without it
///   (it starts with `=`, `+`, `-`, `@`, a tab, a carriage return or `'`, or is one of the
///   forms above, or would read as JSON or a number): it marks text as text, and keeps a
///   spreadsheet from running a formula;
/// - otherwise a text column's cell is its text, a `Date` column's a stored date, or a number
///   of seconds since 2001 (a date outside years 0000-9999), and any other column's is JSON
///   (`5`, `true`, `["a"]`, `{"k": 1}`), or text where it is not JSON (an enum's case).
enum CSVCell {
    /// The cell of a member the document does not have.
    static let absent = "(absent)"

    /// How a column's cells read.
    enum Kind: Equatable {
        /// Text as it is: `String`, `UUID`, `URL`, `Data`, a to-one relationship, an identity.
        case text
        /// A `Date`: its stored text, or a number of seconds since 2001-01-01.
        case date
        /// JSON: numbers, `Bool`, collections, enums, `Codable` values, to-many relationships.
        case json
    }

    /// How a cell of one column reads for one row.
    struct Reading: Equatable {
        var kind: Kind
        /// Whether an empty cell is null; else it sets nothing.
        var blankIsNull: Bool
        /// Whether a member the document lacks is written `(absent)`; else as an empty cell
        /// (the metadata columns, where that is what an empty cell means).
        var marksAbsence: Bool = true
        /// The time zone a date typed without one is read in.
        var timeZone: TimeZone
    }

    /// What a cell gives.
    enum Content: Equatable {
        /// The member, with this value.
        case value(JSONValue)
        /// No such member: `(absent)`.
        case absent
        /// Nothing: an empty cell where null cannot be the value.
        case unset
    }

    /// What a member's value (`nil`: the document has no such member) reads back as.
    static func content(for value: JSONValue?, reading: Reading) -> Content {
        value.map(Content.value) ?? (reading.marksAbsence ? .absent : .unset)
    }

    /// The member's value (`nil`: the document has no such member) as a cell's text, not yet
    /// quoted, and whether it is the empty text (written `""`); `raw` leaves out the `'` that
    /// only keeps a spreadsheet from running a formula.
    static func text(for value: JSONValue?, reading: Reading, raw: Bool) -> (text: String, emptyText: Bool) {
        guard let value else { return (reading.marksAbsence ? absent : "", false) }
        switch value {
        case .null:
            return ("", false)
        case .string(let text):
            if text.isEmpty { return ("", true) }
            let marked =
                (!raw && startsAFormula(text)) || content(of: text, quoted: false, reading: reading) != .value(value)
            return (marked ? "'" + text : text, false)
        default:
            return ((try? JSONWriter().line(for: value)) ?? value.description, false)
        }
    }

    /// What a cell gives, as `text(for:)` describes.
    static func content(of text: String, quoted: Bool, reading: Reading) -> Content {
        if text.isEmpty { return quoted ? .value(.string("")) : (reading.blankIsNull ? .value(.null) : .unset) }
        if text.unicodeScalars.first == "'" {
            let rest = String(text.unicodeScalars.dropFirst())
            if rest.isEmpty || startsAFormula(rest) || rest.unicodeScalars.first == "'"
                || plainContent(of: rest, reading: reading) != .value(.string(rest))
            {
                return .value(.string(rest))
            }
        }
        return plainContent(of: text, reading: reading)
    }

    /// What a cell that is not empty and not marked with `'` gives.
    private static func plainContent(of text: String, reading: Reading) -> Content {
        if text == absent { return .absent }
        switch reading.kind {
        case .text:
            return .value(.string(text))
        case .date:
            // A stored date's own text stays as it is, whatever form of it the file holds.
            if (try? Date(json: .string(text))) != nil { return .value(.string(text)) }
            if let number = try? JSONReader().read(text), number.isNumber { return .value(number) }
            if let date = DateInput.date(text, timeZone: reading.timeZone) { return .value(date.json) }
            return .value(.string(text))
        case .json:
            return .value((try? JSONReader().read(text)) ?? .string(text))
        }
    }

    /// Whether a spreadsheet would run text as a formula: it starts with `=`, `+`, `-`, `@`,
    /// a tab or a carriage return (OWASP's list for CSV injection).
    static func startsAFormula(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first else { return false }
        return "=+-@\t\r".unicodeScalars.contains(first)
    }
}

extension JSONValue {
    /// Whether the value is a number of any of the three kinds.
    fileprivate var isNumber: Bool {
        switch self {
        case .integer, .double, .number: true
        default: false
        }
    }
}
