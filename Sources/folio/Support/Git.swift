import FolioCore
import Foundation
import Glibc

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

    /// Runs git with these arguments, whatever its exit status (a signal's death counts as 128
    /// and the signal, as a shell counts it).
    ///
    /// Git runs in the terminal's foreground, as the programs `git pull` itself runs do: what
    /// asks on the terminal (git for a user name or password, ssh for a passphrase or a new
    /// host's key) gets its answer there rather than stopping as a background job, and ^C ends
    /// git and the tool together. What git prints to its output and error goes to files;
    /// with `showingMeters`, the meters of a git asked for them (`GitProgress.option`) are
    /// copied from there to the tool's error stream as they come, and left out of `errors`.
    @discardableResult
    func run(_ arguments: [String], showingMeters: Bool = false) throws(FolioError) -> Run {
        // git may print a document's lines: its streams go to files made in a folder only this
        // user can read, and removed from it at once, so no end of the tool (a ^C) leaves them.
        // Files, not pipes: neither can fill and stall git.
        let scratch = try ScratchFolder(purpose: "git")
        func created(_ name: String) throws(FolioError) -> Int32 {
            let descriptor = open(scratch.path(of: name), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                throw .fileSystem(
                    path: scratch.path(of: name), operation: "make a file for git's output",
                    reason: FileBytes.systemError())
            }
            return descriptor
        }
        let streams: (output: Int32, errors: Int32)
        do {
            defer { scratch.remove() }
            let output = try created("out")
            do { streams = (output, try created("err")) } catch {
                close(output)
                throw error
            }
        }
        defer {
            close(streams.output)
            close(streams.errors)
        }
        let git = ForegroundChild(
            arguments: ["git"] + arguments, folder: folder, input: .nothing, output: .descriptor(streams.output),
            errors: .descriptor(streams.errors))
        let echo = showingMeters ? GitProgress.Echo(descriptor: streams.errors) : nil
        let ending: ForegroundChild.Ending
        do {
            defer { echo?.stop() }
            ending = try git.run()
        } catch {
            throw .externalProgram("could not \(error.operation) git in \(folder): \(error.reason); is git installed?")
        }
        let status =
            switch ending {
            case .exited(let status): status
            case .signalled(let signal): 128 + signal
            }
        let errors = try Self.text(of: streams.errors)
        return Run(
            status: status, output: try Self.text(of: streams.output),
            errors: showingMeters ? GitProgress.withoutMeters(errors) : errors)
    }

    /// What git wrote to a file it shares with the tool, from its start, as text.
    private static func text(of descriptor: Int32) throws(FolioError) -> String {
        String(decoding: try GitProcess.bytes(writtenTo: descriptor), as: UTF8.self)
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

    /// The folder's path from the top of its work tree, ending in `/` ("" at the top), as
    /// git names it (through any link on the way).
    func storePrefix() throws(FolioError) -> String {
        let run = try run(["rev-parse", "--show-prefix"])
        guard run.succeeded else {
            throw .externalProgram("git rev-parse --show-prefix failed in \(folder): \(run.errors)")
        }
        return run.output.trimmingCharacters(in: .newlines)
    }

    /// This program's absolute path, for the commands git runs.
    static var executable: String {
        URL(fileURLWithPath: Bundle.main.executableURL?.path ?? CommandLine.arguments[0]).resolvingSymlinksInPath().path
    }

    /// The `folio` a clone's configuration should run: the one on `PATH` when it is this
    /// same program (a place that stays), else this binary, each with its links resolved,
    /// and never one in a build folder, however it is reached (a link on `PATH` into
    /// `.build` too): `swift package clean` or the next build replaces or removes it, and git
    /// would then find no merge driver, or run a stale one. When both are in one, it throws.
    static func installable() throws(FolioError) -> String {
        let onPath = Installation.onPath.flatMap { Installation.isThisProgram($0.resolved) ? $0.resolved : nil }
        let candidates = [onPath, executable].compactMap { $0 }
        if let lasting = candidates.first(where: { Installation.buildFolder(of: $0) == nil }) { return lasting }
        throw FolioError(
            .invalidInput,
            "is in a build folder, which `swift package clean` or the next build replaces or removes, and git would then find no merge driver; `folio git install` changed nothing",
            path: candidates[0],
            hint:
                "put a release build of folio on your PATH, somewhere that stays, then run `folio git install` again:\n  "
                + Installation.command())
    }

    /// A word quoted for the shell git runs drivers with.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
