import FolioJSON

/// The members the format reserves in every document, each named with a `$` so that no
/// property of a model can take it.
///
/// A document leads with them: its entity, the schema version it was written at, its
/// identity when its model has no `id: UUID` of its own, and when it was soft-deleted.
enum ReservedKey {
    /// The document's entity: its model's name, which may differ from its folder's (a
    /// subclass's documents lie in its hierarchy's root folder).
    static let entity = "$entity"
    /// The schema version the document was last written at.
    static let version = "$version"
    /// The document's identity, for a model without an `id: UUID` property.
    static let identity = "$id"
    /// When the document was soft-deleted; absent while it is live.
    static let deleted = "$deleted"

    /// The members that lead a document, in order, before `deleted`.
    static let leading = [entity, version, identity]

    /// Puts a soft delete's stamp into `content` right after its leading reserved members,
    /// where Folio writes it (a restore of a deleted record and a soft delete alike).
    static func stampDeleted(_ stamp: JSONValue, in content: inout JSONObject) {
        content.insert(stamp, forKey: deleted, at: content.keys.prefix { leading.contains($0) }.count)
    }
}
