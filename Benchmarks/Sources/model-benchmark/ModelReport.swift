import BenchmarkSupport
import Foundation

/// The Markdown report: what ran, three tables with both sides and their ratio, and the goals.
struct ModelReport {
    let options: Options
    let results: Results
    /// From the start of the run to the report, including making the values and removing the stores.
    let runTime: Duration

    var markdown: String {
        var lines = [
            "# Folio models against GRDB (SQLite)",
            "",
            "`\(options.command)`",
            "",
            "Folio: `ModelContainer` + `ModelContext` over `@Model` classes (the seeds' `FocusSession`, `RowingSession`, "
                + "`PerformanceMetric`). GRDB: a `DatabaseQueue` over one SQLite file in WAL mode, `Codable` records of the same fields. "
                + "Each side works in a new folder under `/tmp` for every measurement; the sides take turns, in an order that flips "
                + "every round; nothing is deleted until the end. Durability: Folio `.full` against `synchronous=FULL` "
                + "(power-loss safe at every save), Folio `.normal` against `synchronous=NORMAL` (whole after a power loss, last saves may be lost); "
                + "for the single saves also `.none` against `synchronous=OFF` (no syncs: each side's own work). "
                + "Folio syncs a transaction of many files with `syncfs`, which writes back every dirty page of the whole file system, "
                + "other programs' too, and a one-document save with `fsync` of the file (and, for `.full`, of its folder); "
                + "SQLite with `fdatasync` of its own files. "
                + "\(ProcessInfo.processInfo.activeProcessorCount) cores; run time \(Format.decimal(Format.seconds(runTime) / 60, places: 1)) minutes.",
            "",
            "## Whole sets of FocusSessions",
            "",
            "Median of \(options.sizes.map { "\(options.rounds(for: $0)) rounds (\(Format.grouped($0)))" }.joined(separator: ", ")). "
                + "Insert + save: the models or records made and inserted, then one save (one transaction). "
                + "Reopen + fetch all: a new container (queue) on the `.full` (`FULL`) store, every session fetched and made into a model (record), "
                + "the files in the OS page cache (just written); "
                + "Folio's first open after the save reads the cache the saving container wrote when it went away, as does the second.",
            "",
            "| Row | Sessions | Folio | GRDB | Folio / GRDB | Folio sessions/s | GRDB sessions/s |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        for size in options.sizes {
            for pair in DurabilityPair.durable {
                lines.append(wholeSetLine("insert + save, \(pair.label)", .insertAndSave(size: size, pair), size: size))
            }
            lines.append(
                wholeSetLine(
                    "reopen + fetch all, first open after the save", .reopenAndFetchAll(size: size, second: false),
                    size: size))
            lines.append(
                wholeSetLine(
                    "reopen + fetch all, second open", .reopenAndFetchAll(size: size, second: true), size: size))
            lines.append(
                "| C `stat` walk of Folio's `FocusSession/` (no file read; the floor of seeing hand edits) | "
                    + "\(Format.grouped(size)) | \(time(results.samples(.statWalk(size: size), .folio).median)) | | | | |"
            )
        }
        lines += [
            "",
            "## One save at a time",
            "",
            "Single saves: \(Format.grouped(options.registeredSessions)) sessions saved, the store opened again and all of them fetched "
                + "(registered in the context; GRDB keeps its fetched array and appends), then one session inserted and saved at a time: "
                + "\(options.timedSaves) timed saves after \(options.warmUpSaves) untimed ones, in each of \(options.latencyRounds) rounds. "
                + "Strokes: a rowing session saved, then \(options.strokes) `PerformanceMetric`s each inserted, linked (`metric.session = session`; "
                + "GRDB: the `sessionID` foreign key) and saved on its own, in each of \(options.latencyRounds) rounds. "
                + "Median and p99 (nearest rank) over all rounds' saves; the total is the median round's.",
            "",
            "| Row | Durability | Folio median | GRDB median | Folio / GRDB | Folio p99 | GRDB p99 | Folio / GRDB |",
            "|---|---|---:|---:|---:|---:|---:|---:|",
        ]
        for pair in DurabilityPair.allCases {
            lines.append(
                latencyLine(
                    "1 insert + save, \(Format.grouped(options.registeredSessions)) registered", .singleSave(pair), pair
                ))
        }
        for pair in DurabilityPair.allCases {
            lines.append(latencyLine("rowing: 1 stroke insert + save", .strokeSave(pair), pair))
        }
        for pair in DurabilityPair.allCases {
            let total = Measurement.strokeTotal(pair)
            lines.append(
                "| rowing: all \(options.strokes) strokes, one save each (total) | \(pair.label) | "
                    + "\(time(results.samples(total, .folio).median)) | \(time(results.samples(total, .grdb).median)) | "
                    + "\(ratio(results.ratio(total, \.median))) | | | |")
        }
        lines += [
            "",
            "## Memory for \(Format.grouped(options.memorySessions)) sessions",
            "",
            "Growth of resident memory (`VmRSS`) and of the heap in use (`mallinfo2`, what is allocated and not freed), "
                + "KB of 1,024 bytes, in a fresh child process, after a warm-up open and fetch of a "
                + "10-session store: from before opening the store to after the open, and to after fetching every session "
                + "(the models or records kept alive). Median of \(options.memoryRuns) child processes per side.",
            "",
            "| Row | Folio | GRDB | Folio / GRDB |",
            "|---|---:|---:|---:|",
            memoryLine("open the store, resident", .memoryAfterOpen),
            memoryLine("open + fetch all, resident", .memoryAfterFetch),
            memoryLine("open the store, heap", .heapAfterOpen),
            memoryLine("open + fetch all, heap", .heapAfterFetch),
            "",
            "## Goals",
            "",
            "| Goal | Measured | Result |",
            "|---|---:|---|",
        ]
        for goal in ModelGoal.all(sizes: options.sizes) {
            guard let outcome = goal.outcome(in: results) else {
                lines.append("| \(goal.title) | not measured | MISSED |")
                continue
            }
            lines.append("| \(goal.title) | \(outcome.text) | \(outcome.isMet ? "met" : "MISSED") |")
        }
        return lines.joined(separator: "\n")
    }

    private func wholeSetLine(_ title: String, _ measurement: Measurement, size: Int) -> String {
        let folio = results.samples(measurement, .folio).median
        let grdb = results.samples(measurement, .grdb).median
        let rate = { (seconds: Double?) in seconds.map { Format.rate(Double(size) / $0) } ?? "–" }
        return
            "| \(title) | \(Format.grouped(size)) | \(time(folio)) | \(time(grdb)) | \(ratio(results.ratio(measurement, \.median))) | "
            + "\(rate(folio)) | \(rate(grdb)) |"
    }

    private func latencyLine(_ title: String, _ measurement: Measurement, _ pair: DurabilityPair) -> String {
        let folio = results.samples(measurement, .folio)
        let grdb = results.samples(measurement, .grdb)
        let p99 = { (samples: Samples) in samples.percentile(0.99) }
        return
            "| \(title) | \(pair.label) | \(time(folio.median)) | \(time(grdb.median)) | \(ratio(results.ratio(measurement, \.median))) | "
            + "\(time(p99(folio))) | \(time(p99(grdb))) | \(ratio(results.ratio(measurement, p99))) |"
    }

    private func memoryLine(_ title: String, _ measurement: Measurement) -> String {
        let kilobytes = { (value: Double?) in value.map { Format.grouped(Int($0)) + " KB" } ?? "–" }
        return
            "| \(title) | \(kilobytes(results.samples(measurement, .folio).median)) | \(kilobytes(results.samples(measurement, .grdb).median)) | "
            + "\(ratio(results.ratio(measurement, \.median))) |"
    }

    /// Milliseconds, with two decimals below 10 ms and thousands grouped above.
    private func time(_ seconds: Double?) -> String {
        guard let seconds else { return "–" }
        let milliseconds = seconds * 1_000
        if milliseconds < 10 { return Format.decimal(milliseconds, places: 2) + " ms" }
        let tenths = Int((milliseconds * 10).rounded())
        return Format.grouped(tenths / 10) + "." + String(tenths % 10) + " ms"
    }

    private func ratio(_ value: Double?) -> String {
        value.map(Format.ratio) ?? "–"
    }
}
