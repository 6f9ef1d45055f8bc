import BenchmarkSupport
import FolioJSON

/// Many records in one large document: one array per entity, so that `JSONDecoder`
/// decodes it into plain arrays of concrete structs.
struct Archive: Codable, Equatable {
    var timers: [TimerRecord] = []
    var focusSessions: [FocusSessionRecord] = []
    var rowingSessions: [RowingSessionRecord] = []
    var performanceMetrics: [PerformanceMetricRecord] = []
    var auditEvents: [AuditEventRecord] = []

    init(_ records: [Record]) {
        for record in records {
            switch record {
            case .timer(let timer): timers.append(timer)
            case .focusSession(let session): focusSessions.append(session)
            case .rowingSession(let session): rowingSessions.append(session)
            case .performanceMetric(let metric): performanceMetrics.append(metric)
            case .auditEvent(let event): auditEvents.append(event)
            }
        }
    }

    /// The number of records in all arrays.
    var recordCount: Int {
        timers.count + focusSessions.count + rowingSessions.count + performanceMetrics.count + auditEvents.count
    }

    /// The document as Folio writes it.
    var json: JSONValue {
        [
            "timers": .array(timers.map(\.json)),
            "focusSessions": .array(focusSessions.map(\.json)),
            "rowingSessions": .array(rowingSessions.map(\.json)),
            "performanceMetrics": .array(performanceMetrics.map(\.json)),
            "auditEvents": .array(auditEvents.map(\.json)),
        ]
    }
}
