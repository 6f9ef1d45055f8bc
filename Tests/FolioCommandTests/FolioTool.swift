import FolioTestSupport
import Foundation

/// The built `folio` binary, run as a user runs it: arguments, a working folder, an
/// environment, and what it printed on each stream.
struct FolioTool {
    struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    static var path: String {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        while !FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("folio").path), folder.path != "/" {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("folio").path
    }

    /// The folder commands run in.
    var folder: String
    var environment: [String: String] = [:]

    @discardableResult
    func callAsFunction(_ arguments: String..., input: String? = nil) throws -> Run {
        try run(arguments, input: input)
    }

    func run(_ arguments: [String], input: String? = nil) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.path)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = nil
        environment.merge(self.environment) { $1 }
        process.environment = environment
        // Streams go to files, so neither can fill a pipe and stall the child.
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("folio-out-\(UUID().uuidString)")
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("folio-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outputFile)
            try? FileManager.default.removeItem(at: errorFile)
        }
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        if let input {
            let inputFile = FileManager.default.temporaryDirectory.appendingPathComponent("folio-in-\(UUID().uuidString)")
            try Data(input.utf8).write(to: inputFile)
            defer { try? FileManager.default.removeItem(at: inputFile) }
            process.standardInput = try FileHandle(forReadingFrom: inputFile)
            try process.run()
        } else {
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus,
            output: String(decoding: try Data(contentsOf: outputFile), as: UTF8.self),
            errors: String(decoding: try Data(contentsOf: errorFile), as: UTF8.self))
    }
}
