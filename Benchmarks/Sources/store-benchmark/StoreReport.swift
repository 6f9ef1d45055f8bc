import BenchmarkSupport
import Foundation

/// The Markdown report: what ran, every size's rows side by side, the trees' disk usage, and the goals.
struct StoreReport {
    let options: Options
    let results: [SizeResults]
    /// Whether the kernel accepted dropping its page cache, so the "dropped" rows ran.
    let pageCacheDropped: Bool
    /// From the start of the run to the report, including building the samples and removing the trees.
    let runTime: Duration

    /// Whether every goal that checks correctness rather than speed was met.
    var refreshReadExactly: Bool {
        results.allSatisfy { StoreGoal.refreshReads.outcome(in: $0).isMet }
    }

    var markdown: String {
        var lines = [
            "# Folio document store against the file system floor",
            "",
            "`\(options.command)`",
            "",
            "Each row: the median of "
                + results.map { "\($0.repetitions) (\(Format.grouped($0.documentCount)) docs)" }.joined(separator: ", ")
                + " timed repetitions, Folio and the C floors taking turns within each repetition, every write into a new "
                + "folder, nothing deleted until the end; \(ProcessInfo.processInfo.activeProcessorCount) cores. "
                + "Run time \(Format.decimal(Format.seconds(runTime) / 60, places: 1)) minutes.",
            "",
        ]
        for size in results {
            lines.append("- \(Format.grouped(size.documentCount)) documents of the seed shapes: \(size.summary)")
        }
        lines.append(
            pageCacheDropped
                ? "- OS page cache: dropped (`3` written to `/proc/sys/vm/drop_caches`) before each \"page cache dropped\" row."
                : "- OS page cache: dropping it was refused (`/proc/sys/vm/drop_caches`), so the \"page cache dropped\" rows did not run; "
                    + "\"cold\" means no `.folio/cache`, with the files in the page cache.")
        lines += ["", header, separator]
        for row in StoreRow.allCases where pageCacheDropped || !row.dropsPageCache {
            lines.append(tableLine(row))
        }
        lines += [
            "",
            "docs/s is the store's documents over the median time (for the refresh, documents kept current per second). "
                + "\"vs floor\" is the row's median over its C floor's: the write rows' over the C write of the same durability, "
                + "the opens' and the refresh's over the stat walk of the same page-cache state. "
                + "\"files read\" is `StoreStatistics.filesRead` (`StoreChanges.filesRead` for the refresh), the same in every repetition "
                + "unless a range is shown.",
            "",
        ]
        for size in results {
            guard let tree = size.tree else { continue }
            let perFile = Double(tree.fileBytesOnDisk) / Double(max(tree.files, 1)) / 1024
            lines.append(
                "Disk usage of the \(Format.grouped(size.documentCount))-document tree (`st_blocks`, as `du` counts): "
                    + "\(Format.decimal(Double(tree.fileBytesOnDisk) / 1e6, places: 1)) MB in \(Format.grouped(tree.files)) files, "
                    + "\(Format.decimal(perFile, places: 2)) KiB per file for \(tree.fileBytes / max(tree.files, 1)) bytes of text; "
                    + "\(Format.decimal(Double(tree.folderBytesOnDisk) / 1e6, places: 1)) MB in \(Format.grouped(tree.folders)) folders."
            )
            lines.append("")
        }
        lines += [
            "| Goal | " + results.map { "\(Format.grouped($0.documentCount)) docs" }.joined(separator: " | ") + " |",
            "|---|" + String(repeating: "---:|", count: results.count),
        ]
        for goal in StoreGoal.allCases {
            let cells = results.map { size in
                let outcome = goal.outcome(in: size)
                return "\(outcome.text) \(outcome.isMet ? "PASS" : "MISS")"
            }
            lines.append("| \(goal.title) | " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }

    private var header: String {
        let columns = results.flatMap { size in
            let label = Format.grouped(size.documentCount)
            return ["\(label) median", "\(label) docs/s", "\(label) vs floor", "\(label) files read"]
        }
        return "| Row | " + columns.joined(separator: " | ") + " |"
    }

    private var separator: String {
        "|---|" + String(repeating: "---:|", count: 4 * results.count)
    }

    private func tableLine(_ row: StoreRow) -> String {
        let cells = results.flatMap { size -> [String] in
            guard let time = size.seconds(row) else { return ["–", "–", "–", "–"] }
            let reads = Set(size.filesRead[row] ?? [])
            let readText =
                reads.isEmpty
                ? ""
                : reads.count == 1
                    ? Format.grouped(reads.first!) : "\(Format.grouped(reads.min()!))-\(Format.grouped(reads.max()!))"
            return [
                Format.milliseconds(time),
                Format.rate(Double(size.documentCount) / time),
                size.ratio(row).map(Format.ratio) ?? "",
                readText,
            ]
        }
        return "| \(row.title) | " + cells.joined(separator: " | ") + " |"
    }
}
