import Logging
import Synchronization

/// The source Folio's log messages name: the library apps import, as before FolioCore was
/// split from it (swift-log's default is the module that logs).
let logSource = "Folio"

/// A swift-log logger that says each thing once (by a key), so a cause met on every fetch
/// is explained without flooding the log.
final class OnceLog: Sendable {
    /// Fetches that run on models because their predicate has no query translation.
    static let query = OnceLog(label: "Folio.query")
    /// Documents a fetch left out under `ModelConfiguration.UnreadableDocuments.skip`.
    static let documents = OnceLog(label: "Folio.documents")

    private let logger: Logger
    private let noted = Mutex<Set<String>>([])

    private init(label: String) { logger = Logger(label: label) }

    /// Logs the message as a notice, unless one was logged for `key` before.
    func notice(_ key: String, _ message: @autoclosure () -> String) {
        guard noted.withLock({ $0.insert(key).inserted }) else { return }
        logger.notice("\(message())", source: logSource)
    }
}
