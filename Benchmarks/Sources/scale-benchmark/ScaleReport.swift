import BenchmarkSupport
import Foundation

/// The Markdown report: the machine, then per size a table of times and one of memory,
/// each figure beside its peer's with the ratio, the goal and whether it was met.
struct ScaleReport {
    let options: Options
    let results: [SizeResult]
    let runTime: Duration

    var markdown: String {
        var lines = [
            "# Folio at scale: rowing stores of "
                + results.map { Format.grouped($0.size) }.joined(separator: " and ") + " stroke documents",
            "",
            "`\(options.command)`",
            "",
            Machine.line + "; run time \(Format.decimal(Format.seconds(runTime) / 60, places: 1)) minutes.",
            "",
            "Stores: the Rowing app's (seed 004) `RowingSession`s of 720 `PerformanceMetric` strokes each (two seconds "
                + "apart, the sessions spread over 2026), one document per stroke, written through Folio's `DocumentStore` "
                + "(batches of 10,000, `.none`) with `Data/Rowing/folio.json` plus an index on `PerformanceMetric.sessionID`, "
                + "then committed to git; SQLite: the same rows in tables `metric` (`sessionID` indexed) and `session`. "
                + "CLI rows: each command a new process of the release `folio` (`\(options.folio)`), the peer likewise; one "
                + "run to warm the page cache, then the median of \(options.runs), each command taking turns with its peers (so every row has its own `git status`); wall time and peak memory (`ru_maxrss` "
                + "from `wait4`, through a small C launcher so the benchmark's own memory is not counted). The queries ask for "
                + "one session's strokes by `sessionID`. Writes (`folio insert`, at the CLI's default durability `.full`; "
                + "the imports) start with every dirty page written back (`sync`, off the clock): Folio's `syncfs` writes "
                + "back the whole file system's, SQLite syncs its own files. App rows: a fresh child process each (one to warm, then the median of "
                + "\(options.appRuns)), `ModelContainer` with the seed's `@Model` classes (`#Index` on `sessionID`), after a "
                + "warm-up on a sessions-only store; the warm queries are \(options.warmQueries) of each kind, one `fetch` at "
                + "a time on the same context, median. Times in ms or s; memory in MB of 1,048,576 bytes.",
        ]
        for result in results {
            lines += [
                "",
                "## \(Format.grouped(result.size)) strokes, \(Format.grouped(result.sessions)) sessions",
                "",
                "Store: \(Format.grouped(result.files)) stroke files, \(Format.decimal(Double(result.bytesOnDisk) / 1_048_576, places: 0)) MB "
                    + "on disk (files and folders of `PerformanceMetric/`). Building: "
                    + result.buildTimes.map { "\($0.what) \(Self.time($0.seconds))" }.joined(separator: "; ") + ".",
                "",
                "| what | Folio | peer | peer name | ratio | goal | met |",
                "|---|---:|---:|---|---:|---|---|",
            ]
            lines += result.timeRows.map(Self.line)
            lines += [
                "",
                "Peak memory (CLI: `ru_maxrss` of the command's process; app: growth of the child's resident memory):",
                "",
                "| what | Folio | peer | peer name | ratio | goal | met |",
                "|---|---:|---:|---|---:|---|---|",
            ]
            lines += result.memoryRows.map(Self.line)
            lines += result.notes.map { "\n" + $0 }
        }
        let rows = results.flatMap { $0.timeRows + $0.memoryRows }
        let goals = rows.compactMap(\.isMet)
        lines += [
            "",
            "Goals met: \(goals.filter { $0 }.count) of \(goals.count).",
        ]
        return lines.joined(separator: "\n")
    }

    private static func line(_ row: ScaleRow) -> String {
        let value = { (figure: Double?) in figure.map { row.unit == .time ? time($0) : megabytes($0) } ?? "–" }
        let goal: String
        switch row.goal {
        case .ratio(let most): goal = "≤ \(Format.decimal(most, places: most == most.rounded() ? 0 : 1))× the peer"
        case .limit(let most): goal = "≤ \(Format.decimal(most, places: 0)) MB"
        case .none: goal = row.folio == nil ? "baseline" : "reported"
        }
        let met = row.isMet.map { $0 ? "met" : "MISSED" } ?? "–"
        return
            "| \(row.what) | \(value(row.folio)) | \(value(row.peer)) | \(row.peerName.isEmpty ? "–" : row.peerName) | "
            + "\(row.ratio.map { significant($0) + "×" } ?? "–") | \(goal) | \(met) |"
    }

    /// Seconds with 2-3 significant digits: 12.3 µs, 4.56 ms, 123 ms, 1.23 s, 45.6 s.
    static func time(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "–" }
        let (value, unit): (Double, String) =
            seconds >= 1 ? (seconds, "s") : seconds >= 0.001 ? (seconds * 1e3, "ms") : (seconds * 1e6, "µs")
        return significant(value) + " " + unit
    }

    static func megabytes(_ value: Double) -> String {
        guard value.isFinite else { return "–" }
        return (value.magnitude >= 100 ? Format.decimal(value, places: 0) : Format.decimal(value, places: 1)) + " MB"
    }

    private static func significant(_ value: Double) -> String {
        value >= 100
            ? Format.decimal(value, places: 0)
            : value >= 10 ? Format.decimal(value, places: 1) : Format.decimal(value, places: 2)
    }
}

/// The machine line: processor, cores, memory, kernel, the temporary folder's file system,
/// and the peers' versions.
enum Machine {
    static var line: String {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model =
            cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }.map {
                $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            } ?? "unknown processor"
        let meminfo = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
        let memoryKiB =
            meminfo.split(separator: "\n").first { $0.hasPrefix("MemTotal:") }.flatMap { Int($0.filter(\.isNumber)) }
            ?? 0
        let kernel =
            (try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8))?.trimmingCharacters(
                in: .whitespacesAndNewlines) ?? "?"
        return "Machine: \(model), \(ProcessInfo.processInfo.activeProcessorCount) cores, "
            + "\(Format.decimal(Double(memoryKiB) / 1_048_576, places: 1)) GB memory, Linux \(kernel), "
            + "temporary folder \(FileManager.default.temporaryDirectory.path) on \(fileSystem(of: FileManager.default.temporaryDirectory.path)); "
            + "\(version(["git", "--version"])), sqlite3 \(version(["sqlite3", "--version"]).split(separator: " ").first ?? "?")"
    }

    /// The type and options of the mount holding `path`, from `/proc/mounts`.
    private static func fileSystem(of path: String) -> String {
        let mounts = (try? String(contentsOfFile: "/proc/mounts", encoding: .utf8)) ?? ""
        var best: (point: String, text: String)?
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 4 else { continue }
            let point = String(fields[1])
            guard path == point || path.hasPrefix(point == "/" ? "/" : point + "/") else { continue }
            if best == nil || point.count > best!.point.count { best = (point, "\(fields[2]) (\(fields[3]))") }
        }
        return best?.text ?? "?"
    }

    private static func version(_ arguments: [String]) -> String {
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "?" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
