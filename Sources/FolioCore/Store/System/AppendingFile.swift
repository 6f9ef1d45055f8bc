import Glibc

/// A file written front to back through a buffer, from a given offset: for what is too large
/// to build in memory first (an import's plan, its history record and its folder's cache
/// file), and for each line appended to the history.
///
/// With `checksummed`, the hash of everything appended is kept as it goes (see
/// `ContentHash.Running`), for a file that ends with its own checksum.
struct AppendingFile {
    /// The file's path, for messages.
    let path: String
    /// The open file, for reading back what was written.
    let descriptor: Int32
    /// Where the next flushed byte goes.
    private(set) var offset: Int64
    private var buffer: [UInt8] = []
    private var checksum: ContentHash.Running?
    private var isClosed = false
    /// What a failed write says it could not do (to the file at `path`).
    private let operation: String
    private static let bufferSize = 1 << 20

    /// Takes over `descriptor`, writing from `offset`; `close` gives it back. The buffer grows
    /// as it is filled: a history line of one save is a few hundred bytes.
    init(descriptor: Int32, at offset: Int64 = 0, path: String, operation: String = "write", checksummed: Bool = false)
    {
        self.descriptor = descriptor
        self.offset = offset
        self.path = path
        self.operation = operation
        checksum = checksummed ? ContentHash.Running() : nil
    }

    /// Where the file ends once everything appended is written.
    var end: Int64 { offset + Int64(buffer.count) }

    mutating func append(_ bytes: some Sequence<UInt8>) throws(FolioError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.bufferSize { try flush(whole: false) }
    }

    /// Writes what is buffered. Unless `whole`, a checksummed file keeps the bytes past the
    /// last 8-byte word back, since the running hash takes words until its last part.
    mutating func flush(whole: Bool = true) throws(FolioError) {
        let count = whole || checksum == nil ? buffer.count : buffer.count / 8 * 8
        guard count > 0 else { return }
        let failure: FolioError? = buffer.withUnsafeBytes { raw in
            let part = UnsafeRawBufferPointer(rebasing: raw[..<count])
            checksum?.add(part)
            return write(part, at: offset)
        }
        if let failure { throw failure }
        buffer.removeFirst(count)
        offset += Int64(count)
    }

    /// Writes `bytes` over what was written from `start` (which must end before `offset`: what
    /// is still buffered is not overwritten). Not for a checksummed file, whose hash has them.
    func overwrite(_ bytes: [UInt8], at start: Int64) throws(FolioError) {
        assert(checksum == nil && start + Int64(bytes.count) <= offset)
        if let failure = bytes.withUnsafeBytes({ write($0, at: start) }) { throw failure }
    }

    /// Writes `bytes` whole at `start`; the error, if it could not.
    private func write(_ bytes: UnsafeRawBufferPointer, at start: Int64) -> FolioError? {
        var written = 0
        while written < bytes.count {
            let result = pwrite(
                descriptor, bytes.baseAddress! + written, bytes.count - written, off_t(start) + off_t(written))
            if result < 0 {
                if errno == EINTR { continue }
                return .fileSystem(path: path, operation: operation, reason: String(cString: strerror(errno)))
            }
            written += result
        }
        return nil
    }

    /// Appends the checksum of everything before it (little-endian), and writes it all.
    mutating func finishWithChecksum() throws(FolioError) {
        try flush(whole: true)
        let value = checksum?.value ?? 0
        checksum = nil
        try append(withUnsafeBytes(of: value.littleEndian) { Array($0) })
        try flush()
    }

    /// Cuts the file at `length`, dropping anything past it.
    func truncate(at length: Int64) throws(FolioError) {
        guard ftruncate(descriptor, off_t(length)) == 0 else {
            throw .fileSystem(path: path, operation: "truncate", reason: String(cString: strerror(errno)))
        }
    }

    /// Writes what is buffered and closes the file, returning its stamp.
    @discardableResult
    mutating func close(sync: Bool = false) throws(FolioError) -> FileStamp {
        do { try flush() } catch {
            abandon()
            throw error
        }
        isClosed = true  // `finishWriting` closes it whatever happens
        return try FileSystem.finishWriting(descriptor, bytes: [], sync: sync, path: path)
    }

    /// Closes the file without writing what is buffered, after a failure; once closed, nothing.
    mutating func abandon() {
        guard !isClosed else { return }
        isClosed = true
        _ = Glibc.close(descriptor)
    }
}
