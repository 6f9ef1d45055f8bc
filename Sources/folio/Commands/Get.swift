import ArgumentParser
import FolioCore
import FolioJSON

extension FolioCommand {
    /// `folio get`: one document as it is on disk.
    struct Get: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "get", abstract: "Print one document, by its id or its path.",
            discussion: """
                Example:
                  folio get 0F6C1E2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B
                  folio get 0F6C1E2A                 the start of its id, as tables show it
                  folio get 0F6C1E2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B --format ndjson
                  folio get 0F6C1E2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B --revision

                \(Failure.commandHelpText)
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var past: RevisionOption

        @Argument(
            help: ArgumentHelp(
                "The document's id (a UUID, or its first 4 or more digits, as a table shows it), or its path in the store.",
                valueName: "id-or-path"))
        var document: String

        @Option(help: "json (as on disk) or ndjson (one line).")
        var format: DocumentFormat = .json

        @Flag(
            help: "Print the document's revision instead: the git blob id of its file, for `folio set --if-unchanged`.")
        var revision = false

        func run() throws {
            try Failure.reporting {
                let store = try past.open(store)
                guard let found = try DocumentTarget.document(document, in: store) else {
                    throw FolioError.invalidInput(
                        "\(document) is neither a document's id (a UUID, or its first 4 or more digits) nor a document path like Timer/2026/11/22/<UUID>.json"
                    )
                }
                if revision {
                    Terminal.printExact(try store.revision(of: found))
                    return
                }
                let value = FolioJSON.JSONValue.object(found.content)
                Terminal.printExact(format == .ndjson ? try RecordPrinter.line(value) : try RecordPrinter.text(value))
            }
        }
    }
}
