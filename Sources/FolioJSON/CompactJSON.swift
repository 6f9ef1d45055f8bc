import Glibc

/// A compact binary form of `JSONValue`, for Folio's local caches (never for documents).
///
/// Decoding it is several times cheaper than parsing text: no tokenizing, no
/// escapes, lengths up front. It is an internal format of `.folio/`: a cache
/// written in it is checksummed by its owner, and every read is bounds-checked,
/// so a damaged cache is detected (`nil`), never trusted and never a crash.
///
/// Layout: one tag byte, then for integers a zig-zag varint, for doubles 8
/// little-endian bytes, for text a varint length and UTF-8 bytes, for arrays a
/// varint count and the elements, for objects a count and key/value pairs.
public enum CompactJSON {
    private enum Tag: UInt8 {
        case null = 0, `false`, `true`, integer, double, number, string, array, object
    }

    /// Appends the compact form of a value to a buffer.
    public static func encode(_ value: JSONValue, into buffer: inout [UInt8]) {
        switch value {
        case .null: buffer.append(Tag.null.rawValue)
        case .bool(let flag): buffer.append(flag ? Tag.true.rawValue : Tag.false.rawValue)
        case .integer(let integer):
            buffer.append(Tag.integer.rawValue)
            appendVarint(UInt64(bitPattern: (integer << 1) ^ (integer >> 63)), to: &buffer)
        case .double(let double):
            buffer.append(Tag.double.rawValue)
            withUnsafeBytes(of: double.bitPattern.littleEndian) { buffer.append(contentsOf: $0) }
        case .number(let text): appendText(text, tag: .number, to: &buffer)
        case .string(let text): appendText(text, tag: .string, to: &buffer)
        case .array(let elements):
            buffer.append(Tag.array.rawValue)
            appendVarint(UInt64(elements.count), to: &buffer)
            for element in elements { encode(element, into: &buffer) }
        case .object(let object):
            buffer.append(Tag.object.rawValue)
            appendVarint(UInt64(object.count), to: &buffer)
            for member in object {
                appendText(member.key, tag: nil, to: &buffer)
                encode(member.value, into: &buffer)
            }
        }
    }

    /// Decodes one value from the start of `bytes`; `nil` when the bytes are not a
    /// complete, valid encoding (truncated, bad tag, bad UTF-8, nested too deep).
    public static func decode(_ bytes: UnsafeRawBufferPointer, maximumDepth: Int = JSONReader.defaultMaximumDepth)
        -> JSONValue?
    {
        var cursor = Cursor(bytes: bytes)
        guard let value = cursor.value(depth: 0, maximumDepth: maximumDepth), cursor.offset == bytes.count else {
            return nil
        }
        return value
    }

    /// The values of an object's members named `names` (distinct; `nil` for one it does not
    /// have), read without decoding the rest of it: what an index needs of a cached document.
    /// `nil` when the bytes are not a valid encoding of an object.
    public static func members(
        _ names: [String], of bytes: UnsafeRawBufferPointer, maximumDepth: Int = JSONReader.defaultMaximumDepth
    ) -> [JSONValue?]? {
        var cursor = Cursor(bytes: bytes)
        guard cursor.byte() == Tag.object.rawValue, let count = cursor.length() else { return nil }
        var found = [JSONValue?](repeating: nil, count: names.count)
        var missing = names.count
        // Where the next name is looked for first: names listed in the order documents store
        // them (a model's declaration order) are each found at the first place looked.
        var next = 0
        for _ in 0..<count {
            guard let keyLength = cursor.length(), let key = cursor.rawBytes(keyLength) else { return nil }
            if missing > 0, let index = position(of: key, in: names, from: next) {
                missing -= found[index] == nil ? 1 : 0
                guard let value = cursor.value(depth: 1, maximumDepth: maximumDepth) else { return nil }
                found[index] = value
                next = index + 1
            } else {
                guard cursor.skipValue(depth: 1, maximumDepth: maximumDepth) else { return nil }
            }
        }
        return cursor.offset == bytes.count ? found : nil
    }

    /// The value of an object's member named `name`, read up to it and no further: `nil`
    /// when the object lacks it or the bytes up to it are not a valid encoding. For one
    /// member of bytes a checksum vouched for (a document's `"$entity"` leads it).
    public static func member(
        _ name: String, of bytes: UnsafeRawBufferPointer, maximumDepth: Int = JSONReader.defaultMaximumDepth
    ) -> JSONValue? {
        guard var cursor = cursor(atMember: name, of: bytes, maximumDepth: maximumDepth) else { return nil }
        return cursor.value(depth: 1, maximumDepth: maximumDepth)
    }

    /// Whether an object's member named `name` is the string `text`, read up to it and
    /// compared as bytes, no `String` made: a fetch's check of each document's `"$entity"`.
    public static func member(_ name: String, of bytes: UnsafeRawBufferPointer, isText text: String) -> Bool {
        guard var cursor = cursor(atMember: name, of: bytes, maximumDepth: JSONReader.defaultMaximumDepth),
            cursor.byte() == Tag.string.rawValue, let length = cursor.length(), let value = cursor.rawBytes(length)
        else { return false }
        return isKey(value, text)
    }

    /// A cursor at the value of an object's member named `name`, the members before it
    /// skipped; `nil` when the object lacks it or the bytes up to it do not decode.
    private static func cursor(atMember name: String, of bytes: UnsafeRawBufferPointer, maximumDepth: Int)
        -> Cursor?
    {
        var cursor = Cursor(bytes: bytes)
        guard cursor.byte() == Tag.object.rawValue, let count = cursor.length() else { return nil }
        for _ in 0..<count {
            guard let keyLength = cursor.length(), let key = cursor.rawBytes(keyLength) else { return nil }
            if isKey(key, name) { return cursor }
            guard cursor.skipValue(depth: 1, maximumDepth: maximumDepth) else { return nil }
        }
        return nil
    }

    /// The position in `names` of the one whose UTF-8 is `key`, looked for from `start` on,
    /// then before it.
    private static func position(of key: UnsafeRawBufferPointer, in names: [String], from start: Int) -> Int? {
        let start = min(start, names.count)
        return names[start...].firstIndex { isKey(key, $0) } ?? names[..<start].firstIndex { isKey(key, $0) }
    }

    /// Whether `key` is the UTF-8 of `name`.
    private static func isKey(_ key: UnsafeRawBufferPointer, _ name: String) -> Bool {
        // Lengths first: most keys differ from every name in length, which costs no byte compare.
        guard name.utf8.count == key.count else { return false }
        return name.utf8.withContiguousStorageIfAvailable { name in
            key.isEmpty || memcmp(name.baseAddress!, key.baseAddress!, key.count) == 0
        } ?? name.utf8.elementsEqual(key)
    }

    private static func appendText(_ text: String, tag: Tag?, to buffer: inout [UInt8]) {
        if let tag { buffer.append(tag.rawValue) }
        appendVarint(UInt64(text.utf8.count), to: &buffer)
        buffer.append(contentsOf: text.utf8)
    }

    /// Appends an unsigned LEB128 varint.
    public static func appendVarint(_ value: UInt64, to buffer: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            buffer.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        buffer.append(UInt8(value))
    }

    /// A bounds-checked reader over compact bytes.
    public struct Cursor {
        let bytes: UnsafeRawBufferPointer
        /// The next byte to read.
        public private(set) var offset = 0

        /// A cursor at the start of `bytes`, which must stay valid while it is used.
        public init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        /// The bytes not read yet.
        public var remaining: Int { bytes.count - offset }

        /// The next byte, or `nil` at the end.
        public mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        /// The next unsigned LEB128 varint, or `nil` when the bytes end inside it or it runs past 64 bits.
        public mutating func varint() -> UInt64? {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while shift < 64, let byte = byte() {
                result |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return result }
                shift += 7
            }
            return nil
        }

        /// A count or length, bounded by what remains so a damaged count cannot allocate wildly.
        public mutating func length() -> Int? {
            guard let value = varint(), value <= UInt64(remaining) else { return nil }
            return Int(value)
        }

        /// The next `count` bytes, without copying, or `nil` when fewer remain (nothing is read then).
        public mutating func rawBytes(_ count: Int) -> UnsafeRawBufferPointer? {
            guard count >= 0, count <= remaining else { return nil }
            defer { offset += count }
            return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
        }

        /// The next string: a varint byte count then UTF-8 bytes; `nil` when the bytes are missing or
        /// not valid UTF-8.
        public mutating func text() -> String? {
            guard let count = length(), let raw = rawBytes(count) else { return nil }
            let bytes = raw.bindMemory(to: UInt8.self)
            // Nearly all stored text is ASCII, which is valid as it is; the generic
            // validating initializer looked type metadata up for every string read.
            if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
            return String(validating: bytes, as: UTF8.self)
        }

        /// The next eight bytes as a little-endian `UInt64`, or `nil` when fewer remain.
        public mutating func uint64() -> UInt64? {
            guard let raw = rawBytes(8) else { return nil }
            var value: UInt64 = 0
            for (index, byte) in raw.enumerated() { value |= UInt64(byte) << (8 * UInt64(index)) }
            return value
        }

        /// Moves past one value without making it; `false` when it is not a valid encoding.
        mutating func skipValue(depth: Int, maximumDepth: Int) -> Bool {
            guard let raw = byte(), let tag = Tag(rawValue: raw) else { return false }
            switch tag {
            case .null, .false, .true: return true
            case .integer: return varint() != nil
            case .double: return rawBytes(8) != nil
            case .number, .string:
                guard let count = length() else { return false }
                return rawBytes(count) != nil
            case .array, .object:
                guard depth < maximumDepth, let count = length() else { return false }
                for _ in 0..<count {
                    if tag == .object {
                        guard let keyLength = length(), rawBytes(keyLength) != nil else { return false }
                    }
                    guard skipValue(depth: depth + 1, maximumDepth: maximumDepth) else { return false }
                }
                return true
            }
        }

        mutating func value(depth: Int, maximumDepth: Int) -> JSONValue? {
            guard let raw = byte(), let tag = Tag(rawValue: raw) else { return nil }
            switch tag {
            case .null: return .null
            case .false: return .bool(false)
            case .true: return .bool(true)
            case .integer:
                guard let zigzag = varint() else { return nil }
                return .integer(Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1))
            case .double:
                guard let bits = uint64() else { return nil }
                let double = Double(bitPattern: bits)
                return double.isFinite ? .double(double) : nil
            case .number: return text().map(JSONValue.number)
            case .string: return text().map(JSONValue.string)
            case .array:
                guard depth < maximumDepth, let count = length() else { return nil }
                var elements: [JSONValue] = []
                elements.reserveCapacity(count)
                for _ in 0..<count {
                    guard let element = value(depth: depth + 1, maximumDepth: maximumDepth) else { return nil }
                    elements.append(element)
                }
                return .array(elements)
            case .object:
                guard depth < maximumDepth, let count = length() else { return nil }
                var members: [JSONObject.Member] = []
                members.reserveCapacity(count)
                for _ in 0..<count {
                    guard let key = text(), let member = value(depth: depth + 1, maximumDepth: maximumDepth) else {
                        return nil
                    }
                    members.append(JSONObject.Member(key: key, value: member))
                }
                // Keys were unique when encoded; the owner's checksum vouches that these are those bytes.
                return .object(JSONObject(uniqueMembers: members))
            }
        }
    }
}
