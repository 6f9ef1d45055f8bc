import ArgumentParser
import FolioCore
import FolioJSON
import Foundation

extension QueryAggregate.Function: ExpressibleByArgument {}

extension FolioCommand {
    /// `folio aggregate`: counts, sums, extremes and means, optionally per group.
    struct Aggregate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "aggregate",
            abstract: "Summarize an entity's documents: count, sum, min, max or average, per group.",
            discussion: """
                Example:
                  folio aggregate FocusSession count --group-by state
                  folio aggregate FocusSession sum --of 'duration / 60' --where 'duration > 0'

                \(Failure.commandHelpText)
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var past: RevisionOption
        @OptionGroup var output: OutputOptions

        @Argument(help: "The entity.")
        var entity: String

        @Argument(help: "count, sum, min, max or average.")
        var function: QueryAggregate.Function

        @Option(
            help: ArgumentHelp(
                "The value summarized: a property or an expression (not for count).", valueName: "expression"))
        var of: String?

        @Option(
            name: .customLong("where"),
            help: ArgumentHelp("Only the documents that match this query.", valueName: "query"))
        var filter: String?

        @Option(help: ArgumentHelp("Group by these properties or expressions, comma-separated.", valueName: "keys"))
        var groupBy: String?

        @Flag(help: "Include soft-deleted documents.")
        var includeDeleted = false

        func run() throws {
            try Failure.reporting {
                // One question, then the process ends: answered from the cache file when it can be.
                let store = try past.open(store, reads: .oneCommand)
                if function != .count, of == nil {
                    throw FolioError.invalidInput("\(function) needs a value: add --of <property or expression>")
                }
                let value = try of.map { text throws(FolioError) in try store.parseQuery(text, entity: entity) }
                let filter = try filter.map { text throws(FolioError) in try store.parseQuery(text, entity: entity) }
                let groups = (groupBy ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                let keys = try groups.map { text throws(FolioError) in try store.parseQuery(text, entity: entity) }
                let rows = try store.aggregate(
                    DocumentQuery(entity: entity, filter: filter, includeDeleted: includeDeleted),
                    QueryAggregate(function, of: value), groupedBy: keys)
                let name = of.map { "\(function)(\($0))" } ?? "count"
                try output.print(
                    columns: groups + (function == .count ? ["count"] : [name, "documents"]),
                    rows: rows.map { row in
                        row.group.map(\.json)
                            + (function == .count
                                ? [.integer(Int64(row.count))] : [row.value.json, .integer(Int64(row.count))])
                    }, ids: IDColumns(entity: entity, in: store))
                try LeftOutDocuments.report(entity, in: store)
            }
        }
    }
}
