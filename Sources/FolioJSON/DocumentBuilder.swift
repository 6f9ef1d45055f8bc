import CYajl

/// The state behind YAJL's parse callbacks: turns the stream of events into one `JSONValue`.
///
/// Open containers keep their pending elements on flat stacks (`values` for
/// arrays, `members` for objects) rather than one array each, so a container costs
/// one array allocation when it closes, and its elements move into it uncopied.
///
/// A builder runs in one of two modes. The fast mode, for every read, asks YAJL
/// for no positions. The locating mode, run again over a document already known
/// to be broken, records where each event ended, which is what placing a grammar
/// error or a duplicate key needs.
final class DocumentBuilder {
    private struct Frame {
        var isObject: Bool
        /// Where the container's pending elements (or members) begin on their stack.
        var start: Int
        /// Where an object's key hashes begin on `keyHashes`. It differs from `start` by
        /// the outer objects' keys still waiting for their values (this object is one).
        var hashStart: Int
        /// The object's key read last, waiting for its value.
        var pendingKey = ""
        /// Hashes of the keys seen so far, kept only for wide objects where a linear scan would be slow.
        var keyHashSet: Set<UInt64>?
    }

    /// Objects up to this many members check duplicates by a linear scan of key hashes; wider ones by a set.
    private static let linearKeyScanLimit = 64

    let maximumDepth: Int
    let isLocating: Bool
    /// The parser, for the offset of the token behind each callback.
    var handle: yajl_handle?
    // The builder is only ever used by the one parse that owns it, so the runtime's
    // exclusivity checks on every callback buy nothing (they cost about 7% of a read).
    @exclusivity(unchecked) private var values = MoveStack<JSONValue>(capacity: 16)
    @exclusivity(unchecked) private var members = MoveStack<JSONObject.Member>(capacity: 32)
    /// The hash of every key read in the open objects.
    @exclusivity(unchecked) private var keyHashes: [UInt64] = []
    /// When locating: the offset just past each key, in step with `keyHashes`.
    @exclusivity(unchecked) private var keyEnds: [Int] = []
    @exclusivity(unchecked) private var frames: [Frame] = []

    /// The member of the top-level object whose array elements go to `onStreamedElement` as
    /// each completes, instead of into the array (see `StreamingObjectReader`).
    var streamedMember: String?
    var onStreamedElement: ((JSONValue) -> Void)?

    /// The document's value, once complete.
    private(set) var result: JSONValue?
    /// The byte offset just past the document's value.
    private(set) var resultEnd = 0
    /// Why the builder cancelled the parse, and where (`nil` offset: to be located by the reader).
    private(set) var failure: (kind: JSONError.Kind, offset: Int?)?
    /// For a duplicate key (when locating), the offset just past its first occurrence.
    private(set) var firstKeyEnd: Int?

    /// The kinds of parse event, as far as locating a grammar error needs them.
    enum Event { case none, opened, key, value }
    /// When locating: the last event, and the offset just past its token. A grammar
    /// error is in the first token after it (and after the separator it expects).
    private(set) var lastEvent = Event.none
    private(set) var lastEventEnd = 0

    init(maximumDepth: Int, isLocating: Bool) {
        self.maximumDepth = maximumDepth
        self.isLocating = isLocating
        keyHashes.reserveCapacity(32)
        frames.reserveCapacity(8)
    }

    private var consumed: Int { yajl_get_bytes_consumed(handle) }

    private func fail(_ kind: JSONError.Kind, at offset: Int?) -> Int32 {
        failure = (kind, offset)
        return 0
    }

    private func record(_ event: Event) {
        lastEvent = event
        lastEventEnd = consumed
    }

    func add(_ value: JSONValue) -> Int32 {
        if isLocating { record(.value) }
        guard let top = frames.last else {
            result = value
            resultEnd = consumed
            return 1
        }
        if top.isObject {
            members.append(JSONObject.Member(key: top.pendingKey, value: value))
        } else if let onStreamedElement, frames.count == 2, frames[0].pendingKey == streamedMember {
            onStreamedElement(value)
        } else {
            values.append(value)
        }
        return 1
    }

    func addNumber(_ text: UnsafePointer<CChar>?, _ length: Int) -> Int32 {
        let bytes = UnsafeBufferPointer(
            start: UnsafeRawPointer(text)?.assumingMemoryBound(to: UInt8.self), count: length)
        return add(JSONNumber.value(ofValidText: bytes))
    }

    func addString(_ text: UnsafePointer<UInt8>?, _ length: Int) -> Int32 {
        guard let string = Self.string(text, length) else { return fail(.invalidUTF8, at: nil) }
        return add(.string(string))
    }

    func addKey(_ text: UnsafePointer<UInt8>?, _ length: Int) -> Int32 {
        guard let key = Self.string(text, length) else { return fail(.invalidUTF8, at: nil) }
        let hash = Self.hash(UnsafeBufferPointer(start: text, count: length))
        let top = frames.count - 1
        let hashStart = frames[top].hashStart
        // Every earlier key of this object already has its member: hash i is member i - shift.
        let shift = hashStart - frames[top].start
        func same(_ index: Int) -> Bool { keyHashes[index] == hash && members.key(at: index - shift) == key }
        var duplicate: Int?
        if keyHashes.count - hashStart < Self.linearKeyScanLimit {
            var index = hashStart
            while index < keyHashes.count {
                if same(index) {
                    duplicate = index
                    break
                }
                index += 1
            }
        } else {
            if frames[top].keyHashSet == nil { frames[top].keyHashSet = Set(keyHashes[hashStart...]) }
            if !frames[top].keyHashSet!.insert(hash).inserted {
                duplicate = (hashStart..<keyHashes.count).first(where: same)
            }
        }
        if let duplicate {
            firstKeyEnd = isLocating ? keyEnds[duplicate] : nil
            // The reader fills in the line.
            return fail(.duplicateKey(key, firstLine: 0), at: isLocating ? consumed : nil)
        }
        frames[top].pendingKey = key
        keyHashes.append(hash)
        if isLocating {
            record(.key)
            keyEnds.append(lastEventEnd)
        }
        return 1
    }

    func open(isObject: Bool) -> Int32 {
        if isLocating { record(.opened) }
        guard frames.count < maximumDepth else { return fail(.tooDeep(limit: maximumDepth), at: consumed - 1) }
        frames.append(
            Frame(isObject: isObject, start: isObject ? members.count : values.count, hashStart: keyHashes.count))
        return 1
    }

    func closeArray() -> Int32 {
        let frame = frames.removeLast()
        return add(.array(values.popArray(from: frame.start)))
    }

    func closeObject() -> Int32 {
        let frame = frames.removeLast()
        keyHashes.removeSubrange(frame.hashStart...)
        if isLocating { keyEnds.removeSubrange(frame.hashStart...) }
        return add(.object(JSONObject(uniqueMembers: members.popArray(from: frame.start))))
    }

    /// A string from YAJL's unescaped bytes, or `nil` when they are not strictly valid UTF-8
    /// (Swift's check rejects overlong forms and encoded surrogates, which YAJL's lets through).
    private static func string(_ text: UnsafePointer<UInt8>?, _ length: Int) -> String? {
        guard let text else { return "" }
        guard let span = try? UTF8Span(validating: UnsafeBufferPointer(start: text, count: length).span) else {
            return nil
        }
        return String(copying: span)
    }

    /// FNV-1a of a key's bytes, so duplicate checks compare integers and strings only on a match.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }
}

extension DocumentBuilder {
    /// The callback table YAJL calls, shared by every parse; `ctx` is the builder.
    nonisolated(unsafe) static let callbacks: UnsafeMutablePointer<yajl_callbacks> = {
        func builder(_ context: UnsafeMutableRawPointer?) -> DocumentBuilder {
            Unmanaged<DocumentBuilder>.fromOpaque(context!).takeUnretainedValue()
        }
        let table = UnsafeMutablePointer<yajl_callbacks>.allocate(capacity: 1)
        table.initialize(
            to: yajl_callbacks(
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
