extension CSV {
    /// The rows of CSV text read a line at a time (RFC 4180: a quoted field may hold commas,
    /// quotes and line breaks, so one row may take several lines). Empty lines are no rows.
    struct Rows {
        private var fields: [String] = []
        private var field = ""
        private var quoted = false
        /// The line the row being read began on.
        private var rowLine = 1

        /// Reads one line (without its newline) and returns the row it ends, if it ends one.
        mutating func read(_ line: String, number: Int) -> (line: Int, fields: [String])? {
            if fields.isEmpty, field.isEmpty, !quoted { rowLine = number }
            // A CRLF file's lines end with a carriage return, which is part of the line break.
            let crlf = line.utf8.last == UInt8(ascii: "\r")
            let characters = Array(crlf ? line.dropLast() : Substring(line))
            var index = 0
            while index < characters.count {
                let character = characters[index]
                index += 1
                if quoted {
                    if character != "\"" {
                        field.append(character)
                    } else if index < characters.count, characters[index] == "\"" {
                        field.append("\"")
                        index += 1
                    } else {
                        quoted = false
                    }
                    continue
                }
                switch character {
                case "\"": quoted = true
                case ",":
                    fields.append(field)
                    field = ""
                default: field.append(character)
                }
            }
            if quoted {
                field.append(crlf ? "\r\n" : "\n")
                return nil
            }
            fields.append(field)
            field = ""
            defer { fields = [] }
            return fields == [""] ? nil : (rowLine, fields)
        }

        /// The row a quote left open at the end of the text, if any.
        mutating func finish() -> (line: Int, fields: [String])? {
            guard quoted || !field.isEmpty || !fields.isEmpty else { return nil }
            fields.append(field)
            defer { (fields, field, quoted) = ([], "", false) }
            return (rowLine, fields)
        }
    }
}
