/// Text on its way to a person's terminal: what `Terminal.print` and `Terminal.printError`
/// take, so that nothing from a store (a name, a value, a path, a message quoting one)
/// reaches a terminal without going through `Terminal.visible`.
///
/// A string literal of the tool's own code is written as it is. Everything interpolated
/// into one is shown visibly: `"\(name) has no folder"` turns an escape sequence in `name`
/// into `\u{1B}`. `"\(lines: message)"` keeps a message's line breaks; `"\(text)"` of
/// another `TerminalText` (a colour around a label) keeps it as it is.
struct TerminalText: ExpressibleByStringInterpolation, CustomStringConvertible, Sendable {
    /// The text as it is written to the terminal.
    private(set) var description: String

    /// A literal of the tool's own code.
    init(stringLiteral literal: String) {
        description = literal
    }

    /// A literal with values interpolated, each shown visibly.
    init(stringInterpolation: StringInterpolation) {
        description = stringInterpolation.text
    }

    /// Text from outside, shown visibly: on one line, or keeping its line breaks when
    /// `keepingLineBreaks` (a diagnostic of several lines, as Folio's errors are).
    init(_ text: some StringProtocol, keepingLineBreaks: Bool = false) {
        description = Terminal.visible(text, lineBreaks: keepingLineBreaks ? .kept : .shown)
    }

    /// Text that already went through `Terminal.visible` and was only laid out since (a
    /// table's padded cells).
    init(visible text: String) {
        description = text
    }

    /// The two texts one after the other.
    static func + (lhs: TerminalText, rhs: TerminalText) -> TerminalText {
        TerminalText(visible: lhs.description + rhs.description)
    }

    /// The parts of a `TerminalText` literal as they are appended.
    struct StringInterpolation: StringInterpolationProtocol {
        /// The text so far.
        fileprivate var text = ""

        init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        /// A piece of the literal, as it is.
        mutating func appendLiteral(_ literal: String) {
            text += literal
        }

        /// A value, shown visibly on one line: a line break in it shows as `\u{A}`.
        mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            text += Terminal.visible(value.description, lineBreaks: .shown)
        }

        /// A value of several lines, shown visibly but for its line breaks.
        mutating func appendInterpolation(lines value: some CustomStringConvertible) {
            text += Terminal.visible(value.description, lineBreaks: .kept)
        }

        /// Text already safe for a terminal, as it is.
        mutating func appendInterpolation(_ value: TerminalText) {
            text += value.description
        }
    }
}

extension Sequence<TerminalText> {
    /// The texts with `separator` between each two.
    func joined(separator: TerminalText) -> TerminalText {
        TerminalText(visible: map(\.description).joined(separator: separator.description))
    }
}
