import Foundation

extension QueryValue {
    /// A hash of an index key that is the same in every process, for the index a folder's
    /// cache file keeps (see `CacheIndex`), where Swift's `Hasher`, seeded anew per process,
    /// cannot serve.
    ///
    /// Keys equal under `==` hash equal, so a lookup never misses a document; unequal keys
    /// may collide, which costs only a candidate the filter then turns away. Text is hashed
    /// in its canonical composition (Swift's `==` is canonical equivalence: the Kelvin sign
    /// equals `K`), and when that is not ASCII it shares one hash with all such text, as
    /// nested JSON does with all nested JSON: reproducing their `==` byte for byte is not
    /// worth the risk of a missed document.
    static func stableHash(of key: [QueryValue]) -> UInt64 {
        var bytes: [UInt8] = []
        for value in key { value.appendStableBytes(to: &bytes) }
        return ContentHash.of(bytes)
    }

    private func appendStableBytes(to bytes: inout [UInt8]) {
        func number(_ value: Double) {
            // `==` makes 0.0 and -0.0 one value (and an integer the double it equals).
            withUnsafeBytes(of: (value == 0 ? 0.0 : value).bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        }
        switch self {
        case .null: bytes.append(0)
        case .bool(let value): bytes.append(contentsOf: [1, value ? 1 : 0])
        case .integer(let value):
            bytes.append(2)
            number(Double(value))
        case .double(let value):
            bytes.append(2)
            number(value)
        case .string(var text):
            if !text.utf8.allSatisfy({ $0 < 0x80 }) {
                text = text.precomposedStringWithCanonicalMapping
                guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return bytes.append(4) }
            }
            bytes.append(3)
            withUnsafeBytes(of: UInt64(text.utf8.count).littleEndian) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: text.utf8)
        case .date(let date):
            bytes.append(5)
            number(date.timeIntervalSinceReferenceDate)
        case .array(let elements):
            bytes.append(6)
            withUnsafeBytes(of: UInt64(elements.count).littleEndian) { bytes.append(contentsOf: $0) }
            for element in elements { element.appendStableBytes(to: &bytes) }
        case .document(_, let id):
            // The entity is left out, as `hash(into:)` leaves it out.
            bytes.append(7)
            withUnsafeBytes(of: id.uuid) { bytes.append(contentsOf: $0) }
        case .json: bytes.append(8)
        }
    }
}
