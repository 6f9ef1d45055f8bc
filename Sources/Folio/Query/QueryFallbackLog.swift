import Logging
import Synchronization

/// Says once per predicate shape that a fetch runs on models instead of documents, so a
/// slow query is explained without flooding the log.
enum QueryFallbackLog {
    private static let logger = Logger(label: "Folio.query")
    private static let noted = Mutex<Set<String>>([])

    static func note(entity: String, shape: String, reason: String) {
        let isNew = noted.withLock { $0.insert(entity + "|" + shape).inserted }
        guard isNew else { return }
        logger.notice("A predicate on \(entity) runs on models, not on documents: \(reason)")
    }
}
