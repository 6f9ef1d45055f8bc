import BenchmarkSupport

/// The command line: the store sizes to measure, or `--quick` for a smoke run.
///
/// `--memory-child <folio|grdb> <warm-up folder> <folder>` is the hidden subcommand the
/// benchmark runs itself with, to measure memory in a fresh process (see `MemoryChild`).
struct Options {
    static let usage =
        "usage: swift run -c release --package-path Benchmarks model-benchmark [--quick] [--sizes 1000,10000,100000]"
    static let defaultSizes = [1_000, 10_000, 100_000]
    static let quickSizes = [1_000]

    let isQuick: Bool
    /// Sessions per store for the whole-set rows.
    let sizes: [Int]

    init(arguments: [String]) throws {
        var isQuick = false
        var sizes: [Int]?
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--quick":
                isQuick = true
            case "--sizes":
                guard let list = remaining.popFirst() else { throw BenchmarkFailure(Self.usage) }
                let parsed = list.split(separator: ",").compactMap { Int($0.filter { $0 != "_" }) }
                guard !parsed.isEmpty, parsed.count == list.split(separator: ",").count, parsed.allSatisfy({ $0 >= 1 })
                else {
                    throw BenchmarkFailure(
                        "--sizes takes whole numbers of at least 1, separated by commas\n" + Self.usage)
                }
                sizes = parsed
            default:
                throw BenchmarkFailure(Self.usage)
            }
        }
        self.isQuick = isQuick
        self.sizes = sizes ?? (isQuick ? Self.quickSizes : Self.defaultSizes)
    }

    /// Rounds of the whole-set rows for a store of `size` sessions.
    func rounds(for size: Int) -> Int {
        isQuick ? 2 : size >= 50_000 ? 3 : 5
    }

    /// Sessions saved and registered before the single saves.
    let registeredSessions = 10_000
    /// Rounds of the single saves and of the strokes, each durability pair and side once a round.
    var latencyRounds: Int { isQuick ? 1 : 3 }
    /// Single saves timed per round, after `warmUpSaves` untimed ones.
    var timedSaves: Int { isQuick ? 50 : 200 }
    let warmUpSaves = 5
    /// Strokes of the rowing session, each saved on its own.
    var strokes: Int { isQuick ? 100 : 500 }
    /// Child processes per side for the memory rows.
    var memoryRuns: Int { isQuick ? 2 : 5 }
    /// Sessions the memory rows fetch: the Forest Focus seed's budget is for 1,000.
    let memorySessions = 1_000

    var command: String {
        "swift run -c release --package-path Benchmarks model-benchmark" + (isQuick ? " --quick" : "")
            + (sizes == (isQuick ? Self.quickSizes : Self.defaultSizes)
                ? "" : " --sizes " + sizes.map(String.init).joined(separator: ","))
    }
}
