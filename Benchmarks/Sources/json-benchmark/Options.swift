import BenchmarkSupport

/// The command line: no arguments for the full run, `--quick` for a smoke run with small sizes.
struct Options {
    static let usage = "usage: swift run -c release --package-path Benchmarks json-benchmark [--quick]"

    /// Timed passes per row, after one warm-up pass.
    let repetitions = 5
    let isQuick: Bool

    init(arguments: [String]) throws {
        switch arguments {
        case []: isQuick = false
        case ["--quick"]: isQuick = true
        default: throw BenchmarkFailure(Self.usage)
        }
    }

    /// Workload (a): this many small documents.
    var smallDocumentCount: Int { isQuick ? 2_000 : 100_000 }
    /// Workload (b): one document of about this many bytes.
    var largeDocumentBytes: Int { isQuick ? 1_000_000 : 50_000_000 }
    var command: String {
        "swift run -c release --package-path Benchmarks json-benchmark" + (isQuick ? " --quick" : "")
    }
}
