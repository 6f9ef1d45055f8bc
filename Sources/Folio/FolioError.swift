import FolioJSON

/// Why a Folio operation failed: what, which file, and what to do about it.
public enum FolioError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A document or the manifest could not be read as JSON (malformed, too large, unreadable);
    /// the error carries the file and, for malformed text, the line and column.
    case unreadableJSON(JSONError)
    /// A file is valid JSON but not what Folio expects there.
    case invalidDocument(path: String, reason: String)
    /// A document changed on disk since it was read (a hand edit, a `git pull`, another
    /// process); the transaction was not written. Re-read and retry.
    case conflict(path: String, reason: String)
    /// A file system call failed; `operation` is what Folio was doing.
    case fileSystem(path: String, operation: String, reason: String)
    /// The directory is not a usable Folio store.
    case invalidStore(path: String, reason: String)
    /// A path that Folio will not follow or write: a symbolic link, `..`, outside the layout.
    case unsafePath(path: String, reason: String)
    /// Another process holds the store's write lock for longer than Folio waits.
    case locked(path: String, waitedSeconds: Double)
    /// A save would delete a model whose `.deny` relationship still holds models; nothing was written.
    case deleteDenied(model: String, relationship: String, relatedCount: Int)
    /// A query in the text language could not be read: the query, the 1-based column of
    /// the problem, and what was expected there.
    case invalidQuery(query: String, column: Int, message: String)
    /// A transaction passed its commit point but could not be finished (the wrapped error
    /// says why: an immutable or unwritable file, a full disk). It *is* committed: it is
    /// finished by the next commit or open of the store once the cause is fixed, and until
    /// then reads see the files it had already moved into place.
    indirect case unfinishedCommit(FolioError)
    /// A caller passed a value the API does not accept (an entity name that is not an identifier, ...).
    case invalidArgument(String)

    /// The file the error is about, if any.
    public var path: String? {
        switch self {
        case .unreadableJSON(let error): error.file
        case .invalidDocument(let path, _), .conflict(let path, _), .fileSystem(let path, _, _),
            .invalidStore(let path, _), .unsafePath(let path, _), .locked(let path, _):
            path
        case .unfinishedCommit(let cause): cause.path
        case .invalidArgument, .deleteDenied, .invalidQuery: nil
        }
    }

    public var description: String {
        switch self {
        case .unreadableJSON(let error): return error.description
        case .invalidDocument(let path, let reason):
            return "\(path): error: \(reason)\nhint: fix the file by hand (folio check lists every problem), or restore it from git"
        case .conflict(let path, let reason):
            return "\(path): error: conflict: \(reason)\nhint: nothing of the transaction was written; read the document again and retry the change"
        case .fileSystem(let path, let operation, let reason):
            return "\(path): error: could not \(operation): \(reason)\nhint: check free space and permissions; the transaction was not applied, and the store is unchanged"
        case .invalidStore(let path, let reason):
            return "\(path): error: \(reason)\nhint: open the folder that holds folio.json, or create a store there"
        case .unsafePath(let path, let reason):
            return "\(path): error: \(reason); Folio neither follows nor overwrites it, and changed nothing\nhint: replace a link with the real file or folder it stands for (or remove it); move a stray file out of the store, or into its <Entity>/<YYYY>/<MM>/<DD>/<UUID>.json place"
        case .locked(let path, let waited):
            return "\(path): error: another process has been writing to this store for over \(Int(waited)) seconds\nhint: wait for it to finish, or stop it; a crashed process releases the lock by itself"
        case .deleteDenied(let model, let relationship, let count):
            return "error: cannot delete \(model): its \(relationship) still holds \(count) model\(count == 1 ? "" : "s"), and its delete rule is .deny\nhint: delete those models or remove them from \(relationship) first; nothing of the save was written"
        case .unfinishedCommit(let cause):
            let what = cause.description.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
            return what.replacing("error: ", with: "error: the transaction is committed but could not be finished: ", maxReplacements: 1)
                + "\nhint: fix the cause (permissions, an immutable file, free space); the next command that writes to or opens the store finishes the transaction. Until then, reads see the part of it already in place"
        case .invalidArgument(let reason):
            return "error: \(reason)"
        case .invalidQuery(let query, let column, let message):
            let caret = String(repeating: " ", count: max(column - 1, 0)) + "^"
            return "error: \(message) (column \(column))\n  \(query)\n  \(caret)"
        }
    }
}
