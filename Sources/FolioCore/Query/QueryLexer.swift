import Foundation

/// The tokens of the text query language, each with the column it starts at.
struct QueryLexer {
    enum Kind: Equatable {
        case identifier(String)
        case variable(Int)  // $0, $1
        case integer(Int64)
        case double(Double)
        case string(String)
        case date(String)  // the text after `@`
        case symbol(String)  // operators and punctuation
        case end
    }

    struct Token: Equatable {
        var kind: Kind
        /// 1-based column of the token's first character.
        var column: Int
    }

    /// The failure to read a token: where and why.
    struct Failure: Error {
        var column: Int
        var message: String
    }

    static let symbols = [
        "&&", "||", "==", "!=", "<=", ">=", "~=", "??", "<", ">", "!", "+", "-", "*", "/", "%", "(", ")", "[", "]", ",",
        ".", "?", ":",
    ]

    /// The tokens of a query, ending with `.end`.
    static func tokens(of text: String) throws(Failure) -> [Token] {
        let characters = Array(text)
        var tokens: [Token] = []
        var index = 0
        func peek(_ offset: Int = 0) -> Character? {
            index + offset < characters.count ? characters[index + offset] : nil
        }
        while index < characters.count {
            let character = characters[index]
            let column = index + 1
            if character.isWhitespace {
                index += 1
                continue
            }
            if character.isLetter || character == "_" {
                var name = ""
                while let next = peek(), next.isLetter || next.isNumber || next == "_" {
                    name.append(next)
                    index += 1
                }
                tokens.append(Token(kind: .identifier(name), column: column))
                continue
            }
            if character == "$" {
                index += 1
                var digits = ""
                while let next = peek(), next.isASCII, next.isNumber {
                    digits.append(next)
                    index += 1
                }
                guard let number = Int(digits) else {
                    throw Failure(column: column, message: "expected a number after $, as in $0")
                }
                tokens.append(Token(kind: .variable(number), column: column))
                continue
            }
            if character.isASCII, character.isNumber {
                var text = ""
                var isDouble = false
                while let next = peek(), next.isASCII,
                    next.isNumber || next == "_" || (next == "." && !isDouble && peek(1)?.isNumber == true)
                        || ((next == "e" || next == "E") && !text.contains("e"))
                {
                    if next == "." || next == "e" || next == "E" { isDouble = true }
                    if next != "_" { text.append(next == "E" ? "e" : next) }
                    index += 1
                    if next == "e", let sign = peek(), sign == "-" || sign == "+" {
                        text.append(sign)
                        index += 1
                    }
                }
                if isDouble {
                    guard let value = Double(text) else {
                        throw Failure(column: column, message: "\(text) is not a number")
                    }
                    // Double reads 1e400 as infinity, which no query could write back.
                    guard value.isFinite else {
                        throw Failure(
                            column: column, message: "\(text) is too large for a 64-bit floating-point number")
                    }
                    tokens.append(Token(kind: .double(value), column: column))
                } else {
                    guard let value = Int64(text) else {
                        throw Failure(column: column, message: "\(text) does not fit a 64-bit integer")
                    }
                    tokens.append(Token(kind: .integer(value), column: column))
                }
                continue
            }
            if character == "\"" {
                index += 1
                var value = ""
                while true {
                    guard let next = peek() else {
                        throw Failure(column: column, message: "the string that starts here has no closing \"")
                    }
                    index += 1
                    if next == "\"" { break }
                    guard next == "\\" else {
                        value.append(next)
                        continue
                    }
                    guard let escaped = peek() else {
                        throw Failure(column: column, message: "the string that starts here has no closing \"")
                    }
                    index += 1
                    switch escaped {
                    case "\"": value.append("\"")
                    case "\\": value.append("\\")
                    case "n": value.append("\n")
                    case "t": value.append("\t")
                    case "r": value.append("\r")
                    case "0": value.append("\0")
                    case "u":
                        guard peek() == "{", let close = characters[index...].firstIndex(of: "}"),
                            let scalar = UInt32(String(characters[(index + 1)..<close]), radix: 16).flatMap(
                                Unicode.Scalar.init)
                        else { throw Failure(column: index, message: "expected a Unicode escape such as \\u{1F600}") }
                        value.unicodeScalars.append(scalar)
                        index = close + 1
                    default:
                        throw Failure(
                            column: index,
                            message: "\\\(escaped) is not an escape; use \\\" \\\\ \\n \\t \\r \\0 or \\u{...}")
                    }
                }
                tokens.append(Token(kind: .string(value), column: column))
                continue
            }
            if character == "@" {
                index += 1
                var text = ""
                while let next = peek(), next.isLetter || next.isNumber || "-:.+".contains(next) {
                    text.append(next)
                    index += 1
                }
                guard !text.isEmpty else {
                    throw Failure(
                        column: column, message: "expected a date after @, as in @2026-11-01 or @2026-11-01T09:30:00Z")
                }
                tokens.append(Token(kind: .date(text), column: column))
                continue
            }
            guard
                let symbol = symbols.first(where: { symbol in
                    symbol.enumerated().allSatisfy { peek($0.offset) == $0.element }
                })
            else {
                // A lone `=` is most often a comparison meant: say which one.
                let hint =
                    character == "="
                    ? "; compare with =="
                    : character == "&" || character == "|"
                        ? "; write \(character)\(character)"
                        : character == "'" ? "; write text in double quotes, as in Swift: \"…\"" : ""
                throw Failure(column: column, message: "\(character) is not part of the query language\(hint)")
            }
            index += symbol.count
            tokens.append(Token(kind: .symbol(symbol), column: column))
        }
        tokens.append(Token(kind: .end, column: characters.count + 1))
        return tokens
    }
}
