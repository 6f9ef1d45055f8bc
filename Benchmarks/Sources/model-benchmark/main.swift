import BenchmarkSupport
import Foundation

// Measures Folio's models and GRDB side by side, removes the stores, and prints the
// report; or, run as `--memory-child`, measures one side's memory (see `MemoryChild`).
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == MemoryChild.command {
    do {
        try MemoryChild.run(arguments: Array(arguments.dropFirst()))
    } catch {
        FileHandle.standardError.write(Data("model-benchmark \(MemoryChild.command): \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}

if arguments.first == Profile.savesFlag {
    let scratch = ScratchFolders()
    do { try Profile.runSaves(scratch: scratch) } catch {
        FileHandle.standardError.write(Data("model-benchmark \(Profile.savesFlag): \(error)\n".utf8))
    }
    try? scratch.removeAll()
    exit(0)
}
if arguments.first == Profile.memoryFlag {
    let scratch = ScratchFolders()
    do { try Profile.runMemory(size: arguments.dropFirst().first.flatMap { Int($0) } ?? 1_000, scratch: scratch) } catch
    {
        FileHandle.standardError.write(Data("model-benchmark \(Profile.memoryFlag): \(error)\n".utf8))
    }
    try? scratch.removeAll()
    exit(0)
}
if arguments.first == Profile.flag {
    let scratch = ScratchFolders()
    do {
        let rest = arguments.dropFirst()
        try Profile.run(
            size: rest.first.flatMap { Int($0) } ?? 100_000, keeping: rest.dropFirst().first, scratch: scratch)
    } catch {
        FileHandle.standardError.write(Data("model-benchmark \(Profile.flag): \(error)\n".utf8))
    }
    try? scratch.removeAll()
    exit(0)
}

let start = ContinuousClock.now
let scratch = ScratchFolders()
do {
    let options = try Options(arguments: arguments)
    var runner = ModelRunner(options: options, scratch: scratch)
    try runner.run()
    ModelRunner.progress("removing the stores")
    try scratch.removeAll()
    print(ModelReport(options: options, results: runner.results, runTime: start.duration(to: .now)).markdown)
} catch {
    try? scratch.removeAll()
    FileHandle.standardError.write(Data("model-benchmark: \(error)\n".utf8))
    exit(1)
}
