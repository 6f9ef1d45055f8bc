import BenchmarkSupport
import Foundation

// Folio at scale: a rowing store of 200,000 and 1,000,000 stroke documents, each figure
// beside git status, the sqlite3 shell, SQLite's C API or the bare stat walk; or, run as
// `--app-child`, one app measurement (see `AppChild`).
//
//     swift build -c release --product folio      # at the repository root, first
//     swift run -c release --package-path Benchmarks scale-benchmark [--quick] [--documents 200000]
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == AppChild.command {
    do {
        try AppChild.run(arguments: Array(arguments.dropFirst()))
    } catch {
        FileHandle.standardError.write(Data("scale-benchmark \(AppChild.command): \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}

let start = ProgressLog.start
let scratch = ScratchFolders()
do {
    let options = try Options(arguments: arguments)
    let manifest = try RowingManifest.manifest()
    try RowingManifest.checkModels(against: manifest)
    var runner = ScaleRunner(
        options: options, scratch: scratch, commands: try Commands(scratch: scratch), manifest: manifest)
    try runner.run()
    let report = ScaleReport(options: options, results: runner.results, runTime: start.duration(to: .now))
    // The table first: removing a million files takes minutes, and a run stopped then
    // should not lose the figures it already has.
    FileHandle.standardOutput.write(Data((report.markdown + "\n").utf8))
    if options.keep {
        ProgressLog.note("kept (--keep): \(scratch.folders.joined(separator: " "))")
    } else {
        ProgressLog.note("removing the stores")
        try scratch.removeAll()
    }
} catch {
    if !scratch.folders.isEmpty {
        ProgressLog.note("removing the stores")
        try? scratch.removeAll()
    }
    FileHandle.standardError.write(Data("scale-benchmark: \(error)\n".utf8))
    exit(1)
}
