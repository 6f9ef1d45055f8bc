import BenchmarkSupport

/// What a measured command must print, checked after each run.
enum OutputCheck {
    /// The output, trimmed, is `expected`.
    static func equals(_ expected: String, _ what: String) -> (CommandRun) throws -> Void {
        { run in
            let got = run.output.trimmingCharacters(in: .whitespacesAndNewlines)
            guard got == expected else {
                throw BenchmarkFailure("\(what) printed \(got.prefix(300).debugDescription), not \(expected)")
            }
        }
    }

    /// The output has `count` lines.
    static func lines(_ count: Int, _ what: String) -> (CommandRun) throws -> Void {
        { run in
            let got = run.output.split(separator: "\n").count
            guard got == count else {
                throw BenchmarkFailure("\(what) printed \(got) lines, not \(count):\n\(run.output.prefix(500))")
            }
        }
    }
}
