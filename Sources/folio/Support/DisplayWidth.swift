/// How many columns text takes on a terminal, as a terminal draws it (the rules of
/// `wcwidth` with Unicode's emoji presentation), so that a table of Chinese names or emoji
/// lines up: a character of the East Asian Wide or Fullwidth ranges takes two columns, and
/// so does an emoji shown as a picture (one with emoji presentation, or followed by
/// U+FE0F, or a sequence joined into one emoji); a combining mark or another character of
/// no width (U+200B, a joiner) takes none, and every other character one.
///
/// Text measured here went through `Terminal.visible` first, so it holds no control
/// characters; a grapheme cluster (a letter and its accents, a flag, a family emoji) is
/// measured as the one thing a terminal draws for it.
enum DisplayWidth {
    /// The columns `text` takes.
    static func of(_ text: some StringProtocol) -> Int {
        // Printable ASCII, most of what a table holds, is a column a byte.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.utf8.count }
        return text.reduce(0) { $0 + of($1) }
    }

    /// The columns one character (a grapheme cluster) takes: 0, 1 or 2.
    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.isASCII, scalars.count == 1 { return 1 }
        if scalars.contains(where: \.properties.isEmojiPresentation) { return 2 }
        // A text-style emoji (☺, ❤) that asks for its picture with the variation selector.
        if first.properties.isEmoji, scalars.contains("\u{FE0F}") { return 2 }
        if isWide(first) { return 2 }
        return hasNoWidth(first) ? 0 : 1
    }

    /// The longest start of `text` that takes at most `columns`, and the columns it takes.
    static func prefix(of text: some StringProtocol, fitting columns: Int) -> (text: Substring, width: Int) {
        let text = Substring(text)
        var used = 0
        var end = text.startIndex
        for index in text.indices {
            let width = of(text[index])
            guard used + width <= columns else { break }
            used += width
            end = text.index(after: index)
        }
        return (text[..<end], used)
    }

    /// Whether a character is East Asian Wide or Fullwidth (Unicode's `EastAsianWidth.txt`,
    /// W and F, but for the emoji, which `isEmojiPresentation` tells): Hangul jamo and
    /// syllables, CJK ideographs, kana, CJK punctuation and symbols, fullwidth forms, Yi,
    /// Tangut and the other ideographic scripts of the supplementary planes.
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x3247, 0x3250...0x4DBF,
            0x4E00...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
            0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x1B2FF, 0x1F200...0x1F2FF,
            0x20000...0x2FFFD, 0x30000...0x3FFFD:
            true
        default: false
        }
    }

    /// Whether a character takes no column of its own: a combining mark (that starts a
    /// cluster with nothing to combine with), a format character such as U+200B or a joiner
    /// (but the soft hyphen, which terminals show), or a Hangul vowel or final consonant
    /// jamo, which join the syllable before them.
    private static func hasNoWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: return true
        case .format: return scalar != "\u{AD}"
        default: return (0x1160...0x11FF).contains(scalar.value) || (0xD7B0...0xD7FF).contains(scalar.value)
        }
    }
}
