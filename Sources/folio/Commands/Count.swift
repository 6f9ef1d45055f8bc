import ArgumentParser
import FolioCore

extension FolioCommand {
    /// `folio count`: how many documents match.
    struct Count: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "count", abstract: "Count the documents of an entity that match a query.",
            discussion: """
                Example:
                  folio count FocusSession 'state == "abandoned"'

                \(Failure.commandHelpText)
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var past: RevisionOption
        @OptionGroup var query: QueryOptions

        @Flag(help: "Say how the count ran on standard error.")
        var explain = false

        func run() throws {
            try Failure.reporting {
                // One question, then the process ends: answered from the cache file when it can be.
                let store = try past.open(store, reads: .oneCommand)
                let result = try store.query(try query.documentQuery(in: store, limit: 0))
                Terminal.print("\(result.total)")
                if explain {
                    Terminal.printError(
                        "plan: \(lines: result.explanation.description.replacingOccurrences(of: "\n", with: "\n      "))"
                    )
                }
                ScanNote.report(result.explanation)
                try LeftOutDocuments.report(query.entity, in: store)
            }
        }
    }
}
