import Folio
import Foundation

/// Runs `git` for the commands that work with the repository holding a store, and
/// reports what it printed.
struct Git {
    /// What a git command did.
    struct Run {
        var status: Int32
        var output: String
        var errors: String
        var succeeded: Bool { status == 0 }
    }

    /// The folder git runs in.
    var folder: String

    /// Runs git with these arguments, whatever its exit status.
    @discardableResult
    func run(_ arguments: [String]) throws(FolioError) -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        // git may print a document's lines: its streams go to a folder only this user can read.
        let scratch = try ScratchFolder(purpose: "git")
        defer { scratch.remove() }
        let (outputFile, errorFile) = (scratch.url.appending(path: "out"), scratch.url.appending(path: "err"))
        do {
            // Streams go to files, so neither can fill a pipe and stall git.
            _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
            _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: outputFile)
            process.standardError = try FileHandle(forWritingTo: errorFile)
            process.standardInput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return Run(
                status: process.terminationStatus,
                output: String(decoding: try Data(contentsOf: outputFile), as: UTF8.self),
                errors: String(decoding: try Data(contentsOf: errorFile), as: UTF8.self))
        } catch {
            throw .externalProgram("could not run git in \(folder): \(error.localizedDescription); is git installed?")
        }
    }

    /// Runs git and returns its output, trimmed; throws with git's message when it fails.
    @discardableResult
    func checked(_ arguments: String...) throws(FolioError) -> String {
        let run = try run(arguments)
        guard run.succeeded else {
            throw .externalProgram(
                "git \(arguments.joined(separator: " ")) failed (exit \(run.status)): \(run.errors.trimmingCharacters(in: .whitespacesAndNewlines))"
            )
        }
        return run.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The top folder of the work tree holding `folder`; throws when it is in none.
    func topLevel() throws(FolioError) -> String {
        let run = try run(["rev-parse", "--show-toplevel"])
        guard run.succeeded else {
            throw .invalidInput("\(folder) is not inside a git repository; run `git init` there (or clone one) first")
        }
        return run.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// This program's absolute path, for the commands git runs.
    static var executable: String {
        URL(fileURLWithPath: Bundle.main.executableURL?.path ?? CommandLine.arguments[0]).resolvingSymlinksInPath().path
    }

    /// The `folio` a clone's configuration should run: the one on `PATH` when it is this
    /// same program (a place that stays), else this binary, with a warning when it sits in a
    /// build folder, which a clean or a rebuild in another mode takes away.
    static var installable: (path: String, warning: String?) {
        let running = executable
        let onPath = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").lazy
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent("folio").resolvingSymlinksInPath().path }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
        if let onPath, onPath == running || FileManager.default.contentsEqual(atPath: onPath, andPath: running) {
            return (onPath, nil)
        }
        guard running.contains("/.build/") else { return (running, nil) }
        return (
            running,
            "warning: \(running) is in a build folder, which `swift package clean` or a rebuild removes, and git would then find no merge driver; copy a release build onto your PATH (install -m 755 .build/release/folio /usr/local/bin/) and run `folio git install` again"
        )
    }

    /// A word quoted for the shell git runs drivers with.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
