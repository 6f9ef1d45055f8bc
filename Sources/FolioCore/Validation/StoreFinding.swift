/// One thing `check` found wrong (or worth knowing) in a store, pinned to a file.
///
/// Its description reads like a compiler diagnostic (`path:line:column: error: what`),
/// so terminals and editors can jump to it.
public struct StoreFinding: Sendable, Hashable, CustomStringConvertible {
    /// How much a finding matters.
    public enum Severity: String, Sendable, Hashable, Comparable {
        /// The store breaks its schema here: a document the models cannot load as it is.
        case error
        /// Allowed, but maybe not meant: keys the schema does not know.
        case note

        /// Whether `lhs` matters more: an error comes before a note, so findings sort errors first.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .error && rhs == .note }
    }

    /// How much it matters.
    public var severity: Severity
    /// The file, relative to the store.
    public var path: String
    /// The line in the file (1-based), when the finding is about one place in it.
    public var line: Int?
    /// The column in that line (1-based).
    public var column: Int?
    /// What is wrong and, where it is not obvious, what to do about it.
    public var message: String

    /// A finding about a file, or about one place in it.
    public init(_ severity: Severity, path: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.severity = severity
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    /// The finding as a diagnostic line: `path:line:column: severity: message`, without the line
    /// and column when they are not known.
    public var description: String {
        var place = path
        if let line { place += ":\(line)" }
        if let column { place += ":\(column)" }
        return "\(place): \(severity.rawValue): \(message)"
    }
}
