/// `Archive`'s typed twin: the same records, as typed models, in one document.
struct TypedArchive: Codable, Equatable {
    var timers: [TypedTimerRecord]
    var focusSessions: [TypedFocusSessionRecord]
    var rowingSessions: [TypedRowingSessionRecord]
    var performanceMetrics: [TypedPerformanceMetricRecord]
    var auditEvents: [TypedAuditEventRecord]

    init(_ archive: Archive) throws {
        timers = try archive.timers.map(TypedTimerRecord.init)
        focusSessions = try archive.focusSessions.map(TypedFocusSessionRecord.init)
        rowingSessions = try archive.rowingSessions.map(TypedRowingSessionRecord.init)
        performanceMetrics = try archive.performanceMetrics.map(TypedPerformanceMetricRecord.init)
        auditEvents = try archive.auditEvents.map(TypedAuditEventRecord.init)
    }

    /// The archive as `.iso8601` writes it: dates cut to whole seconds.
    var atWholeSeconds: TypedArchive {
        var copy = self
        copy.timers = timers.map(\.atWholeSeconds)
        copy.focusSessions = focusSessions.map(\.atWholeSeconds)
        copy.rowingSessions = rowingSessions.map(\.atWholeSeconds)
        copy.performanceMetrics = performanceMetrics.map(\.atWholeSeconds)
        copy.auditEvents = auditEvents.map(\.atWholeSeconds)
        return copy
    }
}
