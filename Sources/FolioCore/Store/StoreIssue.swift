/// A file in a store that Folio could not use: where it is and why.
///
/// The store stays usable around it; the file is left exactly as it is.
public struct StoreIssue: Sendable, Equatable, CustomStringConvertible {
    /// The path relative to the store.
    public var path: String
    /// Why Folio could not use the file.
    public var error: FolioError

    /// An issue for the file at `path` (relative to the store).
    public init(path: String, error: FolioError) {
        self.path = path
        self.error = error
    }

    /// The error's message: the place, the problem and a hint.
    public var description: String { error.description }
}
