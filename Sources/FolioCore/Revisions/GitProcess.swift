import CFolioSystem
import Foundation
import Glibc

/// One run of `git` that reads a repository: an argument vector (no shell), standard input
/// from bytes, and what git printed on each stream.
///
/// Git runs with `GIT_OPTIONAL_LOCKS=0`, so the reading commands skip the writes git
/// makes when it may (an index refresh), and `GIT_TERMINAL_PROMPT=0`, so it never waits for
/// an answer on a terminal. Its streams go to files in a folder only this user can read,
/// removed at once: neither can fill and stall git, as a pipe could.
package struct GitProcess {
    /// How the run ended, and what git printed.
    struct Ending {
        /// The exit status; a death by a signal counts as 128 and the signal, as a shell counts it.
        var status: Int32
        /// What git wrote to its standard output.
        var output: [UInt8]
        /// What git wrote to its standard error, as text.
        var errors: String
        /// Whether git exited with status 0.
        var succeeded: Bool { status == 0 }
    }

    /// git's arguments, after `git` itself.
    var arguments: [String]
    /// The folder git runs in.
    var folder: String
    /// What git reads on its standard input.
    var input: [UInt8] = []

    /// The environment git runs with: this process's, with the two settings above, and
    /// without the variables that change how git reads a pathspec (`GIT_LITERAL_PATHSPECS=1`
    /// would read `:(glob)**/<UUID>.json` as a file of that name, and find nothing).
    static func environment() -> [String] {
        let own = [
            "GIT_OPTIONAL_LOCKS", "GIT_TERMINAL_PROMPT", "GIT_LITERAL_PATHSPECS", "GIT_GLOB_PATHSPECS",
            "GIT_NOGLOB_PATHSPECS", "GIT_ICASE_PATHSPECS",
        ]
        var entries = ProcessInfo.processInfo.environment.filter { !own.contains($0.key) }.map {
            $0.key + "=" + $0.value
        }
        entries += ["GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0"]
        return entries
    }

    /// Runs git and waits for it to end.
    func run() throws(FolioError) -> Ending {
        let scratch = try ScratchFolder(purpose: "git")
        defer { scratch.remove() }
        func opened(_ name: String) throws(FolioError) -> Int32 {
            let descriptor = open(scratch.path(of: name), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                throw .fileSystem(
                    path: scratch.path(of: name), operation: "make a file for git", reason: FileBytes.systemError())
            }
            return descriptor
        }
        let streams = [try opened("in"), try opened("out"), try opened("err")]
        defer { for descriptor in streams where descriptor >= 0 { close(descriptor) } }
        try write(input, to: streams[0])

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var code: Int32 = 0
        for (number, descriptor) in zip([STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO], streams) where code == 0 {
            code = posix_spawn_file_actions_adddup2(&actions, descriptor, number)
        }
        if code == 0 { code = folio_spawn_add_chdir(&actions, folder) }
        if code == 0 { code = folio_spawn_add_closefrom(&actions, STDERR_FILENO + 1) }
        let argv = (["git"] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let environment = Self.environment().map { strdup($0) } + [nil]
        defer { for entry in environment { free(entry) } }
        var child: pid_t = 0
        if code == 0 { code = posix_spawnp(&child, "git", &actions, nil, argv, environment) }
        guard code == 0 else {
            throw .externalProgram(
                "could not start git in \(folder): \(String(cString: strerror(code))); is git installed and on PATH?")
        }
        var status: Int32 = 0
        while waitpid(child, &status, 0) == -1 {
            guard errno == EINTR else {
                throw .externalProgram("could not wait for git in \(folder): \(String(cString: strerror(errno)))")
            }
        }
        let signal = status & 0x7F
        return Ending(
            status: signal == 0 ? (status >> 8) & 0xFF : 128 + signal, output: try Self.bytes(writtenTo: streams[1]),
            errors: String(decoding: try Self.bytes(writtenTo: streams[2]), as: UTF8.self))
    }

    /// Writes all of `bytes` at the start of a file and goes back to its start for git.
    private func write(_ bytes: [UInt8], to descriptor: Int32) throws(FolioError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                pwrite(descriptor, $0.baseAddress! + offset, $0.count - offset, off_t(offset))
            }
            guard written > 0 else {
                if written < 0, errno == EINTR { continue }
                throw .fileSystem(path: "git's input", operation: "write", reason: FileBytes.systemError())
            }
            offset += written
        }
    }

    /// What git wrote to a file it shares with this process, from its start (the `folio`
    /// tool's runs of git read theirs so too).
    package static func bytes(writtenTo descriptor: Int32) throws(FolioError) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var offset: off_t = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            if count == 0 { break }
            guard count > 0 else {
                if errno == EINTR { continue }
                throw .fileSystem(path: "git's output", operation: "read", reason: FileBytes.systemError())
            }
            bytes += buffer[..<count]
            offset += off_t(count)
        }
        return bytes
    }
}
