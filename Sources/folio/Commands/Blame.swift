import ArgumentParser
import FolioCore
import FolioJSON

extension FolioCommand {
    /// `folio blame`: for each property of a record, the commit that set its current value.
    struct Blame: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "blame",
            abstract: "Print, for each property of one record, the commit, author and date that set its current value.",
            discussion: """
                Reads the store's git repository (never writing to it). The current value is \
                the record's as committed (at HEAD, or at --revision), not an edit still \
                uncommitted. A value a merge combined from both sides is set by the merge.

                Example:
                  folio blame 0F6C1E2A
                  folio blame Timer/2026/11/22/0F6C1E2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B.json
                  folio blame 0F6C1E2A --format json

                \(Failure.commandHelpText)
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var output: OutputOptions

        @Argument(
            help: ArgumentHelp(
                "The record's id (a UUID, or its first 4 or more digits, as a table shows it), or its path in the store.",
                valueName: "id-or-path"))
        var record: String

        @Option(
            help: ArgumentHelp(
                "Blame the record as it is at this commit, branch or tag instead of HEAD.", valueName: "revision"))
        var revision: String?

        func run() throws {
            try Failure.reporting {
                let store = try self.store.open()
                let id = try RecordIdentity.id(record, in: store)
                let history = try RecordHistory(of: id, inStoreAt: store.root, from: revision)
                guard let newest = history.changes.first else {
                    throw FolioError(
                        .notFound,
                        "no commit up to \(history.head.prefix(7)) changed a record with the id \(id.uuidString)",
                        path: store.root, hint: "commit the record with git first, or check the id")
                }
                RecordHistoryWarnings.print(for: history)
                guard newest.kind != .purged else {
                    throw FolioError(
                        .notFound,
                        "the record \(id.uuidString) was purged in commit \(newest.commit.prefix(7)): it has no current values",
                        path: store.root, hint: "see its past with `folio log \(id.uuidString)`")
                }
                let table = output.format == .table
                let rows = history.blame().map { blame -> [JSONValue] in
                    let change = blame.change
                    return [
                        .string(blame.name), blame.blob?.cell(table: table) ?? blame.value,
                        change.map { .string(table ? String($0.commit.prefix(7)) : $0.commit) } ?? .null,
                        change.map { .string($0.authorName) } ?? .null, change.map { $0.date.json } ?? .null,
                        change.map { .string($0.subject) } ?? .null,
                    ]
                }
                try output.print(
                    columns: ["property", "value", "commit", "author", "date", "subject"], rows: rows,
                    localDates: LocalDates(columns: ["date"], in: store), ids: IDColumns(["value"], in: store))
            }
        }
    }
}
