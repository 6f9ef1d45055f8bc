import BenchmarkSupport
import Foundation

/// The Markdown report: what ran, both workloads' rows side by side, and the goals.
struct Report {
    let options: Options
    /// Workload (a), the small documents, then (b), the large one.
    let results: [WorkloadResults]

    private static let labels = ["(a)", "(b)"]

    var markdown: String {
        var lines = [
            "# FolioJSON throughput",
            "",
            "`\(options.command)`",
            "",
            "Each row: one warm-up pass, then the median of \(options.repetitions) timed passes "
                + "(in rounds, the rows taking turns), on \(ProcessInfo.processInfo.activeProcessorCount) cores.",
            "",
        ]
        for (label, workload) in zip(Self.labels, results) {
            lines.append("- \(label) \(workload.title): \(workload.summary)")
        }
        lines += ["", header, separator]
        for index in results[0].rows.indices {
            lines.append(tableLine(index))
        }
        lines += [
            "",
            "MB/s is 10^6 bytes per second of input for reads and of the row's own output for writes "
                + "(JSONEncoder and JSONSerialization write other bytes than FolioJSON's canonical text). "
                + "\"vs FolioJSON\" is the row's docs/s over FolioJSON's, for the same operation.",
            "",
            "| Goal | " + Self.labels.prefix(results.count).map { "\($0) ratio" }.joined(separator: " | ") + " |",
            "|---|" + String(repeating: "---:|", count: results.count),
        ]
        for goal in Goal.allCases {
            let cells = results.map { workload in
                let ratio = goal.ratio(in: workload)
                return "\(Format.ratio(ratio)) \(goal.isMet(by: ratio) ? "PASS" : "MISS")"
            }
            lines.append("| \(goal.title) | " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }

    private var header: String {
        let columns = Self.labels.prefix(results.count).flatMap { label in
            ["\(label) median", "\(label) MB/s", "\(label) docs/s", "\(label) vs FolioJSON"]
        }
        return "| Row | Op | " + columns.joined(separator: " | ") + " |"
    }

    private var separator: String {
        "|---|---|" + String(repeating: "---:|", count: 4 * results.count)
    }

    /// The `index`-th row of every workload, on one line.
    private func tableLine(_ index: Int) -> String {
        let first = results[0].rows[index]
        let folio: any BenchmarkRow.Type = first.operation == .read ? FolioRead.self : FolioWrite.self
        let cells = results.flatMap { workload in
            let row = workload.rows[index]
            return [
                Format.milliseconds(row.seconds),
                Format.rate(row.megabytesPerSecond),
                Format.rate(row.documentsPerSecond),
                Format.ratio(workload.seconds(of: folio) / row.seconds),
            ]
        }
        return "| \(first.name) | \(first.operation == .read ? "read" : "write") | " + cells.joined(separator: " | ")
            + " |"
    }
}
