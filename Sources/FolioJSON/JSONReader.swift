import CYajl
import Glibc

/// Reads JSON text into a `JSONValue`, strictly, on YAJL's streaming parser.
///
/// Strict means: one value per document, no comments, no duplicate keys, only
/// valid UTF-8 and no unpaired surrogate escapes. Limits on depth and size keep a
/// hostile or broken file from exhausting memory or the stack. Every failure is a
/// `JSONError` with line, column and the offending line, and no input crashes.
///
/// ```swift
/// let value = try JSONReader().read(#"{"name": "Tea", "minutes": 4}"#)
/// ```
public struct JSONReader: Sendable {
    /// The default limit on nested containers.
    public static let defaultMaximumDepth = 256
    /// The default limit on a document's size: 16 MiB.
    public static let defaultMaximumSize = 16 << 20
    /// The largest document any reader accepts: 1 GiB. YAJL 2.1.0 aborts the
    /// process on inputs near 2 GB, so no configured limit may reach that far.
    public static let absoluteMaximumSize = 1 << 30

    /// The most containers that may be open at once; the next `[` or `{` is an error.
    public var maximumDepth: Int
    /// The largest document accepted, in bytes (capped at `absoluteMaximumSize`).
    public var maximumSize: Int

    /// A reader with these limits.
    public init(maximumDepth: Int = defaultMaximumDepth, maximumSize: Int = defaultMaximumSize) {
        self.maximumDepth = max(1, maximumDepth)
        self.maximumSize = max(0, min(maximumSize, Self.absoluteMaximumSize))
    }

    /// Reads a document from UTF-8 text; `file` names it in errors.
    public func read(_ text: String, file: String? = nil) throws(JSONError) -> JSONValue {
        var text = text
        return try text.withUTF8 { bytes in Result { () throws(JSONError) in try read(bytes, file: file) } }.get()
    }

    /// Reads a document from bytes; `file` names it in errors.
    public func read(_ bytes: [UInt8], file: String? = nil) throws(JSONError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer in Result { () throws(JSONError) in try read(buffer, file: file) } }
            .get()
    }

    /// Reads a document from a buffer of UTF-8 bytes; `file` names it in errors.
    public func read(_ bytes: UnsafeBufferPointer<UInt8>, file: String? = nil) throws(JSONError) -> JSONValue {
        guard bytes.count <= maximumSize else {
            throw JSONError(.tooLarge(size: bytes.count, limit: maximumSize), file: file)
        }
        let fast = try parse(bytes, locating: false, file: file)
        let surrogate = SurrogateEscapes.firstUnpaired(in: bytes)
        if fast.succeeded, let result = fast.builder.result {
            if let surrogate { throw error(.unpairedSurrogate, at: surrogate, in: bytes, file: file) }
            return result
        }
        // The document is broken. Parse it again recording where each event ends, which
        // the fast pass skips, to put the caret on what is wrong.
        let located = try parse(bytes, locating: true, file: file)
        var (kind, offset) = ParseFailure.locate(located, text: bytes)
        if let surrogate, surrogate <= offset {
            (kind, offset) = (.unpairedSurrogate, surrogate)
        }
        if case .duplicateKey(let key, _) = kind, let firstEnd = located.builder.firstKeyEnd {
            kind = .duplicateKey(key, firstLine: SourceLocation(offset: firstEnd, in: bytes).line)
        }
        throw error(kind, at: offset, in: bytes, file: file)
    }

    /// One run of YAJL over the text: whether it succeeded, and how it ended.
    struct Parse {
        var succeeded: Bool
        var builder: DocumentBuilder
        /// YAJL's own sentence for the error, if it reported one.
        var message: String
        /// How far YAJL got, in bytes.
        var consumed: Int
    }

    private func parse(_ bytes: UnsafeBufferPointer<UInt8>, locating: Bool, file: String?) throws(JSONError) -> Parse {
        let builder = DocumentBuilder(maximumDepth: maximumDepth, isLocating: locating)
        guard let handle = yajl_alloc(DocumentBuilder.callbacks, nil, Unmanaged.passUnretained(builder).toOpaque())
        else {
            throw JSONError(.unreadable("out of memory"), file: file)
        }
        defer { yajl_free(handle) }
        // Strings are validated by Swift instead, which is stricter than YAJL (overlong
        // forms, encoded surrogates) and costs nothing extra: building a String validates.
        _ = folio_yajl_config_flag(handle, yajl_dont_validate_strings, 1)
        builder.handle = handle

        var status = withExtendedLifetime(builder) {
            // YAJL wants a non-null pointer even for empty input.
            bytes.isEmpty
                ? yajl_parse(handle, "", 0)
                : yajl_parse(handle, bytes.baseAddress, bytes.count)
        }
        if status == yajl_status_ok { status = yajl_complete_parse(handle) }
        var message = ""
        if status != yajl_status_ok, let raw = yajl_get_error(handle, 0, nil, 0) {
            message = String(cString: raw)
            yajl_free_error(handle, raw)
        }
        return Parse(
            succeeded: status == yajl_status_ok, builder: builder, message: message,
            consumed: min(yajl_get_bytes_consumed(handle), bytes.count))
    }

    /// Reads the document in a file. A file over the size limit is refused before it is read.
    public func read(contentsOfFile path: String) throws(JSONError) -> JSONValue {
        let bytes = try FileBytes.contents(of: path, limit: maximumSize)
        return try read(bytes, file: path)
    }

    private func error(_ kind: JSONError.Kind, at offset: Int, in text: UnsafeBufferPointer<UInt8>, file: String?)
        -> JSONError
    {
        JSONError(kind, file: file, location: SourceLocation(offset: offset, in: text))
    }
}

/// Whole-file reads with a size check first, so a huge file is refused without being loaded.
public enum FileBytes {
    static func contents(of path: String, limit: Int) throws(JSONError) -> [UInt8] {
        // Without blocking: a FIFO in a file's place would wait for a writer for ever.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw JSONError(.unreadable(systemError()), file: path) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw JSONError(.unreadable(systemError()), file: path) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw JSONError(.unreadable("is \(kind(of: info)), not a regular file"), file: path)
        }
        return try read(descriptor: descriptor, expectedSize: Int(info.st_size), limit: limit, path: path)
    }

    /// The offset of the first byte of `bytes` that does not begin a valid UTF-8 sequence,
    /// or `nil` when they are all valid: what a refusal of text names.
    package static func firstInvalidUTF8(in bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { ParseFailure.firstInvalidUTF8(in: $0) }
    }

    /// What kind of file `stat` describes, as a message names it: "a FIFO (named pipe)", "a folder".
    package static func kind(of info: stat) -> String {
        switch info.st_mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a folder"
        case S_IFLNK: "a symbolic link"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        default: "a special file"
        }
    }

    /// Reads an open file to its end. `expectedSize` is what `fstat` said; a file larger
    /// than `limit` (then or by the time it is read) is refused as `.tooLarge`.
    public static func read(descriptor: Int32, expectedSize: Int, limit: Int, path: String) throws(JSONError) -> [UInt8]
    {
        guard expectedSize <= limit else { throw JSONError(.tooLarge(size: expectedSize, limit: limit), file: path) }
        // Read up to one byte past the expected size, in case the file grew since fstat, into
        // memory left uninitialized: zeroing it first would cost as much as the copy.
        var failure: Int32 = 0
        var bytes = [UInt8](unsafeUninitializedCapacity: expectedSize + 1) { buffer, initialized in
            initialized = 0
            while initialized < buffer.count {
                let count = Glibc.read(descriptor, buffer.baseAddress! + initialized, buffer.count - initialized)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if count == 0 { return }
                initialized += count
            }
        }
        if bytes.count == expectedSize + 1, failure == 0 {
            // The file grew since fstat: the rest in chunks, up to one byte past the limit.
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while bytes.count <= limit {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if count == 0 { break }
                bytes.append(contentsOf: chunk[..<count])
            }
        }
        guard failure == 0 else {
            errno = failure
            throw JSONError(.unreadable(systemError()), file: path)
        }
        guard bytes.count <= limit else { throw JSONError(.tooLarge(size: bytes.count, limit: limit), file: path) }
        return bytes
    }

    /// The C library's text for the current `errno`.
    public static func systemError() -> String { String(cString: strerror(errno)) }
}
