import FolioJSON
import Foundation

/// A document to write: one model instance as a JSON object, with its entity, identity and partition.
public struct Document: Sendable, Equatable {
    /// The entity (the model's name), which is also the top-level folder.
    public var entity: String
    /// The identity, which is also the file name.
    public var id: UUID
    /// The moment whose day (in the store's time zone) names the folder. `nil` keeps the
    /// document's current folder, or files a new document under the day it is written.
    public var partitionDate: Date?
    /// The members. The store puts `"$entity"` first if it is missing.
    public var content: JSONObject
    /// Blobs of `.externalStorage` properties to write (bytes) or remove (`nil`), by property name.
    public var blobs: [String: [UInt8]?]

    /// A document to write; `partitionDate` `nil` keeps the current folder (or today's for a new
    /// document), and `blobs` lists only the external-storage files to write or remove.
    public init(
        entity: String, id: UUID, partitionDate: Date? = nil, content: JSONObject, blobs: [String: [UInt8]?] = [:]
    ) {
        self.entity = entity
        self.id = id
        self.partitionDate = partitionDate
        self.content = content
        self.blobs = blobs
    }
}

/// Which version of a document a reader saw: where it was and its file's stamp.
///
/// Passed back with a change so the store can tell whether the file changed on disk
/// since (a conflict) before it overwrites or deletes anything.
public struct DocumentVersion: Sendable, Hashable {
    /// Where the document was: its entity, day folder and identity.
    public var path: DocumentPath
    /// The file's `stat` values when it was read, which a commit compares to tell a change on disk.
    public var stamp: FileStamp
    /// The hash of the file's bytes, which settles whether a recently stamped file changed.
    public var contentHash: UInt64
    /// Whether the stamp alone proves the file unchanged (it was taken after the file's
    /// clock tick had passed); otherwise the content hash is compared too.
    public var verified: Bool
}

/// One change in a transaction.
public enum DocumentChange: Sendable {
    /// Writes a document. `basedOn` is the version it was read at, or `nil` for a new one.
    case put(Document, basedOn: DocumentVersion?)
    /// Deletes a document (and its blobs) that was read at this version.
    case delete(DocumentVersion)

    /// The entity whose folder the change is in.
    public var entity: String {
        switch self {
        case .put(let document, _): document.entity
        case .delete(let version): version.path.entity
        }
    }

    /// The identity of the document changed.
    public var id: UUID {
        switch self {
        case .put(let document, _): document.id
        case .delete(let version): version.path.id
        }
    }
}

/// What a commit did.
public struct CommitSummary: Sendable {
    /// The new version of every document written, by path.
    public var versions: [DocumentPath: DocumentVersion]
    /// Documents whose bytes changed and were written.
    public var written: Int
    /// Puts whose canonical bytes equalled the file already there, so nothing was written.
    public var unchanged: Int
    /// Documents deleted.
    public var deleted: Int
}
