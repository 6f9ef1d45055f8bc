import Foundation

/// Where output goes and how it may look: colour only on a terminal and never with
/// `NO_COLOR` set (https://no-color.org).
enum Terminal {
    /// Whether standard output is a terminal.
    static let outputIsTerminal = isatty(STDOUT_FILENO) == 1
    /// Whether standard error is a terminal (progress bars go there).
    static let errorIsTerminal = isatty(STDERR_FILENO) == 1

    private static let colourAllowed = ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true

    /// Text in a colour (an SGR code such as 31 for red) when standard output (or standard
    /// error, `onError`) may show it.
    static func colour(_ text: TerminalText, _ code: Int, onError: Bool = false) -> TerminalText {
        guard colourAllowed, onError ? errorIsTerminal : outputIsTerminal else { return text }
        return TerminalText(visible: "\u{1B}[\(code)m\(text.description)\u{1B}[0m")
    }

    /// Writes text for a person to standard output, and a line break.
    static func print(_ text: TerminalText) {
        Swift.print(text.description)
    }

    /// Writes a line of a format for programs (JSON, NDJSON, CSV, a document as it is
    /// stored) to standard output exactly, whatever it holds.
    static func printExact(_ line: String) {
        Swift.print(line)
    }

    /// Writes text for a person to standard error, and a line break.
    static func printError(_ text: TerminalText) {
        // What went to standard output first comes first when both reach one pipe or file.
        fflush(nil)
        FileHandle.standardError.write(Data((text.description + "\n").utf8))
    }

    /// A diagnostic of several lines (Folio's errors, as `path: error: what\nhint: ...`),
    /// shown visibly, its first `label` shown as `shownAs` (the label in colour).
    static func diagnostic(_ message: String, label: String = "error:", shownAs: TerminalText) -> TerminalText {
        guard let found = message.range(of: label) else { return TerminalText(message, keepingLineBreaks: true) }
        return "\(lines: message[..<found.lowerBound])\(shownAs)\(lines: message[found.upperBound...])"
    }

    /// How `visible` shows a line break.
    enum LineBreaks {
        /// As a line break, and a tab as a tab: text of several lines, laid out as it is.
        case kept
        /// As `\u{A}`: text that must stay on its line.
        case shown
        /// As a blank: a table's cell.
        case blanks
    }

    /// Text safe to show on a terminal, the one way the tool neutralizes what it quotes:
    /// every C0 or C1 control character and DEL (escape sequences that set the title, clear
    /// the screen or move the cursor, a bell), and every Unicode control that reorders or
    /// breaks what follows it (the bidirectional overrides, embeddings, isolates and marks,
    /// such as U+202E, and the line and paragraph separators), shows as `\u{1B}`; a line
    /// break as `lineBreaks` says. JSON, NDJSON and CSV keep values exact instead.
    static func visible(_ text: some StringProtocol, lineBreaks: LineBreaks = .shown) -> String {
        func isShownAsCode(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x0A: lineBreaks == .shown
            case 0x09: lineBreaks != .kept
            case 0..<0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: true
            default: false
            }
        }
        guard text.unicodeScalars.contains(where: { isShownAsCode($0) || (lineBreaks == .blanks && $0 == "\n") })
        else { return String(text) }
        var shown = ""
        shown.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if isShownAsCode(scalar) {
                shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else if scalar == "\n", lineBreaks == .blanks {
                shown += " "
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    /// The width of the terminal, or nil when output is not one.
    /// The columns a table may take: `COLUMNS` when the environment exports it (as a user
    /// or a test sets it), else the terminal's width; `nil` when output goes to a file or a
    /// pipe with no `COLUMNS`, where tables keep every column whole.
    static var width: Int? {
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 {
            return columns
        }
        guard outputIsTerminal else { return nil }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}

/// "1 document", "2 documents": counts in messages read as English.
func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}
