import CYajl

/// The state behind YAJL's parse callbacks: turns the stream of events into one `JSONValue`.
///
/// Open containers keep their pending elements on one flat stack (`values`,
/// and `keys` for objects) rather than one array each, so a container costs one
/// array allocation when it closes and none while it fills.
final class DocumentBuilder {
    private struct Frame {
        var valueStart: Int
        var keyStart: Int
        var isObject: Bool
        /// The keys seen so far, kept only for wide objects where a linear duplicate scan would be slow.
        var keySet: Set<String>?
    }

    /// Objects up to this many members check duplicates by a linear scan; wider ones by a set.
    private static let linearKeyScanLimit = 16

    let maximumDepth: Int
    /// The parser, for the offset of the token behind each callback.
    var handle: yajl_handle?
    private var values: [JSONValue] = []
    private var keys: [String] = []
    private var keyEnds: [Int] = []
    private var frames: [Frame] = []

    /// The document's value, once complete.
    private(set) var result: JSONValue?
    /// The byte offset just past the document's value.
    private(set) var resultEnd = 0
    /// Why the builder cancelled the parse, and where (`nil` offset: to be located by the reader).
    private(set) var failure: (kind: JSONError.Kind, offset: Int?)?
    /// For a duplicate key, the offset just past its first occurrence.
    private(set) var firstKeyEnd: Int?

    /// The kinds of parse event, as far as locating a grammar error needs them.
    enum Event { case none, opened, key, value }
    /// The last event, and the offset just past its token: a grammar error is in the
    /// first token after it (and after the separator it expects).
    private(set) var lastEvent = Event.none
    private(set) var lastEventEnd = 0

    init(maximumDepth: Int) {
        self.maximumDepth = maximumDepth
        values.reserveCapacity(32)
        keys.reserveCapacity(32)
        keyEnds.reserveCapacity(32)
    }

    private var consumed: Int { yajl_get_bytes_consumed(handle) }

    private func fail(_ kind: JSONError.Kind, at offset: Int?) -> Int32 {
        failure = (kind, offset)
        return 0
    }

    func add(_ value: JSONValue) -> Int32 {
        lastEvent = .value
        lastEventEnd = consumed
        if frames.isEmpty {
            result = value
            resultEnd = lastEventEnd
        } else {
            values.append(value)
        }
        return 1
    }

    func addNumber(_ text: UnsafePointer<CChar>?, _ length: Int) -> Int32 {
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(text)?.assumingMemoryBound(to: UInt8.self), count: length)
        return add(JSONNumber.value(ofValidText: bytes))
    }

    func addString(_ text: UnsafePointer<UInt8>?, _ length: Int) -> Int32 {
        guard let string = Self.string(text, length) else { return fail(.invalidUTF8, at: nil) }
        return add(.string(string))
    }

    func addKey(_ text: UnsafePointer<UInt8>?, _ length: Int) -> Int32 {
        guard let key = Self.string(text, length) else { return fail(.invalidUTF8, at: nil) }
        let top = frames.count - 1
        let start = frames[top].keyStart
        var firstIndex: Int?
        if keys.count - start <= Self.linearKeyScanLimit {
            firstIndex = keys[start...].firstIndex(of: key)
        } else {
            if frames[top].keySet == nil { frames[top].keySet = Set(keys[start...]) }
            if !frames[top].keySet!.insert(key).inserted { firstIndex = keys[start...].firstIndex(of: key) }
        }
        let end = consumed
        if let firstIndex {
            firstKeyEnd = keyEnds[firstIndex]
            return fail(.duplicateKey(key, firstLine: 0), at: end)  // the reader fills in the line
        }
        keys.append(key)
        keyEnds.append(end)
        lastEvent = .key
        lastEventEnd = end
        return 1
    }

    func open(isObject: Bool) -> Int32 {
        guard frames.count < maximumDepth else { return fail(.tooDeep(limit: maximumDepth), at: consumed - 1) }
        frames.append(Frame(valueStart: values.count, keyStart: keys.count, isObject: isObject))
        lastEvent = .opened
        lastEventEnd = consumed
        return 1
    }

    func closeArray() -> Int32 {
        let frame = frames.removeLast()
        let elements = Array(values[frame.valueStart...])
        values.removeSubrange(frame.valueStart...)
        return add(.array(elements))
    }

    func closeObject() -> Int32 {
        let frame = frames.removeLast()
        var members: [JSONObject.Member] = []
        members.reserveCapacity(values.count - frame.valueStart)
        for (key, value) in zip(keys[frame.keyStart...], values[frame.valueStart...]) {
            members.append(JSONObject.Member(key: key, value: value))
        }
        values.removeSubrange(frame.valueStart...)
        keys.removeSubrange(frame.keyStart...)
        keyEnds.removeSubrange(frame.keyStart...)
        return add(.object(JSONObject(uniqueMembers: members)))
    }

    /// A string from YAJL's unescaped bytes, or `nil` when they are not strictly valid UTF-8
    /// (Swift's check rejects overlong forms and encoded surrogates, which YAJL's lets through).
    private static func string(_ text: UnsafePointer<UInt8>?, _ length: Int) -> String? {
        guard let text else { return "" }
        return String(validating: UnsafeBufferPointer(start: text, count: length), as: UTF8.self)
    }
}

extension DocumentBuilder {
    /// The callback table YAJL calls, shared by every parse; `ctx` is the builder.
    nonisolated(unsafe) static let callbacks: UnsafeMutablePointer<yajl_callbacks> = {
        func builder(_ context: UnsafeMutableRawPointer?) -> DocumentBuilder {
            Unmanaged<DocumentBuilder>.fromOpaque(context!).takeUnretainedValue()
        }
        let table = UnsafeMutablePointer<yajl_callbacks>.allocate(capacity: 1)
        table.initialize(to: yajl_callbacks(
            yajl_null: { builder($0).add(.null) },
            yajl_boolean: { builder($0).add(.bool($1 != 0)) },
            yajl_integer: nil,
            yajl_double: nil,
            yajl_number: { builder($0).addNumber($1, $2) },
            yajl_string: { builder($0).addString($1, $2) },
            yajl_start_map: { builder($0).open(isObject: true) },
            yajl_map_key: { builder($0).addKey($1, $2) },
            yajl_end_map: { builder($0).closeObject() },
            yajl_start_array: { builder($0).open(isObject: false) },
            yajl_end_array: { builder($0).closeArray() }
        ))
        return table
    }()
}
