import ArgumentParser
import FolioCore
import Foundation

extension FolioCommand {
    /// `folio delete`: soft deletes, following the delete rules.
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Soft-delete documents (and what their cascade rules reach); restore brings them back.",
            discussion: """
                The files stay, marked with "$deleted"; queries and apps no longer see them. \
                `folio purge` removes them for good. A deny rule with related documents refuses.

                Example:
                  folio delete Timer 'name == "Coffee Break"'
                  folio delete 0F6C1E2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B

                \(Failure.commandHelpText)
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var target: DocumentTarget

        func run() throws {
            try Failure.reporting {
                let store = try store.open()
                let documents = try target.documents(in: store, includeDeleted: false)
                let changes = try store.softDeletion(of: documents)
                try store.commit(changes, author: FolioCommand.author)
                let cascaded = changes.count - documents.count
                Terminal.print(
                    changes.isEmpty
                        ? "No document matched; nothing deleted"
                        : "\(counted(changes.count, "document")) deleted (\(cascaded) by cascade); `folio restore` brings \(changes.count == 1 ? "it" : "them") back"
                )
            }
        }
    }

    /// `folio purge`: removes soft-deleted documents for good.
    struct Purge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "purge", abstract: "Remove the files of soft-deleted documents for good.",
            discussion: """
                Example:
                  folio purge --before 2026-10-01

                \(Failure.commandHelpText)
                """)

        @OptionGroup var store: StoreOptions

        @Option(
            help: ArgumentHelp(
                "Only those deleted before this day (in the store's time zone) or time.", valueName: "day"))
        var before: String?

        func run() throws {
            try Failure.reporting {
                let store = try store.open()
                var moment = Date()
                if let before {
                    guard
                        case .value(.date(let date)) = try QueryExpression(
                            parsing: "@" + before, timeZone: store.manifest.timeZone)
                    else {
                        throw FolioError.invalidInput("--before \(before) is not a day like 2026-10-01")
                    }
                    moment = date
                }
                let changes = store.purging(deletedBefore: moment)
                let summary = try store.commit(changes, author: FolioCommand.author)
                Terminal.print(
                    "\(counted(summary.deleted, "document")) purged"
                        + (summary.written > 0
                            ? "; references to them removed from \(counted(summary.written, "document"))" : ""))
            }
        }
    }
}
