/// A place inside a JSON value: the keys and positions that lead to it from the top
/// (`entities` › `Timer` › `properties` › 2 › `type`), and where that is in the text the
/// value was read from, so a finding about it can name a line and column.
package struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    package enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    package var components: [Component]

    package init(_ components: [Component] = []) { self.components = components }

    /// This path followed by a member's key.
    package func appending(_ key: String) -> JSONPath { JSONPath(components + [.key(key)]) }

    /// This path followed by an element's position.
    package func appending(_ index: Int) -> JSONPath { JSONPath(components + [.index(index)]) }

    /// `entities.Timer.properties[2].type`.
    package var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key): text += (text.isEmpty ? "" : ".") + key
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }

    /// Where the path leads in a text that reads as valid JSON: a member's key, or an
    /// element; the top of the text for the empty path; `nil` when the path leads nowhere.
    package func location(in text: [UInt8]) -> SourceLocation? {
        var scanner = Scanner(bytes: text)
        scanner.skipSpace()
        for component in components {
            switch component {
            case .key(let wanted):
                guard scanner.take(UInt8(ascii: "{")) else { return nil }
                var found = false
                while !found {
                    scanner.skipSpace()
                    let keyStart = scanner.position
                    guard let key = scanner.string() else { return nil }
                    scanner.skipSpace()
                    guard scanner.take(UInt8(ascii: ":")) else { return nil }
                    scanner.skipSpace()
                    if key == wanted {
                        found = true
                        if component == components.last {
                            return text.withUnsafeBufferPointer { SourceLocation(offset: keyStart, in: $0) }
                        }
                    } else {
                        guard scanner.skipValue() else { return nil }
                        scanner.skipSpace()
                        guard scanner.take(UInt8(ascii: ",")) else { return nil }
                    }
                }
            case .index(let wanted):
                guard scanner.take(UInt8(ascii: "[")) else { return nil }
                for _ in 0..<wanted {
                    scanner.skipSpace()
                    guard scanner.skipValue() else { return nil }
                    scanner.skipSpace()
                    guard scanner.take(UInt8(ascii: ",")) else { return nil }
                }
                scanner.skipSpace()
                guard !scanner.take(UInt8(ascii: "]")) else { return nil }
            }
        }
        return text.withUnsafeBufferPointer { SourceLocation(offset: scanner.position, in: $0) }
    }

    /// Steps through JSON text already known to be valid, which is why it checks so little.
    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        mutating func skipSpace() {
            while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) { position += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        /// A string's value, escapes decoded by the reader itself.
        mutating func string() -> String? {
            let start = position
            guard skipString() else { return nil }
            let raw = bytes[start..<position]
            guard raw.contains(UInt8(ascii: "\\")) else {
                return String(decoding: raw.dropFirst().dropLast(), as: UTF8.self)
            }
            return (try? JSONReader().read(Array(raw)))?.stringValue
        }

        private mutating func skipString() -> Bool {
            guard take(UInt8(ascii: "\"")) else { return false }
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "\\"): position += 2
                case UInt8(ascii: "\""):
                    position += 1
                    return true
                default: position += 1
                }
            }
            return false
        }

        /// Skips one value, nested ones by counting brackets outside strings.
        mutating func skipValue() -> Bool {
            guard position < bytes.count else { return false }
            switch bytes[position] {
            case UInt8(ascii: "\""): return skipString()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while position < bytes.count {
                    switch bytes[position] {
                    case UInt8(ascii: "\""):
                        guard skipString() else { return false }
                        if depth == 0 { return true }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 {
                            position += 1
                            return true
                        }
                    default: break
                    }
                    position += 1
                }
                return false
            default:
                // A number or a literal runs to the next delimiter.
                let start = position
                while position < bytes.count,
                    ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09].contains(
                        bytes[position])
                {
                    position += 1
                }
                return position > start
            }
        }
    }
}
