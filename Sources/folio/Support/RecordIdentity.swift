import FolioCore
import Foundation

/// The record `folio log` and `folio blame` are about, by the identity its file is named
/// for: a whole UUID or a path (found in the store's past even when its file is gone), or
/// the start of an id as a table shows it (which only a record the store still holds has).
enum RecordIdentity {
    /// The identity `text` names; throws when it names none.
    static func id(_ text: String, in store: DocumentStore) throws(FolioError) -> UUID {
        if let id = UUID(uuidString: text) { return id }
        if text.hasSuffix(".json") {
            let relative = text.hasPrefix(store.root + "/") ? String(text.dropFirst(store.root.count + 1)) : text
            guard let path = DocumentPath(relativePath: relative), path.blobProperty == nil else {
                throw .invalidInput("\(text) is not a document path like Timer/2026/11/22/<UUID>.json")
            }
            return path.id
        }
        guard let prefix = IDPrefix(text) else {
            throw FolioError(
                .invalidInput, "\(text) is neither a record's id nor a document path",
                hint:
                    "give its UUID, its first 4 or more digits as a table shows them, or its path like Timer/2026/11/22/<UUID>.json"
            )
        }
        do {
            return try IDLookup.document(startingWith: prefix, in: store).id
        } catch  where error.kind == .notFound {
            throw FolioError(
                .notFound, "no record in the store at \(store.root) has an id that starts with \(prefix)",
                hint: "a record purged from the store is found in its past by its whole UUID or its path")
        }
    }
}
