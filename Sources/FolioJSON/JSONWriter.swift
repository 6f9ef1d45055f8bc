import CYajl

/// Writes a `JSONValue` as Folio's canonical text, on YAJL's generator.
///
/// Canonical text is what every document on disk looks like: two-space indent,
/// one member or element per line, `": "` after keys, members in the order given,
/// strings escaped only where JSON requires, doubles in the shortest text that
/// reads back to the same bits, integers exact, and a final newline. The same
/// value always gives the same bytes, and for canonical text
/// `write(read(bytes)) == bytes`, so an unchanged model never dirties `git status`.
///
/// ```swift
/// let text = try JSONWriter().string(for: ["name": "Tea", "minutes": 4])
/// ```
public struct JSONWriter: Sendable {
    /// The default limit on nested containers, the same as the reader's.
    public static let defaultMaximumDepth = JSONReader.defaultMaximumDepth

    /// The most containers that may be open at once.
    public var maximumDepth: Int

    /// A writer with this depth limit.
    public init(maximumDepth: Int = defaultMaximumDepth) {
        self.maximumDepth = max(1, maximumDepth)
    }

    /// The canonical UTF-8 bytes of a value.
    public func write(_ value: JSONValue) throws(JSONError) -> [UInt8] {
        let generator = CanonicalGenerator(maximumDepth: maximumDepth)
        try generator.emit(value, depth: 0)
        return generator.bytes(trimmingFinalNewline: false)
    }

    /// The canonical text of a value.
    public func string(for value: JSONValue) throws(JSONError) -> String {
        String(decoding: try write(value), as: UTF8.self)
    }

    /// The value on one line, for NDJSON, as `jq -c` writes it: the canonical text without
    /// the whitespace of its layout (`{"a":1,"b":[2,3]}`). Only whitespace outside strings
    /// goes; a string keeps its spaces, and never holds a raw line break (JSON escapes it).
    ///
    /// YAJL writes it so with its layout off: the layout is all the whitespace it adds.
    public func line(for value: JSONValue) throws(JSONError) -> String {
        let generator = CanonicalGenerator(maximumDepth: maximumDepth, layout: false)
        try generator.emit(value, depth: 0)
        return String(decoding: generator.bytes(trimmingFinalNewline: false), as: UTF8.self)
    }
}

/// One `yajl_gen` and the walk that feeds it.
///
/// YAJL's generator keeps its state in a fixed array of 128 levels, less than the
/// 256 the reader allows. A container that would go past `nestingBudget` levels
/// is therefore written by a fresh generator, re-indented, and spliced in as raw
/// text; the bytes are the same as if one generator had written everything.
private final class CanonicalGenerator {
    /// Levels one generator may open; below YAJL_MAX_DEPTH (128) with room to spare.
    static let nestingBudget = 120
    private static let indentUnit: [UInt8] = Array("  ".utf8)

    /// How much text YAJL's buffer may hold before it moves to `output`: a large document
    /// is written through a small buffer that stays in cache, instead of one YAJL keeps
    /// doubling (and copying) to the document's size.
    private static let flushSize = 1 << 16

    private let handle: yajl_gen
    private let maximumDepth: Int
    /// Whether the text is laid out (YAJL's beautify: a member or element a line, indented,
    /// `": "`, a final newline), or on one line with no whitespace outside strings.
    private let layout: Bool
    /// Containers open in this generator (not counting those of an enclosing one).
    private var level = 0
    /// The text YAJL's buffer held so far, once it grew past `flushSize`.
    private var output: [UInt8] = []

    init(maximumDepth: Int, layout: Bool = true) {
        self.maximumDepth = maximumDepth
        self.layout = layout
        handle = yajl_gen_alloc(nil)
        _ = folio_yajl_gen_config_flag(handle, yajl_gen_beautify, layout ? 1 : 0)
        _ = folio_yajl_gen_config_flag(handle, yajl_gen_validate_utf8, 1)
        _ = folio_yajl_gen_config_two_space_indent(handle)
    }

    deinit { yajl_gen_free(handle) }

    /// Writes a value that sits inside `depth` containers.
    func emit(_ value: JSONValue, depth: Int) throws(JSONError) {
        switch value {
        case .null: try check(yajl_gen_null(handle))
        case .bool(let flag): try check(yajl_gen_bool(handle, flag ? 1 : 0))
        case .integer(let integer): try check(yajl_gen_integer(handle, integer))
        case .double(let double):
            guard double.isFinite else {
                throw JSONError(
                    .notRepresentable(
                        "\(double) is not finite; encode it as the string \"NaN\", \"Infinity\" or \"-Infinity\""))
            }
            try raw(JSONNumber.canonicalText(double))
        case .number(let text):
            guard JSONNumber.isValidText(text) else {
                throw JSONError(.notRepresentable("\"\(text)\" is not JSON number text"))
            }
            try raw(text)
        case .string(let string): try emit(string: string)
        case .array(let elements):
            try container(depth: depth, isEmpty: elements.isEmpty, empty: "[]", value: value) { () throws(JSONError) in
                try check(yajl_gen_array_open(handle))
                for element in elements {
                    try emit(element, depth: depth + 1)
                    flushIfLarge()
                }
                try check(yajl_gen_array_close(handle))
            }
        case .object(let object):
            try container(depth: depth, isEmpty: object.isEmpty, empty: "{}", value: value) { () throws(JSONError) in
                try check(yajl_gen_map_open(handle))
                for member in object {
                    try emit(string: member.key)
                    try emit(member.value, depth: depth + 1)
                    flushIfLarge()
                }
                try check(yajl_gen_map_close(handle))
            }
        }
    }

    /// Writes a container through `body`, or as `{}` / `[]` when empty (YAJL would
    /// beautify an empty one across three lines), or spliced when nested too deep for YAJL.
    private func container(
        depth: Int, isEmpty: Bool, empty: String, value: JSONValue, body: () throws(JSONError) -> Void
    ) throws(JSONError) {
        guard depth < maximumDepth else { throw JSONError(.tooDeep(limit: maximumDepth)) }
        if isEmpty { return try raw(empty) }
        if level >= Self.nestingBudget { return try splice(value, depth: depth) }
        level += 1
        try body()
        level -= 1
    }

    private func splice(_ value: JSONValue, depth: Int) throws(JSONError) {
        let inner = CanonicalGenerator(maximumDepth: maximumDepth, layout: layout)
        try inner.emit(value, depth: depth)
        let indent = Array(repeatElement(Self.indentUnit, count: level).joined())
        var text: [UInt8] = []
        for byte in inner.bytes(trimmingFinalNewline: true) {
            text.append(byte)
            if byte == UInt8(ascii: "\n") { text.append(contentsOf: indent) }
        }
        try raw(text)
    }

    private func emit(string: String) throws(JSONError) {
        let status = string.utf8.withContiguousStorageIfAvailable { utf8 in
            utf8.isEmpty ? yajl_gen_string(handle, "", 0) : yajl_gen_string(handle, utf8.baseAddress, utf8.count)
        }
        if let status { return try check(status) }
        var copy = string  // a bridged string without contiguous UTF-8
        try check(copy.withUTF8 { yajl_gen_string(handle, $0.baseAddress, $0.count) })
    }

    /// Writes pre-formatted text as one value. `yajl_gen_number` places any text as
    /// an atom with the right separators and indentation, which is all it does.
    private func raw(_ text: String) throws(JSONError) {
        var text = text
        try check(
            text.withUTF8 { $0.withMemoryRebound(to: CChar.self) { yajl_gen_number(handle, $0.baseAddress, $0.count) } }
        )
    }

    private func raw(_ text: [UInt8]) throws(JSONError) {
        try check(
            text.withUnsafeBufferPointer {
                $0.withMemoryRebound(to: CChar.self) { yajl_gen_number(handle, $0.baseAddress, $0.count) }
            })
    }

    private func check(_ status: yajl_gen_status) throws(JSONError) {
        guard status == yajl_gen_status_ok else {
            throw JSONError(.notRepresentable("YAJL's generator refused the value (status \(status.rawValue))"))
        }
    }

    /// Moves YAJL's buffer to `output` once it holds `flushSize` bytes; YAJL keeps its state.
    private func flushIfLarge() {
        var buffer: UnsafePointer<UInt8>?
        var length = 0
        yajl_gen_get_buf(handle, &buffer, &length)
        guard length >= Self.flushSize else { return }
        output.append(contentsOf: UnsafeBufferPointer(start: buffer, count: length))
        yajl_gen_clear(handle)
    }

    func bytes(trimmingFinalNewline: Bool) -> [UInt8] {
        var buffer: UnsafePointer<UInt8>?
        var length = 0
        yajl_gen_get_buf(handle, &buffer, &length)
        output.append(contentsOf: UnsafeBufferPointer(start: buffer, count: length))
        if trimmingFinalNewline, output.last == UInt8(ascii: "\n") { output.removeLast() }
        return output
    }
}
