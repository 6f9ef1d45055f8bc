/// SwiftData's error type, for apps that catch it by name: Folio throws `FolioError`,
/// and SwiftData's members match the Folio errors of the kinds they stand for.
///
/// ```swift
/// do {
///     container = try ModelContainer(for: Trip.self)
/// } catch SwiftDataError.loadIssueModelContainer {
///     // the store could not be opened or migrated
/// }
/// ```
public typealias SwiftDataError = FolioError

extension FolioError {
    /// The store could not be opened: not a store, unreadable, locked, a link, or a
    /// migration that cannot run (`.invalidStore`, `.unreadableJSON`, `.fileSystem`,
    /// `.locked`, `.unsafePath`, `.migration`, `.unfinishedCommit`).
    public static let loadIssueModelContainer = pattern(
        "loadIssueModelContainer",
        matching: [.invalidStore, .unreadableJSON, .fileSystem, .locked, .unsafePath, .migration, .unfinishedCommit])
    /// The store was written by a newer version of the models (`.migration`).
    public static let backwardMigration = pattern("backwardMigration", matching: [.migration])
    /// A save would store a value or relationship the schema does not allow (`.invalidValue`, `.constraint`).
    public static let modelValidationFailure = pattern(
        "modelValidationFailure", matching: [.invalidValue, .constraint])
    /// A fetch or aggregate cannot use the predicate (`.misuse`, `.invalidQuery`).
    public static let unsupportedPredicate = pattern("unsupportedPredicate", matching: [.misuse, .invalidQuery])
    /// A fetch cannot use the sort (`.misuse`).
    public static let unsupportedSortDescriptor = pattern("unsupportedSortDescriptor", matching: [.misuse])
    /// A predicate or sort names a key path Folio cannot follow (`.misuse`): SwiftData's name.
    public static let unsupportedKeyPath = pattern("unsupportedKeyPath", matching: [.misuse])
    /// A predicate names a key path Folio cannot follow (`.misuse`); the same as `unsupportedKeyPath`.
    public static let unsupportedKeyPathInPredicate = pattern("unsupportedKeyPathInPredicate", matching: [.misuse])
    /// A model is used without a context where one is needed (`.misuse`).
    public static let missingModelContext = pattern("missingModelContext", matching: [.misuse])
    /// A container was given configurations it cannot use (`.misuse`).
    public static let duplicateConfiguration = pattern("duplicateConfiguration", matching: [.misuse])
    /// A configuration's schema names a model the container's does not have (`.misuse`).
    public static let configurationSchemaNotFoundInContainerSchema = pattern(
        "configurationSchemaNotFoundInContainerSchema", matching: [.misuse])
    /// A schema or model the container does not know (`.misuse`).
    public static let unknownSchema = pattern("unknownSchema", matching: [.misuse])
    /// The history after a token was deleted, so fetching since it would miss changes (`.historyTokenExpired`).
    public static let historyTokenExpired = pattern("historyTokenExpired", matching: [.historyTokenExpired])
    /// A batched fetch whose descriptor includes pending changes, which SwiftData refuses.
    /// Folio's batched fetches lay the context's unsaved changes over the store as its other
    /// fetches do, so it matches no error Folio throws: the name is here for apps' `catch`.
    public static let includePendingChangesWithBatchSize = pattern("includePendingChangesWithBatchSize", matching: [])
    /// A history fetch Folio cannot run: another transaction type than `DefaultHistoryTransaction` (`.misuse`).
    public static let invalidTransactionFetchRequest = pattern("invalidTransactionFetchRequest", matching: [.misuse])
}
