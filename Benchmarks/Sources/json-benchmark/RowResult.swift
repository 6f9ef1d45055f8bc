import BenchmarkSupport

/// One row measured on one workload.
struct RowResult {
    let name: String
    let operation: Operation
    /// The median time of one pass.
    let median: Duration
    /// Bytes per pass: the input for reads, the row's own output for writes.
    let bytes: Int
    let documents: Int

    var seconds: Double { Format.seconds(median) }

    /// Millions of bytes per second.
    var megabytesPerSecond: Double { Double(bytes) / 1e6 / seconds }
    var documentsPerSecond: Double { Double(documents) / seconds }
}

/// All rows measured on one workload.
struct WorkloadResults {
    let title: String
    let summary: String
    let rows: [RowResult]

    /// The median seconds of the row of this type.
    func seconds(of row: any BenchmarkRow.Type) -> Double {
        rows.first { $0.name == row.name }!.seconds
    }
}
