import BenchmarkSupport
import Foundation

// Builds the documents of each size, measures every row on them, removes the trees, and prints the report.
let start = ContinuousClock.now
let scratch = ScratchSpace()
do {
    let options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
    let pageCacheDropped = PageCache.drop()
    let runner = StoreRunner(scratch: scratch, canDropPageCache: pageCacheDropped)
    var results: [SizeResults] = []
    for size in options.sizes {
        StoreRunner.progress("\(Format.grouped(size)) documents: preparing the documents")
        results.append(try runner.measure(StoreSample(count: size), repetitions: options.repetitions(for: size)))
    }
    StoreRunner.progress("removing the trees")
    try scratch.removeAll()
    let report = StoreReport(
        options: options, results: results, pageCacheDropped: pageCacheDropped, runTime: start.duration(to: .now))
    print(report.markdown)
    guard report.refreshReadExactly else {
        throw BenchmarkFailure(
            "FAILED: a refresh after \(StoreGoal.editedFiles) edits did not read exactly the edited files (see the goals)"
        )
    }
} catch {
    try? scratch.removeAll()
    FileHandle.standardError.write(Data("store-benchmark: \(error)\n".utf8))
    exit(1)
}
