import FolioJSON

/// A document's content: parsed, or still in compact form in a cache file's buffer and
/// decoded the first time someone asks for all of it (so a warm open parses nothing, and
/// building an index reads only the indexed members). The catalog's entry and the query
/// table's row share one, so a document is decoded once whichever asks first.
///
/// Unchecked `Sendable`: it is read and filled in only under the store's state mutex,
/// where the catalog and the query indexes that hold it live.
final class DocumentContent: @unchecked Sendable {
    /// Parsed, or compact until decoded (the buffer let go then, so a buffer whose documents
    /// were all decoded is freed): held as the stored document it becomes carries it.
    /// Not checked for exclusive access at run time (read for every result of a fetch):
    /// the store's state mutex already makes every access exclusive.
    @exclusivity(unchecked) private(set) var body: StoredDocument.Body

    init(parsed object: JSONObject) { body = .parsed(object) }

    init(cached buffer: CacheBuffer, range: Range<Int>) {
        body = .compact(CompactDocument(buffer: buffer, range: range))
    }

    /// The whole object, decoded on first use and kept; `nil` when the cached bytes do not
    /// decode (the cache file's checksum makes that a bug, never a damaged disk).
    var object: JSONObject? {
        let object = body.object
        if let object, case .compact = body { body = .parsed(object) }
        return object
    }

    /// The values of the members named `names`, without decoding the others when the
    /// content is still compact; `nil` when it does not decode.
    func members(_ names: [String]) -> [JSONValue?]? { body.members(names) }

    /// The compact form, for the cache file: copied as it is when it came from one and was not decoded.
    var compactBytes: [UInt8] { body.compactBytes }
}
