import FolioJSON
import Foundation

/// A document as the store holds it.
public struct StoredDocument: Sendable, Equatable {
    /// Where the document's file was and its stamp when read: what a save or delete of it passes
    /// back to detect a change on disk.
    public var version: DocumentVersion
    private var body: Body

    /// How the content is held: parsed, or the compact bytes of a cache file a fetch found
    /// it in, decoded when read. A model made from a fetch keeps its document for its life
    /// (a save writes over it, keeping members the model does not know, and members it has
    /// not read yet are decoded from it), so the compact form is what a thousand fetched
    /// models keep: a third of the memory of the parsed one.
    enum Body: Sendable {
        case parsed(JSONObject)
        case compact(CompactDocument)
    }

    /// A document with parsed content, as read from `version`'s file.
    public init(version: DocumentVersion, content: JSONObject) {
        self.version = version
        body = .parsed(content)
    }

    init(version: DocumentVersion, body: Body) {
        self.version = version
        self.body = body
    }

    /// The members, in the order of the file. A document kept compact is decoded at each
    /// read: read it once into a constant when you need several members.
    public var content: JSONObject {
        get { body.object ?? [:] }
        set { body = .parsed(newValue) }
    }

    /// The value of one member (`nil` when the document lacks it), decoding only that one
    /// (a compact document is read up to it).
    func member(_ name: String) -> JSONValue? { body.member(name) }

    /// Whether the member named `name` is the string `text` (a compact document's compared as
    /// bytes, no `String` made).
    func member(_ name: String, isText text: String) -> Bool { body.member(name, isText: text) }

    /// The values of the members named `names` (distinct; `nil` for one the document lacks),
    /// decoding only those of a compact document.
    func members(_ names: [String]) -> [JSONValue?] {
        guard !names.isEmpty else { return [] }
        return body.members(names) ?? [JSONValue?](repeating: nil, count: names.count)
    }

    /// Where the document is: its version's path, not kept twice (every result of a
    /// fetch and every model made from a document holds one of these).
    public var path: DocumentPath { version.path }
    /// The document's entity (its model's name), from its path.
    public var entity: String { path.entity }
    /// The document's identity, from its path (its file name).
    public var id: UUID { path.id }

    /// Whether two documents have the same version and the same members in the same order,
    /// however each holds its content.
    public static func == (lhs: StoredDocument, rhs: StoredDocument) -> Bool {
        lhs.version == rhs.version && lhs.content == rhs.content
    }
}

extension StoredDocument.Body {
    /// The compact form, for a cache file: copied as it is when the body is compact.
    var compactBytes: [UInt8] {
        switch self {
        case .parsed(let object):
            var encoded: [UInt8] = []
            CompactJSON.encode(.object(object), into: &encoded)
            return encoded
        case .compact(let compact):
            return Array(compact.bytes)
        }
    }

    /// The whole object, a compact one decoded now; `nil` when compact bytes do not decode.
    var object: JSONObject? {
        switch self {
        case .parsed(let object): object
        case .compact(let compact): compact.object
        }
    }

    /// The value of the member named `name`, a compact document read up to it.
    func member(_ name: String) -> JSONValue? {
        switch self {
        case .parsed(let object): object[name]
        case .compact(let compact): compact.member(name)
        }
    }

    /// Whether the member named `name` is the string `text`.
    func member(_ name: String, isText text: String) -> Bool {
        switch self {
        case .parsed(let object): object[name] == .string(text)
        case .compact(let compact): compact.member(name, isText: text)
        }
    }

    /// The values of the members named `names`, only those decoded of a compact document;
    /// `nil` when compact bytes do not decode. Names in the order documents store them (a
    /// model's declaration order) are each found at the first place looked.
    func members(_ names: [String]) -> [JSONValue?]? {
        switch self {
        case .parsed(let object):
            var next = 0
            return names.map { name in
                guard let position = object.index(forKey: name, from: next) else { return nil }
                next = position + 1
                return object[position].value
            }
        case .compact(let compact):
            return compact.members(names)
        }
    }
}
