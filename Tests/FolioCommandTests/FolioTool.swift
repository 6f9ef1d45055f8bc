import FolioTestSupport
import Foundation
import Testing

/// The built `folio` binary, run as a user runs it: arguments, a working folder, an
/// environment, and what it printed on each stream.
struct FolioTool {
    typealias Run = ProcessRun

    static var path: String {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        while !FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("folio").path),
            folder.path != "/"
        {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("folio").path
    }

    /// Whether the built tool is in a `.build` folder, as `swift build` leaves it unless
    /// given another scratch path: `folio git install` refuses to record such a path.
    static var isInBuildFolder: Bool { path.split(separator: "/").contains(".build") }

    /// A copy of the tool in `folder`, outside the build folder, as a person installs it
    /// (`folio git install` refuses a build folder's binary, which a rebuild replaces): a
    /// second link to the same file where the file system allows, else a copy. Returns `folder`.
    static func installed(in folder: String) throws -> String {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if link(path, folder + "/folio") != 0 {
            try FileManager.default.copyItem(atPath: path, toPath: folder + "/folio")
        }
        return folder
    }

    /// The folder commands run in.
    var folder: String
    var environment: [String: String] = [:]
    /// The program run: the built tool, or a link to it.
    var executable = FolioTool.path

    @discardableResult
    func callAsFunction(_ arguments: String..., input: String? = nil) throws -> Run {
        try run(arguments, input: input)
    }

    /// The tool with `$EDITOR` set to a shell script written into `folder` as `editor.sh`.
    func editing(with script: String, in folder: TemporaryDirectory) throws -> FolioTool {
        let path = try folder.create("editor.sh", contents: Array(("#!/bin/sh\n" + script + "\n").utf8))
        chmod(path, 0o755)
        var tool = self
        tool.environment = ["EDITOR": path, "VISUAL": ""]
        return tool
    }

    /// Runs the tool; past `timeout` seconds it is killed and the run says it `timedOut`.
    func run(_ arguments: [String], input: String? = nil, timeout: Double? = nil) throws -> Run {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = nil
        environment["COLUMNS"] = nil  // tables and help as a pipe gets them, unless a test sets a width
        environment.merge(self.environment) { $1 }
        return try ProcessRun(
            executable, arguments, in: folder, environment: environment, input: input, timeout: timeout)
    }

    /// Every command and the options it takes a value for, as the tool's own help dump lists them.
    static func optionsByCommand() throws -> [(command: [String], options: [String])] {
        let dump = try FolioTool(folder: FileManager.default.currentDirectoryPath)("--experimental-dump-help")
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(dump.output.utf8)) as? [String: Any])
        var found: [(command: [String], options: [String])] = []
        func walk(_ command: [String: Any], path: [String]) {
            let arguments = command["arguments"] as? [[String: Any]] ?? []
            let options = arguments.filter { $0["kind"] as? String == "option" }.compactMap { argument in
                (argument["names"] as? [[String: Any]])?.first { $0["kind"] as? String == "long" }?["name"] as? String
            }
            found.append((path, options))
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                walk(sub, path: path + [sub["commandName"] as? String ?? ""])
            }
        }
        walk(try #require(root["command"] as? [String: Any]), path: [])
        return found.filter { !$0.command.isEmpty }
    }
}
