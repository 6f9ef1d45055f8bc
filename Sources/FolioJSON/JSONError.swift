/// Why a JSON document could not be read or written, and where.
///
/// The description reads like a compiler diagnostic, so terminals and editors
/// can jump to it: `path:line:column: what went wrong`, the offending line with
/// a caret under the column, and a line saying what to do about it.
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// A character that starts no JSON token.
        case unexpectedCharacter
        /// A bare word that is not `true`, `false` or `null`.
        case invalidLiteral
        /// A number that breaks JSON's grammar (`1.`, `-`, `1e`).
        case invalidNumber
        /// A backslash followed by a character JSON does not allow there.
        case invalidEscape
        /// `\u` followed by something other than four hexadecimal digits.
        case invalidUnicodeEscape
        /// A `\uD800`-`\uDFFF` escape without its partner; it would decode to no character.
        case unpairedSurrogate
        /// A raw control character (tab, newline...) inside a string.
        case controlCharacterInString
        /// Bytes that are not valid UTF-8.
        case invalidUTF8
        /// A `//` or `/* */` comment, which JSON does not allow.
        case comment
        /// An object key not followed by `:`.
        case expectedColon
        /// Something other than `,` or the closing bracket after an element or member.
        case expectedCommaOrEnd
        /// An object member whose key is not a string.
        case expectedKey
        /// A token that cannot stand at this point (`{,}`, `[:]`).
        case unexpectedToken
        /// A comma before a closing bracket (`[1, 2,]`); the location is the comma's.
        case trailingComma
        /// The text ends before the value does.
        case unexpectedEnd
        /// More content after the document's one value.
        case trailingContent
        /// The same key twice in one object; `firstLine` is where it first appears.
        case duplicateKey(String, firstLine: Int)
        /// Containers nested deeper than the reader's or writer's limit.
        case tooDeep(limit: Int)
        /// A document larger than the reader's limit, in bytes.
        case tooLarge(size: Int, limit: Int)
        /// The file could not be opened or read; the text is the system's reason.
        case unreadable(String)
        /// A value of another JSON type than the one expected.
        case typeMismatch(expected: String, found: String)
        /// A value of the right JSON type whose content is not valid for its Swift type.
        case invalidValue(String)
        /// A value that has no JSON text (a non-finite `.double`, a `.number` that is not a number).
        case notRepresentable(String)
    }

    /// What went wrong.
    public var kind: Kind
    /// The file the text came from, when it came from one.
    public var file: String?
    /// Where in the text, when the error is about a place in a text.
    public var location: SourceLocation?

    /// An error of this kind, optionally pinned to a file and a place in it.
    public init(_ kind: Kind, file: String? = nil, location: SourceLocation? = nil) {
        self.kind = kind
        self.file = file
        self.location = location
    }

    /// The one-line statement of the problem, without file or position.
    public var message: String {
        switch kind {
        case .unexpectedCharacter: "unexpected character; no JSON value starts with it"
        case .invalidLiteral: "invalid literal; only true, false and null may stand unquoted"
        case .invalidNumber: "malformed number"
        case .invalidEscape: "invalid escape sequence in string"
        case .invalidUnicodeEscape: "\\u must be followed by four hexadecimal digits"
        case .unpairedSurrogate: "unpaired UTF-16 surrogate escape; it encodes no character"
        case .controlCharacterInString: "raw control character inside a string"
        case .invalidUTF8: "invalid UTF-8 bytes"
        case .comment: "comments are not allowed in JSON"
        case .expectedColon: "expected ':' after the object key"
        case .expectedCommaOrEnd: "expected ',' or a closing bracket"
        case .expectedKey: "object keys must be strings in double quotes"
        case .unexpectedToken: "unexpected token at this point"
        case .trailingComma: "comma after the last member or element"
        case .unexpectedEnd: "unexpected end of text; the value is incomplete"
        case .trailingContent: "unexpected content after the document's value"
        case .duplicateKey(let key, let firstLine): "duplicate key \"\(key)\" (first used on line \(firstLine))"
        case .tooDeep(let limit): "nested deeper than the limit of \(limit) levels"
        case .tooLarge(let size, let limit): "document of \(size) bytes exceeds the limit of \(limit) bytes"
        case .unreadable(let reason): "cannot read the file: \(reason)"
        case .typeMismatch(let expected, let found): "expected \(expected), found \(found)"
        case .invalidValue(let reason): reason
        case .notRepresentable(let reason): "value has no JSON form: \(reason)"
        }
    }

    /// What the reader of the message can do about it.
    public var hint: String {
        switch kind {
        case .unexpectedCharacter, .invalidLiteral, .unexpectedToken, .expectedKey:
            "check the JSON syntax at the caret; strings need double quotes"
        case .invalidNumber:
            "write numbers as JSON does: -12, 3.5, 1e-7 (a digit on both sides of '.', no leading zeros)"
        case .invalidEscape:
            "inside strings only \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX are escapes; write a backslash as \\\\"
        case .invalidUnicodeEscape: "write the character itself, or \\u and exactly four hex digits"
        case .unpairedSurrogate: "write the character itself, or both halves of its surrogate pair (\\uD83D\\uDE00)"
        case .controlCharacterInString: "escape it: \\n for a newline, \\t for a tab, \\u00XX for others"
        case .invalidUTF8: "save the file as UTF-8"
        case .comment: "remove the comment; keep notes in a string property instead"
        case .trailingComma: "remove the comma; JSON allows none before a closing bracket"
        case .expectedColon: "write the member as \"key\": value"
        case .expectedCommaOrEnd: "separate members and elements with commas, and close every { and ["
        case .unexpectedEnd: "the file may be truncated; close every open string, { and ["
        case .trailingContent: "a document holds exactly one value; remove what follows it"
        case .duplicateKey: "keep one of the two members and delete the other"
        case .tooDeep: "flatten the structure, or raise the limit if the nesting is intended"
        case .tooLarge: "split the data into several documents, or raise the limit if the size is intended"
        case .unreadable: "check that the path exists and is a readable file"
        case .typeMismatch, .invalidValue: "correct the value in the document to the expected form"
        case .notRepresentable: "store a finite number, or the value as a string"
        }
    }

    /// The diagnostic: `file:line:column: error: message`, the excerpt with its caret when the
    /// location is known, and a `hint:` line saying what to do.
    public var description: String {
        var head = ""
        if let file { head += file + ":" }
        if let location { head += "\(location.line):\(location.column):" }
        var text = (head.isEmpty ? "" : head + " ") + "error: " + message
        if let excerpt = location?.excerpt { text += "\n" + excerpt }
        text += "\nhint: " + hint
        return text
    }
}
