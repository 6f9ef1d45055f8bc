import Foundation

// Builds both workloads, measures every row on each, and prints the report.
do {
    let options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
    let runner = Runner(repetitions: options.repetitions)
    // Each workload is built, measured and released in turn, to keep memory down.
    let small = try runner.measure(Workload.smallDocuments(count: options.smallDocumentCount, seed: 1))
    let large = try runner.measure(Workload.largeDocument(targetBytes: options.largeDocumentBytes, seed: 2))
    print(Report(options: options, results: [small, large]).markdown)
} catch {
    FileHandle.standardError.write(Data("json-benchmark: \(error)\n".utf8))
    exit(1)
}
