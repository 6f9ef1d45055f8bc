import Foundation

/// Where output goes and how it may look: colour only on a terminal and never with
/// `NO_COLOR` set (https://no-color.org).
enum Terminal {
    /// Whether standard output is a terminal.
    static let outputIsTerminal = isatty(STDOUT_FILENO) == 1
    /// Whether standard error is a terminal (progress bars go there).
    static let errorIsTerminal = isatty(STDERR_FILENO) == 1

    private static let colourAllowed = ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true

    /// Text in a colour (an SGR code such as 31 for red) when standard output may show it.
    static func colour(_ text: String, _ code: Int, onError: Bool = false) -> String {
        guard colourAllowed, onError ? errorIsTerminal : outputIsTerminal else { return text }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }

    /// Writes a line to standard output.
    static func print(_ line: String) {
        Swift.print(line)
    }

    /// Writes a line to standard error.
    static func printError(_ line: String) {
        // What went to standard output first comes first when both reach one pipe or file.
        fflush(nil)
        FileHandle.standardError.write(Data((line + "\n").utf8))
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
