import FolioJSON

/// A document's content: parsed, or still in compact form in a cache file's buffer and
/// decoded the first time someone asks for all of it (so a warm open parses nothing, and
/// building an index reads only the indexed members). The catalog's entry and the query
/// table's row share one, so a document is decoded once whichever asks first.
///
/// Unchecked `Sendable`: it is read and filled in only under the store's state mutex,
/// where the catalog and the query indexes that hold it live.
final class DocumentContent: @unchecked Sendable {
    private var parsed: JSONObject?
    /// Let go once decoded, so a buffer whose documents were all decoded is freed.
    private var compact: CompactDocument?

    init(parsed object: JSONObject) {
        (parsed, compact) = (object, nil)
    }

    init(cached buffer: CacheBuffer, range: Range<Int>) {
        (parsed, compact) = (nil, CompactDocument(buffer: buffer, range: range))
    }

    /// The whole object, decoded on first use and kept; `nil` when the cached bytes do not
    /// decode (the cache file's checksum makes that a bug, never a damaged disk).
    var object: JSONObject? {
        if let parsed { return parsed }
        parsed = compact?.object
        if parsed != nil { compact = nil }
        return parsed
    }

    /// The content as a stored document carries it out of the store: the parsed object when
    /// it was decoded, else the compact bytes, which are not decoded here.
    var body: StoredDocument.Body {
        if let parsed { return .parsed(parsed) }
        if let compact { return .compact(compact) }
        return .parsed([:])
    }

    /// The values of the members named `names`, without decoding the others when the
    /// content is still compact; `nil` when it does not decode.
    func members(_ names: [String]) -> [JSONValue?]? {
        if let parsed { return names.map { parsed[$0] } }
        return compact?.members(names)
    }

    /// The compact form, for the cache file: copied as it is when it came from one and was not decoded.
    var compactBytes: [UInt8] {
        if let compact { return Array(compact.bytes) }
        var encoded: [UInt8] = []
        CompactJSON.encode(.object(parsed ?? [:]), into: &encoded)
        return encoded
    }
}
