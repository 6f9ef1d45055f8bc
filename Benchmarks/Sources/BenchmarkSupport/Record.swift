import FolioJSON

/// One sample document of any of the five shapes the seed apps store.
package enum Record: Equatable {
    case timer(TimerRecord)
    case focusSession(FocusSessionRecord)
    case rowingSession(RowingSessionRecord)
    case performanceMetric(PerformanceMetricRecord)
    case auditEvent(AuditEventRecord)

    /// The `index`-th sample record: the shapes take turns, so every workload mixes them evenly.
    package static func sample(_ index: Int, _ values: inout SampleValues) -> Record {
        switch index % 5 {
        case 0: .timer(.sample(&values))
        case 1: .focusSession(.sample(&values))
        case 2: .rowingSession(.sample(&values))
        case 3: .performanceMetric(.sample(&values))
        default: .auditEvent(.sample(&values))
        }
    }

    /// The sizes of small documents, like the seed apps' records.
    package static let smallDocumentSizes = 300...800

    /// `count` records whose documents are small, the shapes taking turns; a sample
    /// whose canonical text falls outside `smallDocumentSizes` is drawn again.
    package static func smallSamples(count: Int, seed: UInt64) throws -> [Record] {
        var values = SampleValues(seed: seed)
        let writer = JSONWriter()
        var records: [Record] = []
        records.reserveCapacity(count)
        while records.count < count {
            let record = sample(records.count, &values)
            if try smallDocumentSizes.contains(writer.write(record.json).count) { records.append(record) }
        }
        return records
    }

    /// The document as Folio writes it.
    package var json: JSONValue {
        switch self {
        case .timer(let record): record.json
        case .focusSession(let record): record.json
        case .rowingSession(let record): record.json
        case .performanceMetric(let record): record.json
        case .auditEvent(let record): record.json
        }
    }

    /// The entity the record is stored as (its `"$entity"`, the seed app's model name).
    package var entity: String {
        switch self {
        case .timer(let record): record.entity
        case .focusSession(let record): record.entity
        case .rowingSession(let record): record.entity
        case .performanceMetric(let record): record.entity
        case .auditEvent(let record): record.entity
        }
    }

    /// The record's identity, as its `uuidString`: the model's `id`, or the `"$id"` Folio
    /// assigns to a model without one.
    package var identity: String {
        switch self {
        case .timer(let record): record.id
        case .focusSession(let record): record.id
        case .rowingSession(let record): record.id
        case .performanceMetric(let record): record.id
        case .auditEvent(let record): record.assignedID
        }
    }
}
