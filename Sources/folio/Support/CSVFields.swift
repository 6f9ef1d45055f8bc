import FolioCore

extension CSV {
    /// One field of a CSV row as read: its text, and whether it was quoted, which tells
    /// the empty text (`""`) from an empty cell (null), as PostgreSQL's CSV does.
    struct Field: Equatable {
        /// The text, quotes taken off and doubled quotes made single.
        var text: String
        /// Whether the field was written between quotes.
        var quoted: Bool
    }

    /// The rows of CSV text read a line at a time (RFC 4180: a quoted field may hold commas,
    /// quotes and line breaks, so one row may take several lines), each field with whether
    /// it was quoted. Text is read by Unicode scalar, so a comma or quote followed by a
    /// combining mark, and a CR LF inside a field, are read as what they are. An empty line
    /// outside quotes is no row; a quote in the middle of an unquoted field is text.
    struct FieldReader {
        private var fields: [Field] = []
        private var field = String.UnicodeScalarView()
        /// Whether the field being read began with a quote.
        private var fieldQuoted = false
        /// Whether the reader is between a field's opening and closing quotes.
        private var inQuotes = false
        /// Whether the field being read has had anything (a character or its quotes).
        private var fieldStarted = false
        /// The line the row being read began on.
        private var rowLine = 1
        /// Whether a line has been read: a byte order mark is taken off the first.
        private var readAny = false

        /// Reads one line (without its newline) and returns the row it ends, if it ends one;
        /// throws for text after a field's closing quote, which RFC 4180 does not allow.
        mutating func read(_ line: String, number: Int) throws(FolioError) -> (line: Int, fields: [Field])? {
            var scalars = Substring(line).unicodeScalars
            if !readAny, scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
            readAny = true
            let rowStarts = fields.isEmpty && !fieldStarted && !inQuotes
            if rowStarts { rowLine = number }
            // A CRLF file's lines end with a carriage return, which is part of the line break.
            let crlf = scalars.last == "\r"
            if crlf { scalars = scalars.dropLast() }
            if rowStarts, scalars.isEmpty { return nil }
            var index = scalars.startIndex
            while index < scalars.endIndex {
                let scalar = scalars[index]
                scalars.formIndex(after: &index)
                if inQuotes {
                    guard scalar == "\"" else {
                        field.append(scalar)
                        continue
                    }
                    if index < scalars.endIndex, scalars[index] == "\"" {
                        field.append("\"")
                        scalars.formIndex(after: &index)
                    } else {
                        inQuotes = false
                        if index < scalars.endIndex, scalars[index] != "," {
                            let position = fields.count + 1
                            fields = []
                            (field, fieldQuoted, fieldStarted) = (String.UnicodeScalarView(), false, false)
                            throw FolioError.invalidInput(
                                "line \(number): field \(position) has text after its closing quote; a quoted field ends at a comma or the end of the line (a quote inside it is written twice: \"\")"
                            )
                        }
                    }
                    continue
                }
                switch scalar {
                case "\"" where !fieldStarted:
                    (inQuotes, fieldQuoted, fieldStarted) = (true, true, true)
                case ",":
                    endField()
                default:
                    field.append(scalar)
                    fieldStarted = true
                }
            }
            if inQuotes {
                field.append(contentsOf: crlf ? "\r\n".unicodeScalars : "\n".unicodeScalars)
                return nil
            }
            endField()
            defer { fields = [] }
            return (rowLine, fields)
        }

        /// After the last line: throws when a quoted field is still open.
        func finish() throws(FolioError) {
            guard inQuotes else { return }
            throw FolioError.invalidInput(
                "line \(rowLine): a quoted field that begins in the row of this line is not closed by the end of the file"
            )
        }

        private mutating func endField() {
            fields.append(Field(text: String(field), quoted: fieldQuoted))
            (field, fieldQuoted, fieldStarted) = (String.UnicodeScalarView(), false, false)
        }
    }

    /// A field's text as CSV writes it: between quotes, with quotes doubled, when it holds a
    /// comma, a quote or a line break, begins or ends with a space or tab (which some
    /// readers trim), or is empty and `quotingEmpty` (the empty text, not an empty cell).
    static func written(_ text: String, quotingEmpty: Bool = false) -> String {
        let scalars = text.unicodeScalars
        let blank: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" }
        let needsQuotes =
            (scalars.isEmpty && quotingEmpty)
            || scalars.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
            || scalars.first.map(blank) == true || scalars.last.map(blank) == true
        guard needsQuotes else { return text }
        var quoted = String.UnicodeScalarView()
        quoted.append("\"")
        for scalar in scalars {
            quoted.append(scalar)
            if scalar == "\"" { quoted.append("\"") }
        }
        quoted.append("\"")
        return String(quoted)
    }
}
