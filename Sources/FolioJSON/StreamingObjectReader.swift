import CYajl
import Glibc

/// Reads one JSON object fed in pieces, handing the elements of one of its array members to a
/// closure as each completes, so that an object of any length is read holding one element at a
/// time: a history record listing a million changes, read a megabyte at a time.
///
/// As strict as `JSONReader` (one value, no comments, no duplicate keys, valid UTF-8, no
/// unpaired surrogate escapes), with its depth limit; there is no limit on the whole size. An
/// error names the byte offset where the parse stopped, not a line and column, since the text
/// is not kept.
///
/// ```swift
/// var total = 0
/// let reader = try StreamingObjectReader(streaming: "changes") { _ in total += 1 }
/// try reader.feed(Array(#"{"token": 7, "changes": [1, "#.utf8))
/// try reader.feed(Array("2, 3]}".utf8))
/// let head = try reader.finish()  // ["token": 7, "changes": []], and total is 3
/// ```
public final class StreamingObjectReader {
    private let builder: DocumentBuilder
    private let handle: yajl_handle
    private let file: String?
    /// The bytes fed so far.
    private var fed = 0
    /// The last bytes fed that may begin an escape whose rest comes in the next piece, and
    /// where in the whole text they start.
    private var unscanned: [UInt8] = []
    private var unscannedStart = 0
    private var finished = false

    /// A reader of an object whose `member` array's elements go to `element`, one at a time
    /// and in order (the array itself reads as empty); `file` names the text in errors.
    public init(
        maximumDepth: Int = JSONReader.defaultMaximumDepth, streaming member: String, file: String? = nil,
        element: @escaping (JSONValue) -> Void
    ) throws(JSONError) {
        builder = DocumentBuilder(maximumDepth: max(1, maximumDepth), isLocating: false)
        builder.streamedMember = member
        builder.onStreamedElement = element
        guard let handle = yajl_alloc(DocumentBuilder.callbacks, nil, Unmanaged.passUnretained(builder).toOpaque())
        else {
            throw JSONError(.unreadable("out of memory"), file: file)
        }
        // Strings are validated by the builder, as `JSONReader` does.
        _ = folio_yajl_config_flag(handle, yajl_dont_validate_strings, 1)
        builder.handle = handle
        self.handle = handle
        self.file = file
    }

    deinit { yajl_free(handle) }

    /// Parses the next piece of the text.
    public func feed(_ bytes: [UInt8]) throws(JSONError) {
        try bytes.withUnsafeBufferPointer { buffer in Result { () throws(JSONError) in try feed(buffer) } }.get()
    }

    /// Parses the next piece of the text.
    public func feed(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONError) {
        guard !finished, !bytes.isEmpty else { return }
        let status = withExtendedLifetime(builder) { yajl_parse(handle, bytes.baseAddress, bytes.count) }
        let start = fed
        fed += bytes.count
        guard status == yajl_status_ok else { throw failure(near: start + yajl_get_bytes_consumed(handle)) }
        try scanEscapes(unscanned + Array(bytes), final: false)
    }

    /// Ends the text and returns the object, its streamed member an empty array.
    public func finish() throws(JSONError) -> JSONObject {
        guard !finished else { throw JSONError(.unreadable("the object was read already"), file: file) }
        finished = true
        let status = withExtendedLifetime(builder) { yajl_complete_parse(handle) }
        guard status == yajl_status_ok else { throw failure(near: fed) }
        try scanEscapes(unscanned, final: true)
        guard case .object(let object)? = builder.result else {
            throw JSONError(
                .typeMismatch(expected: "an object", found: builder.result?.typeName ?? "nothing"), file: file)
        }
        return object
    }

    /// Looks for unpaired surrogate escapes, which YAJL lets through, in `text` (which starts
    /// at `unscannedStart`), keeping the bytes that may begin one for the next piece.
    private func scanEscapes(_ text: [UInt8], final: Bool) throws(JSONError) {
        let limit = final ? text.count : max(0, text.count - SurrogateEscapes.longestEscape)
        let (unpaired, resume) = text.withUnsafeBufferPointer { SurrogateEscapes.scan($0, escapesBefore: limit) }
        if let unpaired {
            throw JSONError(
                .unreadable("unpaired UTF-16 surrogate escape at byte \(unscannedStart + unpaired)"), file: file)
        }
        let kept = min(resume, text.count)
        unscanned = Array(text[kept...])
        unscannedStart += kept
    }

    /// The error of a parse that stopped near byte `offset`: the builder's, or YAJL's.
    private func failure(near offset: Int) -> JSONError {
        if let failure = builder.failure { return JSONError(failure.kind, file: file) }
        var message = "malformed JSON"
        if let raw = yajl_get_error(handle, 0, nil, 0) {
            message = String(cString: raw).split(separator: "\n").first.map(String.init) ?? message
            yajl_free_error(handle, raw)
        }
        return JSONError(.unreadable("\(message) near byte \(offset)"), file: file)
    }
}
