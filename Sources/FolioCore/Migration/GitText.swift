/// How git classifies and quotes bytes, independent of the locale.
///
/// Git replaces the C library's `isspace` and `isalpha` with its own ASCII tables, calls
/// content with a NUL byte near its start binary, and quotes paths C-style (`core.quotePath`, on by default) where they hold control
/// characters, `"`, `\` or any byte above 0x7F.
enum GitText {
    /// Git's `isspace`: space, tab, line feed and carriage return (not vertical tab or form feed).
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Git's `isalpha`: ASCII letters only.
    static func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    /// Whether git treats content as binary (with no attributes saying otherwise): a NUL byte in its first 8,000 bytes.
    static func isBinary(_ bytes: [UInt8]) -> Bool {
        bytes.prefix(8000).contains(0)
    }

    /// A path as git writes it in a diff: as is, or in double quotes with C escapes
    /// (`\t`, `\n`, `\"`, `\\`, ...) and octal for other control bytes and bytes above 0x7F.
    static func quoted(_ path: String) -> String {
        quoted(prefix: "", path)
    }

    /// `prefix` and `path` as one name, quoted as a whole if either needs it (`"a/caf\303\251.json"`).
    static func quoted(prefix: String, _ path: String) -> String {
        let bytes = Array(prefix.utf8) + Array(path.utf8)
        guard bytes.contains(where: needsQuoting) else { return prefix + path }
        var text: [UInt8] = [UInt8(ascii: "\"")]
        for byte in bytes {
            guard needsQuoting(byte) else {
                text.append(byte)
                continue
            }
            text.append(UInt8(ascii: "\\"))
            switch byte {
            case 0x07: text.append(UInt8(ascii: "a"))
            case 0x08: text.append(UInt8(ascii: "b"))
            case 0x09: text.append(UInt8(ascii: "t"))
            case 0x0A: text.append(UInt8(ascii: "n"))
            case 0x0B: text.append(UInt8(ascii: "v"))
            case 0x0C: text.append(UInt8(ascii: "f"))
            case 0x0D: text.append(UInt8(ascii: "r"))
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): text.append(byte)
            default:
                text.append(UInt8(ascii: "0") + ((byte >> 6) & 3))
                text.append(UInt8(ascii: "0") + ((byte >> 3) & 7))
                text.append(UInt8(ascii: "0") + (byte & 7))
            }
        }
        text.append(UInt8(ascii: "\""))
        return String(decoding: text, as: UTF8.self)
    }

    private static func needsQuoting(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte >= 0x7F
    }

    /// How many leading bytes are UTF-8 as git's `utf8_width` accepts it: no overlong
    /// forms, surrogates, U+FFFE, U+FFFF or code points past U+10FFFF.
    static func validUTF8Prefix(_ bytes: [UInt8]) -> Int {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let remaining = bytes.count - index
            func continuation(_ offset: Int) -> Bool { bytes[index + offset] & 0xC0 == 0x80 }
            let length: Int
            if lead < 0x80 {
                length = 1
            } else if lead & 0xE0 == 0xC0 {
                guard remaining >= 2, continuation(1), lead & 0xFE != 0xC0 else { return index }
                length = 2
            } else if lead & 0xF0 == 0xE0 {
                guard remaining >= 3, continuation(1), continuation(2) else { return index }
                let second = bytes[index + 1]
                if lead == 0xE0 && second & 0xE0 == 0x80 { return index }  // overlong
                if lead == 0xED && second & 0xE0 == 0xA0 { return index }  // surrogate
                if lead == 0xEF && second == 0xBF && bytes[index + 2] & 0xFE == 0xBE { return index }  // U+FFFE, U+FFFF
                length = 3
            } else if lead & 0xF8 == 0xF0 {
                guard remaining >= 4, continuation(1), continuation(2), continuation(3) else { return index }
                let second = bytes[index + 1]
                if lead == 0xF0 && second & 0xF0 == 0x80 { return index }  // overlong
                if (lead == 0xF4 && second > 0x8F) || lead > 0xF4 { return index }  // past U+10FFFF
                length = 4
            } else {
                return index
            }
            index += length
        }
        return index
    }
}
