import BenchmarkSupport
import Foundation

/// A sample record as its typed twin.
enum TypedRecord: Equatable {
    case timer(TypedTimerRecord)
    case focusSession(TypedFocusSessionRecord)
    case rowingSession(TypedRowingSessionRecord)
    case performanceMetric(TypedPerformanceMetricRecord)
    case auditEvent(TypedAuditEventRecord)

    init(_ record: Record) throws {
        switch record {
        case .timer(let record): self = .timer(try TypedTimerRecord(record))
        case .focusSession(let record): self = .focusSession(try TypedFocusSessionRecord(record))
        case .rowingSession(let record): self = .rowingSession(try TypedRowingSessionRecord(record))
        case .performanceMetric(let record): self = .performanceMetric(try TypedPerformanceMetricRecord(record))
        case .auditEvent(let record): self = .auditEvent(try TypedAuditEventRecord(record))
        }
    }

    /// The record as `.iso8601` writes it: dates cut to whole seconds.
    var atWholeSeconds: TypedRecord {
        switch self {
        case .timer(let record): .timer(record.atWholeSeconds)
        case .focusSession(let record): .focusSession(record.atWholeSeconds)
        case .rowingSession(let record): .rowingSession(record.atWholeSeconds)
        case .performanceMetric(let record): .performanceMetric(record.atWholeSeconds)
        case .auditEvent(let record): .auditEvent(record.atWholeSeconds)
        }
    }

    /// The record encoded by `encoder` as its own struct.
    func encoded(by encoder: JSONEncoder) throws -> Data {
        switch self {
        case .timer(let record): try encoder.encode(record)
        case .focusSession(let record): try encoder.encode(record)
        case .rowingSession(let record): try encoder.encode(record)
        case .performanceMetric(let record): try encoder.encode(record)
        case .auditEvent(let record): try encoder.encode(record)
        }
    }

    /// A document decoded by `decoder` as a typed record of this record's shape.
    func decodeSameShape(from data: Data, by decoder: JSONDecoder) throws -> TypedRecord {
        switch self {
        case .timer: .timer(try decoder.decode(TypedTimerRecord.self, from: data))
        case .focusSession: .focusSession(try decoder.decode(TypedFocusSessionRecord.self, from: data))
        case .rowingSession: .rowingSession(try decoder.decode(TypedRowingSessionRecord.self, from: data))
        case .performanceMetric: .performanceMetric(try decoder.decode(TypedPerformanceMetricRecord.self, from: data))
        case .auditEvent: .auditEvent(try decoder.decode(TypedAuditEventRecord.self, from: data))
        }
    }
}
