import Foundation

/// A git repository in a temporary folder, run with none of the machine's or user's
/// configuration: no system file, a home folder of its own, an environment holding only
/// `PATH`, so nothing (`diff.noprefix`, `color.ui`, `core.quotePath`, aliases, ...) can
/// change what git prints.
public final class GitScratchRepository {
    /// Git failed, with what it said.
    public struct Failure: Error, CustomStringConvertible {
        /// The command and git's message.
        public let description: String
    }

    private let folder: TemporaryDirectory
    /// The work tree's path.
    public let path: String
    private let environment: [String: String]

    /// A new empty repository, configured only in its own `.git/config`.
    public init() throws {
        folder = try TemporaryDirectory()
        path = folder("repository")
        let home = folder("home")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": home,
            "XDG_CONFIG_HOME": home + "/.config",
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": home + "/.gitconfig",
            "LC_ALL": "C",
            // Fixed dates make commit ids, and so the abbreviations git shows, the same on every run.
            "GIT_AUTHOR_DATE": "2026-11-22T09:30:00Z",
            "GIT_COMMITTER_DATE": "2026-11-22T09:30:00Z",
        ]
        try git("init", "-q", ".")
        try git("config", "user.name", "Folio Tests")
        try git("config", "user.email", "tests@folio.invalid")
        try git("config", "core.autocrlf", "false")
        try git("config", "commit.gpgsign", "false")
        let origins = String(decoding: try git("config", "--list", "--show-origin"), as: UTF8.self)
        for line in origins.split(separator: "\n") where !line.hasPrefix("file:.git/config\t") {
            throw Failure(description: "git reads configuration from outside the repository: \(line)")
        }
    }

    /// Runs git in the work tree and returns what it printed; throws if it fails.
    @discardableResult
    public func git(_ arguments: String...) throws -> [UInt8] { try git(arguments) }

    /// Runs git in the work tree with the arguments as an array; throws if it fails.
    @discardableResult
    public func git(_ arguments: [String]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: path)
        process.environment = environment
        let output = Pipe()
        let errorLog = folder("git-errors.txt")
        _ = FileManager.default.createFile(atPath: errorLog, contents: nil)
        let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: errorLog))
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try errors.close()
        guard process.terminationStatus == 0 else {
            let message = (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? ""
            throw Failure(
                description:
                    "git \(arguments.joined(separator: " ")) exited with \(process.terminationStatus): \(message)")
        }
        return [UInt8](printed)
    }

    /// Writes a file in the work tree, creating its folders.
    public func write(_ relativePath: String, _ bytes: [UInt8]) throws {
        let url = URL(fileURLWithPath: path).appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    /// Removes a file from the work tree.
    public func remove(_ relativePath: String) throws {
        try FileManager.default.removeItem(atPath: path + "/" + relativePath)
    }

    /// Commits everything in the work tree.
    public func commitAll(_ message: String = "state") throws {
        try git("add", "-A")
        try git("commit", "-q", "--allow-empty", "-m", message)
    }
}
