import BenchmarkSupport
import Foundation

/// The command line: the store sizes (strokes), `--quick` for a smoke run, and the `folio`
/// binary to run.
///
/// `--app-child …` is the hidden subcommand the benchmark runs itself with for the app
/// rows (see `AppChild`).
struct Options {
    static let usage =
        "usage: swift run -c release --package-path Benchmarks scale-benchmark [--quick] [--documents 200000,1000000] [--folio PATH] [--keep]"
    static let defaultSizes = [200_000, 1_000_000]
    static let quickSizes = [20_000]

    let isQuick: Bool
    /// Stroke documents per store.
    let sizes: [Int]
    /// The release `folio` binary.
    let folio: String
    let folioGiven: Bool
    /// Leaves the stores, the database and the files in place (their folders are printed), for a closer look.
    let keep: Bool

    init(arguments: [String]) throws {
        var isQuick = false
        var sizes: [Int]?
        var folio: String?
        var keep = false
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--quick":
                isQuick = true
            case "--documents":
                guard let list = remaining.popFirst() else { throw BenchmarkFailure(Self.usage) }
                let parsed = list.split(separator: ",").compactMap { Int($0.filter { $0 != "_" }) }
                guard !parsed.isEmpty, parsed.count == list.split(separator: ",").count,
                    parsed.allSatisfy({ $0 >= 1_000 })
                else {
                    throw BenchmarkFailure(
                        "--documents takes whole numbers of at least 1,000, separated by commas\n" + Self.usage)
                }
                sizes = parsed
            case "--keep":
                keep = true
            case "--folio":
                guard let path = remaining.popFirst() else { throw BenchmarkFailure(Self.usage) }
                folio = path
            default:
                throw BenchmarkFailure(Self.usage)
            }
        }
        self.isQuick = isQuick
        self.keep = keep
        self.sizes = sizes ?? (isQuick ? Self.quickSizes : Self.defaultSizes)
        folioGiven = folio != nil
        self.folio = URL(filePath: folio ?? Self.repositoryRoot + "/.build/release/folio").standardizedFileURL.path
        guard FileManager.default.isExecutableFile(atPath: self.folio) else {
            throw BenchmarkFailure(
                folio != nil
                    ? "--folio \(self.folio): no executable there"
                    : "no release folio binary at \(self.folio): build it first with `swift build -c release --product folio` "
                        + "at the repository root (\(Self.repositoryRoot)), or pass --folio PATH")
        }
    }

    /// The repository this benchmark's source is in (`Benchmarks/Sources/scale-benchmark/` below it).
    static var repositoryRoot: String {
        URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().standardizedFileURL.path
    }

    /// Timed runs of each command (after one to warm the page cache).
    var runs: Int { isQuick ? 3 : 5 }
    /// App child processes (after one to warm the page cache).
    var appRuns: Int { isQuick ? 2 : 5 }
    /// Timed warm queries of each kind in the app rows.
    var warmQueries: Int { isQuick ? 50 : 200 }

    /// The peak memory goal of a command at this size: 64 MB up to 200,000 strokes, 128 MB above.
    func commandMemoryGoal(size: Int) -> Double { size <= 200_000 ? 64 : 128 }

    var command: String {
        "swift run -c release --package-path Benchmarks scale-benchmark" + (isQuick ? " --quick" : "")
            + (sizes == (isQuick ? Self.quickSizes : Self.defaultSizes)
                ? "" : " --documents " + sizes.map(String.init).joined(separator: ","))
            + (folioGiven ? " --folio \(folio)" : "")
            + (keep ? " --keep" : "")
    }
}
