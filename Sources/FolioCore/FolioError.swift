import FolioJSON

/// Why a Folio operation failed: what, which file, and what to do about it.
///
/// Match on `kind`, which says what failed in terms a caller can act on:
///
/// ```swift
/// do {
///     try context.save()
/// } catch {
///     guard error.kind == .conflict else { throw error }
///     // Another process changed a document: fetch again and redo the change.
/// }
/// ```
///
/// or write the kind as a `catch` pattern: `catch FolioError.Kind.conflict` (ending with a
/// plain `catch`: Swift 6.3.1's compiler crashes on some `do` blocks of a typed throw whose
/// only `catch` has a pattern). Later versions may add kinds, so a `switch` over `kind`
/// needs a `default`. `description` is the
/// message for a terminal: the place, the problem and a hint, as `folio` prints it.
public struct FolioError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What failed, for callers to match on; new kinds may be added, as with an open enum.
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The kind's name, as the case's own name spells it (`"conflict"`); what `description` prints.
        public let rawValue: String
        /// The kind named `rawValue`: equal to the declared kind of that name, if there is one.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The kind's name, `rawValue`.
        public var description: String { rawValue }

        /// Whether an error is a `FolioError` of this kind: `catch FolioError.Kind.conflict`.
        public static func ~= (kind: Kind, error: any Error) -> Bool { (error as? FolioError)?.kind == kind }
        /// Whether a `FolioError` is of this kind, where a typed `throws(FolioError)` is caught.
        public static func ~= (kind: Kind, error: FolioError) -> Bool { error.kind == kind }

        /// A document or the manifest could not be read as JSON (malformed, too large,
        /// unreadable); `path` and `location` say where.
        public static let unreadableJSON = Kind(rawValue: "unreadableJSON")
        /// A file is valid JSON but not what Folio expects there, or a document does not fit its model.
        public static let invalidDocument = Kind(rawValue: "invalidDocument")
        /// A value given to Folio does not fit the schema: a type, a required property, an enum case.
        public static let invalidValue = Kind(rawValue: "invalidValue")
        /// Something asked for by name is not there: an entity, a property, a document.
        public static let notFound = Kind(rawValue: "notFound")
        /// Input that cannot be used as given: a name that is not an identifier, a day that
        /// is not a day, an option that does not apply.
        public static let invalidInput = Kind(rawValue: "invalidInput")
        /// A query in the text language could not be read, or is too deep to run; `location`
        /// holds its column.
        public static let invalidQuery = Kind(rawValue: "invalidQuery")
        /// A document changed on disk since it was read (a hand edit, a `git pull`, another
        /// process); the transaction was not written. Read again and retry.
        public static let conflict = Kind(rawValue: "conflict")
        /// A save would break a rule of the schema: a `.deny` delete rule, a relationship's
        /// model counts. Nothing was written.
        public static let constraint = Kind(rawValue: "constraint")
        /// A file system call failed (a full disk, permissions); nothing was applied.
        public static let fileSystem = Kind(rawValue: "fileSystem")
        /// The folder is not a usable Folio store.
        public static let invalidStore = Kind(rawValue: "invalidStore")
        /// A path Folio will not follow or write: a symbolic link, `..`, outside the layout.
        public static let unsafePath = Kind(rawValue: "unsafePath")
        /// Another process holds the store's write lock for longer than Folio waits.
        public static let locked = Kind(rawValue: "locked")
        /// A transaction passed its commit point but could not be finished; `cause` says
        /// why. It *is* committed: the next commit or open of the store finishes it once the
        /// cause is fixed, and until then reads see the files it had already moved into place.
        public static let unfinishedCommit = Kind(rawValue: "unfinishedCommit")
        /// A migration cannot run as planned: a lightweight stage that cannot convert, steps
        /// out of order, a custom stage that failed. The store is unchanged.
        public static let migration = Kind(rawValue: "migration")
        /// The API was used in a way it does not allow: saving through a read-only
        /// configuration, a model the container does not know, a schema Folio cannot store.
        public static let misuse = Kind(rawValue: "misuse")
        /// A program Folio runs (git, the editor) could not be started or failed.
        public static let externalProgram = Kind(rawValue: "externalProgram")
        /// A history fetch asked for the transactions after a token whose successors were
        /// deleted (`deleteHistory`, or the history's cap): fetch again without the token.
        public static let historyTokenExpired = Kind(rawValue: "historyTokenExpired")
        /// The store's history files hold what Folio never writes (a token out of range or
        /// going back, a segment named for no token, a record naming a file outside the
        /// store): the history was set aside and a new one begun, or, where nothing can be
        /// written, it is not read.
        public static let damagedHistory = Kind(rawValue: "damagedHistory")
    }

    /// What failed.
    public let kind: Kind
    /// The file the error is about, if any: relative to the store for a document, as given otherwise.
    public let path: String?
    /// Where in the file (a JSON error's line and column) or in the query (line 1) the problem is.
    public let location: SourceLocation?
    /// The problem in one sentence, without the place in front or the hint after: for a
    /// message that names the place itself (a finding, a line of an import).
    public let reason: String
    /// What to do about it, when the kind's own advice does not fit.
    let customHint: String?
    /// For `.invalidQuery`, the query text the error is about; `location` holds the column.
    public let query: String?
    /// The JSON reader's error, which formats its own excerpt and hint.
    let json: JSONError?
    /// For a pattern such as `SwiftDataError.loadIssueModelContainer`, the kinds of error it matches.
    let matchedKinds: Set<Kind>
    /// Why a committed transaction could not be finished: none or one. An array holds the
    /// error inside this one; an `indirect enum` would too, but a non-exhaustive `catch` of
    /// a typed `throws(FolioError)` in another module then crashes Swift 6.3.1's compiler.
    private let causes: [FolioError]

    /// An error of a kind, for code that reports its own failures as Folio's (a custom
    /// migration stage, a tool built on Folio).
    public init(_ kind: Kind, _ reason: String, path: String? = nil, hint: String? = nil) {
        self.init(kind: kind, path: path, reason: reason, hint: hint)
    }

    private init(
        kind: Kind, path: String? = nil, location: SourceLocation? = nil, reason: String, hint: String? = nil,
        query: String? = nil,
        json: JSONError? = nil, cause: FolioError? = nil, matching: Set<Kind> = []
    ) {
        self.matchedKinds = matching
        self.kind = kind
        self.path = path
        self.location = location
        self.reason = reason
        self.customHint = hint
        self.query = query
        self.json = json
        self.causes = cause.map { [$0] } ?? []
    }

    /// SwiftData's name for an error kind, as a pattern matching Folio's errors of the
    /// kinds it stands for: `catch SwiftDataError.loadIssueModelContainer`.
    package static func pattern(_ name: String, matching kinds: Set<Kind>) -> FolioError {
        FolioError(kind: Kind(rawValue: name), reason: name, matching: kinds)
    }

    /// Whether an error is of the kind a pattern stands for: its own kind, or for one of
    /// SwiftData's names, one of the kinds that name covers.
    public static func ~= (pattern: FolioError, error: any Error) -> Bool {
        guard let error = error as? FolioError else { return false }
        return pattern ~= error
    }

    /// As above, where a typed `throws(FolioError)` is caught or a `FolioError` switched over.
    public static func ~= (pattern: FolioError, error: FolioError) -> Bool {
        pattern.kind == error.kind || pattern.matchedKinds.contains(error.kind)
    }

    /// Whether two errors are the same; a SwiftData name (`SwiftDataError.historyTokenExpired`)
    /// equals every error it matches, so `(error as? SwiftDataError) == .historyTokenExpired`
    /// reads as it does with SwiftData.
    public static func == (lhs: FolioError, rhs: FolioError) -> Bool {
        if !lhs.matchedKinds.isEmpty, rhs.matchedKinds.isEmpty { return lhs ~= rhs }
        if !rhs.matchedKinds.isEmpty, lhs.matchedKinds.isEmpty { return rhs ~= lhs }
        return lhs.kind == rhs.kind && lhs.path == rhs.path && lhs.location == rhs.location
            && lhs.reason == rhs.reason && lhs.customHint == rhs.customHint && lhs.query == rhs.query
            && lhs.json == rhs.json && lhs.matchedKinds == rhs.matchedKinds && lhs.causes == rhs.causes
    }

    /// For `.unfinishedCommit`, the error that kept the transaction from being finished.
    public var cause: FolioError? { causes.first }

    /// What to do about it, as the message's `hint:` line says.
    public var hint: String? {
        if let customHint { return customHint }
        if let json { return json.hint }
        switch kind {
        case .invalidDocument: return "fix the file by hand (folio check lists every problem), or restore it from git"
        case .conflict: return "nothing of the transaction was written; read the document again and retry the change"
        case .fileSystem:
            return "check free space and permissions; the transaction was not applied, and the store is unchanged"
        case .invalidStore: return "open the folder that holds folio.json, or create a store there"
        case .unsafePath:
            return
                "replace a link with the real file or folder it stands for (or remove it); move a stray file out of the store, or into its <Entity>/<YYYY>/<MM>/<DD>/<UUID>.json place"
        case .locked: return "wait for it to finish, or stop it; a crashed process releases the lock by itself"
        case .unfinishedCommit:
            return
                "fix the cause (permissions, an immutable file, free space); the next command that writes to or opens the store finishes the transaction. Until then, reads see the part of it already in place"
        default: return nil
        }
    }

    /// The message as `folio` prints it: the path (and line and column) in front, `error:` and the
    /// reason, then a `hint:` line when there is one; a JSON or query error shows its excerpt too.
    public var description: String {
        if let json { return json.description }
        if kind == .invalidQuery, let query, let column = location?.column {
            let caret = String(repeating: " ", count: max(column - 1, 0)) + "^"
            return "error: \(reason) (column \(column))\n  \(query)\n  \(caret)"
        }
        var text = path.map { $0 + (location.map { ":\($0.line):\($0.column)" } ?? "") + ": " } ?? ""
        switch kind {
        case .conflict: text += "error: conflict: " + reason
        case .unsafePath: text += "error: " + reason + "; Folio neither follows nor overwrites it, and changed nothing"
        default: text += "error: " + reason
        }
        if let hint { text += "\nhint: " + hint }
        return text
    }
}

// The errors Folio's own code throws, one maker per kind with the facts it needs.
extension FolioError {
    package static func unreadableJSON(_ error: JSONError) -> FolioError {
        FolioError(
            kind: .unreadableJSON, path: error.file, location: error.location, reason: error.message, json: error)
    }

    package static func invalidDocument(path: String, reason: String) -> FolioError {
        FolioError(kind: .invalidDocument, path: path, reason: reason)
    }

    package static func conflict(path: String, reason: String) -> FolioError {
        FolioError(kind: .conflict, path: path, reason: reason)
    }

    /// `operation` is what Folio was doing ("write", "create the folder").
    package static func fileSystem(path: String, operation: String, reason: String) -> FolioError {
        FolioError(kind: .fileSystem, path: path, reason: "could not \(operation): \(reason)")
    }

    /// `location` is where in the file (the manifest's member at fault), when known; the
    /// hint then says to fix that member rather than to look for another folder.
    package static func invalidStore(path: String, reason: String, location: SourceLocation? = nil) -> FolioError {
        FolioError(
            kind: .invalidStore, path: path, location: location, reason: reason,
            hint: location == nil ? nil : "fix that member of folio.json; docs/format.md describes the manifest")
    }

    package static func unsafePath(path: String, reason: String, hint: String? = nil) -> FolioError {
        FolioError(kind: .unsafePath, path: path, reason: reason, hint: hint)
    }

    package static func damagedHistory(path: String, reason: String) -> FolioError {
        FolioError(
            kind: .damagedHistory, path: path, reason: "the store's history is damaged: " + reason,
            hint:
                "Folio sets a damaged history aside (as .folio/history-damaged-<time>, with a REASON file) at the next"
                + " write and begins a new one under a new store identifier; look at the old folder, then remove it."
                + " The documents are not affected")
    }

    package static func locked(path: String, waitedSeconds: Double) -> FolioError {
        FolioError(
            kind: .locked, path: path,
            reason: "another process has been writing to this store for over \(Int(waitedSeconds)) seconds")
    }

    package static func deleteDenied(model: String, relationship: String, relatedCount count: Int) -> FolioError {
        FolioError(
            kind: .constraint,
            reason:
                "cannot delete \(model): its \(relationship) still holds \(count) model\(count == 1 ? "" : "s"), and its delete rule is .deny",
            hint: "delete those models or remove them from \(relationship) first; nothing of the save was written")
    }

    /// `column` is 1-based, in the query's characters.
    package static func invalidQuery(query: String, column: Int, message: String) -> FolioError {
        FolioError(
            kind: .invalidQuery, location: SourceLocation(line: 1, column: column, offset: 0, excerpt: ""),
            reason: message, query: query)
    }

    package static func unfinishedCommit(_ cause: FolioError) -> FolioError {
        FolioError(
            kind: .unfinishedCommit, path: cause.path,
            reason: "the transaction is committed but could not be finished: " + cause.reason, cause: cause)
    }

    package static func invalidValue(_ reason: String, path: String? = nil) -> FolioError {
        FolioError(kind: .invalidValue, path: path, reason: reason)
    }
    package static func notFound(_ reason: String) -> FolioError { FolioError(kind: .notFound, reason: reason) }
    package static func invalidInput(_ reason: String) -> FolioError { FolioError(kind: .invalidInput, reason: reason) }
    package static func constraint(_ reason: String) -> FolioError { FolioError(kind: .constraint, reason: reason) }
    package static func migration(_ reason: String) -> FolioError { FolioError(kind: .migration, reason: reason) }
    package static func misuse(_ reason: String) -> FolioError { FolioError(kind: .misuse, reason: reason) }
    package static func externalProgram(_ reason: String) -> FolioError {
        FolioError(kind: .externalProgram, reason: reason)
    }
}
