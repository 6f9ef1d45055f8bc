import Foundation
import Testing

/// The `StoreWorkload` executable built beside the tests, run as a child process.
struct ChildProcess {
    static var workloadPath: String {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = testBinary.deletingLastPathComponent()
        // The test binary may be inside a bundle folder (`*.xctest/...`); the executable sits beside the bundle.
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("StoreWorkload").path),
            folder.path != "/"
        {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("StoreWorkload").path
    }

    let process = Process()
    let output = Pipe()
    let errors = Pipe()

    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: Self.workloadPath)
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Waits for the process to exit; returns its status and what it printed.
    func finish() -> (status: Int32, output: String, errors: String) {
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}
