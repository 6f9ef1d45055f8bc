/// A place in a text: 1-based line and column, the byte offset, and the line itself with a caret.
///
/// Columns count characters (Unicode scalars), not bytes, so the caret lines up
/// under what a person sees in an editor.
public struct SourceLocation: Sendable, Equatable, CustomStringConvertible {
    /// 1-based line number.
    public var line: Int
    /// 1-based column, in Unicode scalars.
    public var column: Int
    /// 0-based byte offset into the text.
    public var offset: Int
    /// The offending line (or a window of it, when long) and a caret under the column.
    public var excerpt: String

    /// A location from its parts, as given; `excerpt` is shown as it is, under the message.
    public init(line: Int, column: Int, offset: Int, excerpt: String) {
        self.line = line
        self.column = column
        self.offset = offset
        self.excerpt = excerpt
    }

    /// `line L, column C`, without the excerpt.
    public var description: String { "line \(line), column \(column)" }

    /// How many characters of a long line to show on each side of the column.
    static let excerptRadius = 40

    /// The location of a byte offset in a text; an offset past the end points just after the last byte.
    public init(offset requested: Int, in text: UnsafeBufferPointer<UInt8>) {
        let offset = max(0, min(requested, text.count))
        var lineStart = 0
        var line = 1
        for index in 0..<offset where text[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        var lineEnd = offset
        while lineEnd < text.count, text[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }

        let before = Self.characters(text, from: lineStart, to: offset)
        let after = Self.characters(text, from: offset, to: lineEnd)
        let shownBefore = before.suffix(Self.excerptRadius)
        let shownAfter = after.prefix(Self.excerptRadius)
        let leading = shownBefore.count < before.count ? "…" : ""
        let trailing = shownAfter.count < after.count ? "…" : ""
        let caretPad = String(repeating: " ", count: leading.count + shownBefore.count)
        let shown = leading + String(String.UnicodeScalarView(shownBefore + shownAfter)) + trailing

        self.init(
            line: line, column: before.count + 1, offset: offset,
            excerpt: "    " + shown + "\n    " + caretPad + "^")
    }

    /// The scalars of a byte range, decoded leniently for display, with control characters as spaces.
    private static func characters(_ text: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> [Unicode.Scalar]
    {
        let bytes = UnsafeBufferPointer(rebasing: text[start..<end])
        return String(decoding: bytes, as: UTF8.self).unicodeScalars.map { scalar in
            scalar.value < 0x20 || scalar.value == 0x7F ? " " : scalar
        }
    }
}
