/// A file in a store that Folio could not use: where it is and why.
///
/// The store stays usable around it; the file is left exactly as it is.
public struct StoreIssue: Sendable, Equatable, CustomStringConvertible {
    /// The path relative to the store.
    public var path: String
    public var error: FolioError

    public init(path: String, error: FolioError) {
        self.path = path
        self.error = error
    }

    public var description: String { error.description }
}
