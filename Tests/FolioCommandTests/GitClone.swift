import FolioTestSupport
import Foundation

/// Real git in a folder, with none of the machine's or user's configuration (no system
/// file, a home of its own, a fixed identity), as `GitScratchRepository` in FolioTests.
struct GitClone {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    typealias Run = ProcessRun

    /// The work tree.
    let path: String
    /// The environment git, and the tool it runs as a driver, get.
    let environment: [String: String]

    /// An environment for git whose configuration lives in `home` only, with `bin` first
    /// on its PATH when given (where a test installs the tool).
    static func environment(home: String, bin: String? = nil) -> [String: String] {
        [
            "PATH": (bin.map { $0 + ":" } ?? "") + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "HOME": home,
            "XDG_CONFIG_HOME": home + "/.config",
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": home + "/.gitconfig",
            "LC_ALL": "C",
            "GIT_AUTHOR_NAME": "Folio Tests", "GIT_AUTHOR_EMAIL": "tests@folio.invalid",
            "GIT_COMMITTER_NAME": "Folio Tests", "GIT_COMMITTER_EMAIL": "tests@folio.invalid",
            "GIT_AUTHOR_DATE": "2026-11-22T09:30:00Z", "GIT_COMMITTER_DATE": "2026-11-22T09:30:00Z",
        ]
    }

    /// Runs git in the work tree, whatever its exit status.
    @discardableResult
    func run(_ arguments: String...) throws -> Run { try run(arguments) }

    func run(_ arguments: [String]) throws -> Run {
        try ProcessRun("/usr/bin/env", ["git"] + arguments, in: path, environment: environment)
    }

    /// Runs git and returns its output; throws when it fails.
    @discardableResult
    func git(_ arguments: String...) throws -> String {
        let run = try run(arguments)
        guard run.status == 0 else {
            throw Failure(
                description:
                    "git \(arguments.joined(separator: " ")) in \(path) exited with \(run.status): \(run.errors)")
        }
        return run.output
    }

    /// The files git marks unmerged after a merge stopped on conflicts.
    func unmergedFiles() throws -> [String] {
        try git("diff", "--name-only", "--diff-filter=U").split(separator: "\n").map(String.init)
    }
}
