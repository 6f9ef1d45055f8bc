import BenchmarkSupport
import Foundation

extension Record {
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

    /// A document decoded by `decoder` as a record of this record's shape, the way an
    /// app decodes a file whose entity it knows from the file's folder.
    func decodeSameShape(from data: Data, by decoder: JSONDecoder) throws -> Record {
        switch self {
        case .timer: .timer(try decoder.decode(TimerRecord.self, from: data))
        case .focusSession: .focusSession(try decoder.decode(FocusSessionRecord.self, from: data))
        case .rowingSession: .rowingSession(try decoder.decode(RowingSessionRecord.self, from: data))
        case .performanceMetric: .performanceMetric(try decoder.decode(PerformanceMetricRecord.self, from: data))
        case .auditEvent: .auditEvent(try decoder.decode(AuditEventRecord.self, from: data))
        }
    }
}
