import BenchmarkSupport
import Foundation

/// One finished command: its wall time, its peak resident memory (`ru_maxrss` from
/// `wait4`) and what it printed.
struct CommandRun {
    var seconds: Double
    var peakKiB: Int
    var status: Int
    var output: String
    var errors: String
}

/// A command's measurement: the median wall time and the median peak memory of the timed runs.
struct CommandMeasurement {
    var runs: [CommandRun]

    var seconds: Double { median(runs.map(\.seconds)) }
    var peakMiB: Double { median(runs.map { Double($0.peakKiB) / 1_024 }) }
}

func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// Runs commands as new processes through `scale-launcher` (see its `main.c`: it times
/// the command and reads its `ru_maxrss`, which a child of this big process would
/// inherit), with git's configuration kept away from the user's.
struct Commands {
    /// The launcher, built beside this benchmark.
    let launcher: String
    /// A private home folder: git reads no `~/.gitconfig`, and writes nothing in the user's.
    let home: String
    /// Where each command's standard output and error go (overwritten by every run).
    let outputFile: String
    let errorFile: String

    init(scratch: ScratchFolders) throws {
        let executable = try Self.ownExecutable()
        launcher = (executable as NSString).deletingLastPathComponent + "/scale-launcher"
        guard FileManager.default.isExecutableFile(atPath: launcher) else {
            throw BenchmarkFailure(
                "no scale-launcher beside \(executable); build it with `swift build -c release --package-path Benchmarks --product scale-benchmark`"
            )
        }
        let folder = try scratch.fresh(purpose: "home")
        home = folder
        outputFile = folder + "/command.out"
        errorFile = folder + "/command.err"
    }

    /// This program's path (`/proc/self/exe`), to run itself as a child and to find the launcher.
    static func ownExecutable() throws -> String {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            throw BenchmarkFailure("cannot read /proc/self/exe")
        }
        return path
    }

    /// The environment of every command: the benchmark's, with git's configuration private.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home
        environment["XDG_CONFIG_HOME"] = home + "/.config"
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["LC_ALL"] = "C"
        environment.removeValue(forKey: "GIT_DIR")
        environment.removeValue(forKey: "GIT_WORK_TREE")
        environment.removeValue(forKey: "GIT_INDEX_FILE")
        return environment
    }

    /// Runs `arguments` once (the program found on PATH) and returns what the launcher measured.
    func run(_ arguments: [String]) throws -> CommandRun {
        let process = Process()
        process.executableURL = URL(filePath: launcher)
        process.arguments = [outputFile, errorFile] + arguments
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let fields = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard process.terminationStatus == 0, fields.count == 3 else {
            throw BenchmarkFailure("the launcher failed to run \(arguments.joined(separator: " "))")
        }
        let output = (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? ""
        let errors = (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? ""
        return CommandRun(
            seconds: Double(fields[0]) / 1e9, peakKiB: fields[1], status: fields[2], output: output, errors: errors)
    }

    /// Runs `arguments` and fails unless it exits with 0.
    @discardableResult
    func succeed(_ arguments: [String]) throws -> CommandRun {
        let run = try run(arguments)
        guard run.status == 0 else {
            throw BenchmarkFailure(
                "`\(arguments.joined(separator: " "))` exited with \(run.status):\n\(run.errors.suffix(2_000))\(run.output.suffix(500))"
            )
        }
        return run
    }

    /// The measurements of commands taking turns: each runs once to warm the page cache
    /// (checked by its `check`, if given), then `runs` rounds run each once more, in an
    /// order that turns every round, so that a change in the machine's load falls on all of
    /// them alike; each gets the median of its runs. A command's `arguments` are asked for
    /// every run (0 the warm-up), so that each can differ (a new stroke to insert each time).
    func measure(runs: Int, _ commands: [MeasuredCommand]) throws -> [CommandMeasurement] {
        var measured = Array(repeating: [CommandRun](), count: commands.count)
        for round in 0...runs {
            for turn in 0..<commands.count {
                let index = (turn + round) % commands.count
                commands[index].prepare?()
                let run = try succeed(commands[index].arguments(round))
                try commands[index].check?(run)
                if round > 0 { measured[index].append(run) }
            }
        }
        return measured.map(CommandMeasurement.init)
    }
}

/// A command to measure, and what its output must be.
struct MeasuredCommand {
    var arguments: (Int) -> [String]
    var check: ((CommandRun) throws -> Void)?
    /// Done before every run, off the clock.
    var prepare: (() -> Void)?

    init(
        _ arguments: @escaping (Int) -> [String], check: ((CommandRun) throws -> Void)? = nil,
        prepare: (() -> Void)? = nil
    ) {
        self.arguments = arguments
        self.check = check
        self.prepare = prepare
    }

    init(_ arguments: [String], check: ((CommandRun) throws -> Void)? = nil, prepare: (() -> Void)? = nil) {
        self.init({ _ in arguments }, check: check, prepare: prepare)
    }
}
