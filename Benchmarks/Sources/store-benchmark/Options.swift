import BenchmarkSupport

/// The command line: store sizes to measure, or `--quick` for a smoke run with a small store.
struct Options {
    static let usage =
        "usage: swift run -c release --package-path Benchmarks store-benchmark [--quick] [--sizes 10000,100000]"

    let isQuick: Bool
    /// Documents per store, one table column group each.
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
                // The refresh row edits `StoreGoal.editedFiles` distinct documents.
                guard !parsed.isEmpty, parsed.count == list.split(separator: ",").count,
                    parsed.allSatisfy({ $0 >= StoreGoal.editedFiles })
                else {
                    throw BenchmarkFailure(
                        "--sizes takes whole numbers of at least \(StoreGoal.editedFiles), separated by commas\n"
                            + Self.usage)
                }
                sizes = parsed
            default:
                throw BenchmarkFailure(Self.usage)
            }
        }
        self.isQuick = isQuick
        self.sizes = sizes ?? (isQuick ? [2_000] : [10_000, 100_000])
    }

    /// Timed repetitions of every row for a store of `size` documents.
    func repetitions(for size: Int) -> Int {
        isQuick || size >= 50_000 ? 3 : 5
    }

    var command: String {
        "swift run -c release --package-path Benchmarks store-benchmark" + (isQuick ? " --quick" : "")
            + (sizes == [10_000, 100_000] || (isQuick && sizes == [2_000])
                ? "" : " --sizes " + sizes.map(String.init).joined(separator: ","))
    }
}
