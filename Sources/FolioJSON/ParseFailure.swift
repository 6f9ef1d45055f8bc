/// Turns a failed parse into Folio's error kind and the offset a person should look at.
///
/// YAJL reports errors as English sentences and a count of bytes consumed, which
/// points after the offending token in some states, at it in others, and before it
/// where YAJL rewinds. So only the sentence is taken from YAJL. Lexical errors are
/// placed from the consumed count, which is reliable for them; grammar errors are
/// placed on the first token after the builder's last event (and after the
/// separator that event expects), which is where the grammar broke.
enum ParseFailure {
    static func locate(_ parse: JSONReader.Parse, text: UnsafeBufferPointer<UInt8>) -> (JSONError.Kind, Int) {
        let builder = parse.builder
        let consumed = parse.consumed
        if let failure = builder.failure {
            switch failure.kind {
            case .invalidUTF8:
                // No invalid byte in the raw text means YAJL made one from a lone low
                // surrogate escape; the reader reports that escape instead.
                return (.invalidUTF8, firstInvalidUTF8(in: text) ?? consumed)
            case .duplicateKey: return (failure.kind, stringStart(endingAt: failure.offset ?? 0, in: text))
            default: return (failure.kind, failure.offset ?? 0)
            }
        }
        if builder.result != nil {
            // The value was complete: whatever YAJL stumbled on comes after it.
            let start = skipWhitespace(from: builder.resultEnd, in: text)
            return (isCommentStart(start, in: text) ? .comment : .trailingContent, start)
        }

        let message = parse.message
        if message.contains("premature EOF") { return (.unexpectedEnd, endOfContent(text)) }
        if let lexical = lexicalError(message, consumed: consumed, in: text) { return lexical }

        let (offending, comma) = offendingToken(after: builder, in: text)
        if isCommentStart(offending, in: text) { return (.comment, offending) }
        if let comma, offending < text.count,
            text[offending] == UInt8(ascii: "]") || text[offending] == UInt8(ascii: "}")
        {
            return (.trailingComma, comma)
        }
        if builder.lastEvent == .value, offending == builder.lastEventEnd, offending < text.count,
            isDigit(text[offending])
        {
            // `01`: YAJL reads a zero, then another number where a comma belongs.
            return (.invalidNumber, wordStart(at: offending, in: text))
        }
        let kind: JSONError.Kind =
            switch message {
            case let m where m.contains("separated by a colon"): .expectedColon
            case let m where m.contains("I expect ','"): .expectedCommaOrEnd
            case let m where m.contains("invalid object key"): .expectedKey
            default: .unexpectedToken
            }
        return (kind, offending)
    }

    /// The kind and place of an error in a token's own spelling, or `nil` for a grammar error.
    private static func lexicalError(_ message: String, consumed: Int, in text: UnsafeBufferPointer<UInt8>) -> (
        JSONError.Kind, Int
    )? {
        switch message {
        case let m where m.contains("comment"): return (.comment, commentStart(near: consumed, in: text))
        case let m where m.contains("invalid char in json text"):
            let offset = max(0, consumed - 1)
            guard offset < text.count, isLetter(text[offset]) else { return (.unexpectedCharacter, offset) }
            // A bare word (`True`, `None`), or letters glued to a number (`0x1F`).
            let start = wordStart(at: offset, in: text)
            return (start < offset && isDigit(text[offset - 1]) ? .invalidNumber : .invalidLiteral, start)
        case let m where m.contains("invalid string in json text"):
            return (.invalidLiteral, wordStart(at: consumed, in: text))
        case let m where m.contains("malformed number"): return (.invalidNumber, consumed)
        case let m where m.contains("'\\' occurs before a character"): return (.invalidEscape, max(0, consumed - 1))
        case let m where m.contains("after '\\u'"):
            return (.invalidUnicodeEscape, escapeStart(before: consumed, in: text))
        case let m where m.contains("invalid character inside string"): return (.controlCharacterInString, consumed)
        case let m where m.contains("invalid bytes in UTF8"):
            return (.invalidUTF8, firstInvalidUTF8(in: text) ?? consumed)
        default: return nil
        }
    }

    /// The first token after the builder's last event, skipping the separator that
    /// event expects (`:` after a key, `,` after a value); also where that comma was.
    private static func offendingToken(after builder: DocumentBuilder, in text: UnsafeBufferPointer<UInt8>) -> (
        offset: Int, comma: Int?
    ) {
        var index = skipWhitespace(from: builder.lastEventEnd, in: text)
        let separator: UInt8? =
            switch builder.lastEvent {
            case .key: UInt8(ascii: ":")
            case .value: UInt8(ascii: ",")
            case .none, .opened: nil
            }
        guard let separator, index < text.count, text[index] == separator else { return (index, nil) }
        let separatorOffset = index
        index = skipWhitespace(from: index + 1, in: text)
        return (index, separator == UInt8(ascii: ",") ? separatorOffset : nil)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func isCommentStart(_ offset: Int, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        offset + 1 < text.count && text[offset] == UInt8(ascii: "/")
            && (text[offset + 1] == UInt8(ascii: "/") || text[offset + 1] == UInt8(ascii: "*"))
    }

    /// The `/` that starts the comment YAJL stopped at (it reports one byte either side of it).
    private static func commentStart(near offset: Int, in text: UnsafeBufferPointer<UInt8>) -> Int {
        let start = max(0, offset - 1)
        return (start..<min(text.count, offset + 2)).first { text[$0] == UInt8(ascii: "/") } ?? start
    }

    private static func skipWhitespace(from offset: Int, in text: UnsafeBufferPointer<UInt8>) -> Int {
        var index = offset
        while index < text.count, isWhitespace(text[index]) { index += 1 }
        return index
    }

    /// Just past the last non-whitespace byte: where a truncated document stops.
    private static func endOfContent(_ text: UnsafeBufferPointer<UInt8>) -> Int {
        var end = text.count
        while end > 0, isWhitespace(text[end - 1]) { end -= 1 }
        return end
    }

    /// The opening quote of the string (a key) whose closing quote is just before `end`.
    static func stringStart(endingAt end: Int, in text: UnsafeBufferPointer<UInt8>) -> Int {
        var index = min(end, text.count) - 2
        while index >= 0 {
            if text[index] == UInt8(ascii: "\"") {
                var backslashes = 0
                while index - backslashes - 1 >= 0, text[index - backslashes - 1] == UInt8(ascii: "\\") {
                    backslashes += 1
                }
                if backslashes % 2 == 0 { return index }
            }
            index -= 1
        }
        return max(0, end - 1)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
            true
        default: false
        }
    }

    /// The start of the word or number that `offset` is in or just after.
    private static func wordStart(at offset: Int, in text: UnsafeBufferPointer<UInt8>) -> Int {
        var index = min(offset, text.count)
        while index > 0, isWordByte(text[index - 1]) { index -= 1 }
        return index
    }

    /// The backslash of the `\u` escape that the offset falls in.
    private static func escapeStart(before offset: Int, in text: UnsafeBufferPointer<UInt8>) -> Int {
        var index = min(offset, text.count - 1)
        while index > 0,
            !(text[index] == UInt8(ascii: "\\") && index + 1 < text.count && text[index + 1] == UInt8(ascii: "u"))
        {
            index -= 1
        }
        return max(index, 0)
    }

    /// The offset of the first byte that does not begin a valid UTF-8 sequence.
    static func firstInvalidUTF8(in text: UnsafeBufferPointer<UInt8>) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = text.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .error: return offset
            case .emptyInput: return nil
            }
        }
    }
}
