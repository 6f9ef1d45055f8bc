import ArgumentParser
import FolioCore
import Foundation

/// The `folio` command: inspect, query and maintain Folio stores without writing Swift.
@main
struct FolioCommand: ParsableCommand {
    /// The author the store's history records for the tool's writes.
    static let author = "folio"

    static let configuration = CommandConfiguration(
        commandName: "folio",
        abstract: "Inspect, query and maintain Folio stores: git-friendly trees of JSON documents.",
        discussion: """
            A Folio store is a directory of one JSON document per model instance, laid out as \
            <Entity>/<YYYY>/<MM>/<DD>/<UUID>.json beside a folio.json manifest. Commands find the \
            store in --store PATH, else in the nearest folder upward holding folio.json.

            Example:
              folio tour                      a guided run over the example stores in Data/
              folio query FocusSession 'state == "completed"' --sort -startTime --limit 5

            \(Failure.helpText)
            """,
        version: folioVersion,
        subcommands: [
            Init.self, Info.self, List.self, Get.self, Query.self, Count.self, Aggregate.self,
            Insert.self, SetValues.self, Delete.self, Restore.self, Purge.self, Edit.self,
            Check.self, SchemaCommand.self, Migrate.self, Export.self, Import.self, Reindex.self, Tour.self,
            History.self, Log.self, Diff.self, Blame.self, Watch.self, GitSetup.self, MergeDriver.self, TextConv.self,
            Resolve.self, Sync.self,
        ]
    )

    /// Runs the command the arguments name, once each argument is found to be UTF-8: Swift
    /// reads arguments with invalid bytes as U+FFFD, which a value would have been stored
    /// with and a folder name would have named another folder.
    static func main() {
        for index in 1..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            refuseUnlessUTF8(argument) { offset, byte in
                " argument \(index) is not valid UTF-8 (byte \(offset) of it, 0x\(byte)); Folio stores and names only"
                    + " UTF-8 text, so nothing was done\nhint: give the value in UTF-8 (iconv -t UTF-8 converts it),"
                    + " or rename the folder with a UTF-8 name"
            }
        }
        // Relative paths are resolved against the current folder's path as text: one that is
        // not UTF-8 would resolve into its U+FFFD spelling, another folder.
        if let folder = getcwd(nil, 0) {
            defer { free(folder) }
            refuseUnlessUTF8(folder) { offset, _ in
                " the current folder's path is not valid UTF-8 (byte \(offset)), so no path relative to it can"
                    + " be named; nothing was done\nhint: run folio from a folder whose path is UTF-8, or rename it"
            }
        }
        run(Array(CommandLine.arguments.dropFirst()))
    }

    /// Runs the command `arguments` name, as Swift Argument Parser's `main` does, but for a
    /// help screen, which is shown wrapped and paged (`HelpScreen`), and a first argument that
    /// names no command, which gets the nearest command's name.
    static func run(_ arguments: [String]) -> Never {
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            Self.exit()
        } catch {
            if exitCode(for: error) == .success, !(error is ExitCode) {
                HelpScreen(text: fullMessage(for: error)).show()
                Self.exit()
            }
            if let first = arguments.first, let refusal = UnknownCommand(first, among: commandNames) {
                Terminal.printError(refusal.message)
                Self.exit(withError: ExitCode.validationFailure)
            }
            Self.exit(withError: error)
        }
    }

    /// The names of the commands, `help` among them.
    static var commandNames: [String] {
        configuration.subcommands.map { $0._commandName } + ["help"]
    }

    /// Ends the process as a usage error saying `problem` (given the offset of the first bad
    /// byte and that byte in hex) when `text` is not UTF-8.
    private static func refuseUnlessUTF8(
        _ text: UnsafePointer<CChar>, _ problem: (_ offset: Int, _ byte: String) -> TerminalText
    ) {
        let bytes = Array(UnsafeRawBufferPointer(start: text, count: strlen(text)))
        guard let offset = FileBytes.firstInvalidUTF8(in: bytes) else { return }
        Terminal.printError(
            Terminal.colour("error:", 31, onError: true)
                + problem(offset, String(bytes[offset], radix: 16, uppercase: true)))
        Self.exit(withError: ExitCode.validationFailure)
    }
}
