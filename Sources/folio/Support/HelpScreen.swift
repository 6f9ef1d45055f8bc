import Foundation

/// A help screen as a person reads it: its usage lines wrapped at the terminal's width, and,
/// on a terminal it does not fit, shown through a pager as git shows long output.
struct HelpScreen {
    /// The text Swift Argument Parser rendered (wrapped at the width, all but the usage).
    var text: String

    /// The text with each `USAGE:` line broken between its arguments at `width` columns, the
    /// lines after the first lined up under the first argument.
    func wrapped(at width: Int) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard line.hasPrefix("USAGE: "), line.count > width else { return String(line) }
            return Self.wrappedUsage(String(line), at: width)
        }.joined(separator: "\n")
    }

    /// One usage line broken at `width`: never inside a `[...]` or `<...>`, so each optional
    /// argument stays whole on its line, as `git help` lays out its synopsis.
    static func wrappedUsage(_ line: String, at width: Int) -> String {
        var words: [String] = []
        var word = ""
        var depth = 0
        for character in line {
            if character == " ", depth == 0 {
                if !word.isEmpty { words.append(word) }
                word = ""
                continue
            }
            if character == "[" || character == "<" { depth += 1 }
            if character == "]" || character == ">" { depth = max(0, depth - 1) }
            word.append(character)
        }
        if !word.isEmpty { words.append(word) }
        // "USAGE: folio query": the command's words, under whose end the arguments line up.
        let commandWords = words.prefix { !($0.hasPrefix("[") || $0.hasPrefix("<") || $0.hasPrefix("-")) }
        let command = commandWords.joined(separator: " ")
        let indent = command.count + 1 > width / 2 ? 8 : command.count + 1
        let lines = WordWrap.lines([command] + words.dropFirst(commandWords.count), width: width, indent: indent)
        return lines.joined(separator: "\n")
    }

    /// Prints the screen: through the pager when standard output is a terminal with fewer
    /// rows than the screen has lines, else as it is.
    func show() {
        let screen = wrapped(at: Terminal.width ?? 80)
        let lineCount = screen.split(separator: "\n", omittingEmptySubsequences: false).count
        if Terminal.outputIsTerminal, let rows = Self.rows, lineCount >= rows, let pager = Self.pager,
            Self.page(screen + "\n", through: pager)
        {
            return
        }
        Terminal.printExact(screen)
    }

    /// The terminal's rows: `LINES` when the environment exports it, else the terminal's.
    static var rows: Int? {
        if let lines = ProcessInfo.processInfo.environment["LINES"].flatMap(Int.init), lines > 0 { return lines }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return nil }
        return Int(size.ws_row)
    }

    /// The pager, as git picks its own: `FOLIO_PAGER`, else `PAGER`, else `less`; none when
    /// set empty or to `cat`.
    static var pager: String? {
        let environment = ProcessInfo.processInfo.environment
        let pager = environment["FOLIO_PAGER"] ?? environment["PAGER"] ?? "less"
        let trimmed = pager.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty || trimmed == "cat" ? nil : pager
    }

    /// Shows `text` through `pager`, run by `sh -c` in the terminal's foreground with `LESS=FRX`
    /// unless `LESS` is set (as git runs it: quit when the text fits, keep colours, leave the
    /// screen as it was). False when the pager could not run, so the caller prints the text.
    static func page(_ text: String, through pager: String) -> Bool {
        let bytes = Array(text.utf8)
        // The text is written to the pipe before the pager starts: a help screen is a few
        // kilobytes, well within what a pipe holds (64 KiB on Linux).
        guard bytes.count < 60_000 else { return false }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return false }
        let written = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
        close(ends[1])
        defer { close(ends[0]) }
        guard written == bytes.count else { return false }
        setenv("LESS", "FRX", 0)
        setenv("LV", "-c", 0)
        let child = ForegroundChild(
            arguments: ["/bin/sh", "-c", pager], input: .descriptor(ends[0]), interrupts: .leftToTheProgram)
        switch try? child.run() {
        case .exited(let status)?: return status != 126 && status != 127
        case .signalled?: return true
        case nil: return false
        }
    }
}
