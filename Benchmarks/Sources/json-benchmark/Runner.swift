import BenchmarkSupport
import Foundation

/// Measures every row on a workload: one untimed warm-up pass per row, then
/// timed rounds in which each row makes one pass, then each row's validation.
///
/// Taking turns within each round, rather than timing one row's passes back to
/// back, spreads any change in the machine's load over all rows alike, so the
/// ratios between rows hold up on a noisy machine.
struct Runner {
    let repetitions: Int

    func measure(_ workload: Workload) throws -> WorkloadResults {
        let rowTypes = Rows.all
        Self.progress("\(workload.title): preparing inputs")
        let rows = try rowTypes.map { try $0.init(workload: workload) }

        Self.progress("\(workload.title): warm-up")
        let bytes = try rows.map { try timedPass($0).bytes }
        for (rowType, rowBytes) in zip(rowTypes, bytes)
        where rowType.operation == .read && rowBytes != workload.totalBytes {
            throw BenchmarkFailure("\(rowType.name) failed to parse some documents of \(workload.title)")
        }

        var times = [[Duration]](repeating: [], count: rows.count)
        for round in 1...repetitions {
            Self.progress("\(workload.title): round \(round) of \(repetitions)")
            for index in rows.indices {
                let (time, passBytes) = try timedPass(rows[index])
                times[index].append(time)
                guard passBytes == bytes[index] else {
                    throw BenchmarkFailure(
                        "\(rowTypes[index].name) processed \(passBytes) bytes in one pass and \(bytes[index]) in another"
                    )
                }
            }
        }

        Self.progress("\(workload.title): validating")
        for row in rows { try row.validate() }
        return WorkloadResults(
            title: workload.title,
            summary: workload.summary,
            rows: rowTypes.indices.map { index in
                RowResult(
                    name: rowTypes[index].name, operation: rowTypes[index].operation, median: Self.median(times[index]),
                    bytes: bytes[index], documents: workload.documentCount
                )
            }
        )
    }

    private static func median(_ durations: [Duration]) -> Duration {
        let sorted = durations.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Progress goes to standard error, so standard output holds only the report.
    private static func progress(_ line: String) {
        FileHandle.standardError.write(Data("… \(line)\n".utf8))
    }
}
