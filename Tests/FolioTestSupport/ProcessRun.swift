import Foundation
import Synchronization

/// A program run to its end as a child process: its exit status and what it printed on
/// each stream. The tests run the `folio` binary and git this way.
public struct ProcessRun: Sendable {
    public var status: Int32
    public var output: String
    public var errors: String
    /// Whether the program was killed for running past the time it was given.
    public var timedOut = false

    /// Runs `executable` in `folder` with exactly `environment`, feeding it `input` (or
    /// nothing), and waits for it, killing it (`SIGKILL`) after `timeout` seconds if given.
    /// The streams go to files, so neither can fill a pipe and stall the child.
    public init(
        _ executable: String, _ arguments: [String], in folder: String, environment: [String: String],
        input: String? = nil, timeout: Double? = nil
    ) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.environment = environment
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("folio-run-\(UUID().uuidString)")
        let (outputFile, errorFile, inputFile) = (
            scratch.appendingPathExtension("out"), scratch.appendingPathExtension("err"),
            scratch.appendingPathExtension("in")
        )
        defer {
            for file in [outputFile, errorFile, inputFile] { try? FileManager.default.removeItem(at: file) }
        }
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        if let input {
            try Data(input.utf8).write(to: inputFile)
            process.standardInput = try FileHandle(forReadingFrom: inputFile)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        try process.run()
        let killed = Mutex(false)
        if let timeout {
            let pid = process.processIdentifier
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [process] in
                guard process.isRunning else { return }
                killed.withLock { $0 = true }
                kill(pid, SIGKILL)
            }
        }
        process.waitUntilExit()
        timedOut = killed.withLock { $0 }
        status = process.terminationStatus
        output = String(decoding: try Data(contentsOf: outputFile), as: UTF8.self)
        errors = String(decoding: try Data(contentsOf: errorFile), as: UTF8.self)
    }
}
