import ArgumentParser
import FolioCore
import FolioJSON
import Foundation

extension FolioCommand {
    /// `folio history`: the store's transactions, a change per row.
    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "history", abstract: "Print the store's history: who changed which documents, when.",
            discussion: """
                Every save of an app, every write of this tool (author folio) and every change \
                found on disk that no save explains (a hand edit, git pull: author external) is a \
                transaction, kept in .folio/history/ (local to this copy of the store, like the \
                history of an app's SwiftData store). One row per changed document: the \
                transaction's token, time and author, and insert, update (with the attributes \
                that changed) or delete.

                Keep the last token you saw and pass it to --since to see only what came after.

                Example:
                  folio history --since 41 --author external
                  folio history --format ndjson | jq 'select(.change == "delete")'

                \(Failure.commandHelpText)
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var output: OutputOptions

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Only transactions after this token (0 or more).", valueName: "token"),
            transform: NumberOption.whole(from: 0))
        var since: Int64 = 0

        @Option(help: ArgumentHelp("Only transactions by this author (repeat for several).", valueName: "name"))
        var author: [String] = []

        @Option(help: ArgumentHelp("Only changes to documents of this entity.", valueName: "entity"))
        var entity: String?

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Only the last this many transactions (0 or more).", valueName: "count"),
            transform: NumberOption.whole(from: 0))
        var limit: Int?

        func run() throws {
            try Failure.reporting {
                let store = try self.store.open()
                let setAsideAtOpen = store.setAsideHistories
                let (records, reachesBack) = try store.history(after: min(since, Int64.max - 1))
                let setAside = store.setAsideHistories
                for folder in setAside where !setAsideAtOpen.contains(folder) {
                    StoreOptions.warnOfSetAsideHistory(folder)
                }
                if since > 0, !reachesBack {
                    throw FolioError(
                        .historyTokenExpired, "the history after transaction \(since) was deleted",
                        path: store.root, hint: "run folio history without --since to see what is kept")
                }
                var selected = records.filter {
                    $0.token > since && (author.isEmpty || author.contains($0.author ?? ""))
                }
                if let limit { selected = Array(selected.suffix(limit)) }
                var rows: [[JSONValue]] = []
                for record in selected {
                    for change in record.changes where entity.map({ $0 == change.entity }) ?? true {
                        rows.append([
                            .integer(record.token), record.timestamp.json, record.author.map(JSONValue.string) ?? .null,
                            .string(change.kind.rawValue), .string(change.entity), .string(change.id.uuidString),
                            .string(change.path), .array(change.attributes.map(JSONValue.string)),
                        ])
                    }
                }
                try output.print(
                    columns: ["token", "timestamp", "author", "change", "entity", "id", "path", "attributes"],
                    rows: rows, ids: IDColumns(["id"], in: store))
                // The tokens a reader kept name the history that was set aside: it must start over.
                if !setAside.isEmpty { throw ExitCode(Failure.Code.damagedHistory.rawValue) }
            }
        }
    }
}
