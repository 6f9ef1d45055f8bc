import FolioJSON

/// A document's content as it lies in a cache file's buffer (`CompactJSON`), read in place.
///
/// What a fetch hands a model when no stage of the query decoded the document: the model
/// decodes the members it maps from the bytes, and the buffer (about 290 bytes a document
/// for a typical model) is all that stays, where a decoded `JSONObject` with a heap string
/// per key and per long value took about 640. Immutable, so it may leave the store's mutex.
struct CompactDocument: Sendable {
    let buffer: CacheBuffer
    let range: Range<Int>

    /// The whole object, decoded now; `nil` when the bytes do not decode (the cache file's
    /// checksum makes that a bug, never a damaged disk).
    var object: JSONObject? { withBytes { CompactJSON.decode($0) }?.objectValue }

    /// The values of the members named `names` (`nil` for one the document lacks), without
    /// decoding the others; `nil` when the bytes do not decode.
    func members(_ names: [String]) -> [JSONValue?]? { withBytes { CompactJSON.members(names, of: $0) } }

    /// The value of the member named `name`, read up to it; `nil` when the document lacks it.
    func member(_ name: String) -> JSONValue? { withBytes { CompactJSON.member(name, of: $0) } }

    /// Whether the member named `name` is the string `text`, compared as bytes.
    func member(_ name: String, isText text: String) -> Bool {
        withBytes { CompactJSON.member(name, of: $0, isText: text) }
    }

    private func withBytes<Result>(_ read: (UnsafeRawBufferPointer) -> Result) -> Result {
        buffer.bytes.withUnsafeBytes { read(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }

    /// The compact bytes themselves, for a cache file.
    var bytes: ArraySlice<UInt8> { buffer.bytes[range] }
}
