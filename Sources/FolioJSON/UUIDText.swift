import Foundation

/// UUIDs as text, read and written without Foundation's `sscanf` and `sprintf` (which
/// cost more than the rest of reading a small document): 36 characters, hex digits of
/// either case in, uppercase out, as `UUID.uuidString` writes them.
public enum UUIDText {
    /// The UUID in 36 bytes of text (either case), or `nil`.
    public static func parse(_ text: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard text.count == 36 else { return nil }
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let valid = withUnsafeMutableBytes(of: &bytes) { out -> Bool in
            var index = 0
            for position in 0..<16 {
                if index == 8 || index == 13 || index == 18 || index == 23 {
                    guard text[index] == UInt8(ascii: "-") else { return false }
                    index += 1
                }
                guard let high = hexValue(text[index]), let low = hexValue(text[index + 1]) else { return false }
                out[position] = high << 4 | low
                index += 2
            }
            return true
        }
        return valid ? UUID(uuid: bytes) : nil
    }

    /// The UUID in a string (either case), or `nil`.
    public static func parse(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { parse($0) }
    }

    /// The canonical text: uppercase, with hyphens, as `uuidString`.
    public static func text(of uuid: UUID) -> String {
        let digits: StaticString = "0123456789ABCDEF"
        return withUnsafeBytes(of: uuid.uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { out in
                var index = 0
                for (position, byte) in bytes.enumerated() {
                    if position == 4 || position == 6 || position == 8 || position == 10 {
                        out[index] = UInt8(ascii: "-")
                        index += 1
                    }
                    digits.withUTF8Buffer { hex in
                        out[index] = hex[Int(byte >> 4)]
                        out[index + 1] = hex[Int(byte & 0x0F)]
                    }
                    index += 2
                }
                return 36
            }
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
