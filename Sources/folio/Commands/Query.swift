import ArgumentParser
import FolioCore
import FolioJSON
import Foundation

/// A query as the command line spells it: an entity, a filter in the text language, and
/// the options every reading command shares.
struct QueryOptions: ParsableArguments {
    @Argument(help: "The entity to query, as the models name it (FocusSession).")
    var entity: String

    @Argument(
        help: ArgumentHelp(
            "The filter, in Folio's query language (state == \"completed\" && duration > 60); all documents when left out.",
            valueName: "query"))
    var query: String?

    @Flag(help: "Include soft-deleted documents.")
    var includeDeleted = false

    /// The query, parsed and checked against the store's schema.
    func documentQuery(in store: DocumentStore, sort: [String] = [], offset: Int = 0, limit: Int? = nil)
        throws(FolioError) -> DocumentQuery
    {
        let filter = try query.map { text throws(FolioError) in try store.parseQuery(text, entity: entity) }
        var keys: [DocumentQuery.SortKey] = []
        for key in sort.flatMap({ $0.split(separator: ",") }) {
            let descending = key.hasPrefix("-")
            let text = key.drop { $0 == "-" || $0 == "+" || $0 == " " }
            keys.append(
                DocumentQuery.SortKey(try store.parseQuery(String(text), entity: entity), ascending: !descending))
        }
        if filter == nil { _ = try store.parseQuery("true", entity: entity) }
        // A page that ends past the largest Int holds what one that ends there does; the query adds the two.
        let limit = limit.map { min($0, Int.max - max(offset, 0)) }
        return DocumentQuery(
            entity: entity, filter: filter, sort: keys, offset: offset, limit: limit, includeDeleted: includeDeleted)
    }
}

extension FolioCommand {
    /// `folio query`: documents that match a query.
    struct Query: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "query", abstract: "Print the documents of an entity that match a query.",
            discussion: """
                The query language reads like Swift: == != < <= > >= && || !, + - * / %, ?? for \
                a default, "text", numbers, true/false/nil, @2026-11-01 for a day, and \
                relationships with .name, .count, .any(done), .all(done); inside, bare names are the element's. \
                See docs/queries.md.

                Example:
                  folio query FocusSession 'startTime >= @2026-06-01' --sort -startTime
                  folio query Timer 'todoItems.any(!isCompleted)' --fields name --explain

                \(Failure.commandHelpText)
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var past: RevisionOption
        @OptionGroup var query: QueryOptions
        @OptionGroup var output: OutputOptions

        @Option(
            parsing: .unconditionalSingleValue,
            help: ArgumentHelp(
                "Order by these properties or expressions, comma-separated; - in front for descending.",
                valueName: "keys"))
        var sort: [String] = []

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("At most this many documents (0 or more).", valueName: "count"),
            transform: NumberOption.whole(from: 0))
        var limit: Int?

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Skip this many documents first (0 or more).", valueName: "count"),
            transform: NumberOption.whole(from: 0))
        var offset = 0

        @Option(
            help: ArgumentHelp("The columns to show, comma-separated (properties, id, path, day).", valueName: "names"))
        var fields: String?

        @Flag(help: "Say how the query ran (the index or days it read, documents examined) on standard error.")
        var explain = false

        func run() throws {
            try Failure.reporting {
                // One question, then the process ends: answered from the cache file when it can be.
                let store = try past.open(store, reads: .oneCommand)
                let documentQuery = try query.documentQuery(in: store, sort: sort, offset: offset, limit: limit)
                let result = try store.query(documentQuery)
                let documents = result.matches.compactMap(\.stored)
                if let fields {
                    let columns = fields.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                    try RecordPrinter.checkFields(columns, entity: query.entity, in: store)
                    try output.print(
                        columns: columns,
                        rows: documents.map { document in columns.map { Field.value(of: $0, in: document) } },
                        localDates: LocalDates(entity: query.entity, in: store),
                        ids: IDColumns(entity: query.entity, in: store), choosable: true)
                } else {
                    try output.print(
                        documents: documents, columns: Field.defaults(for: query.entity, in: store),
                        localDates: LocalDates(entity: query.entity, in: store),
                        ids: IDColumns(entity: query.entity, in: store), choosable: true)
                }
                if explain {
                    Terminal.printError(
                        "\(Terminal.colour("plan:", 36, onError: true)) \(lines: result.explanation.description.replacingOccurrences(of: "\n", with: "\n      "))"
                    )
                }
                ScanNote.report(result.explanation)
                try LeftOutDocuments.report(query.entity, in: store)
            }
        }
    }
}

extension RecordPrinter {
    /// Throws for a field that is neither a property of the entity nor id, path or day.
    static func checkFields(_ fields: [String], entity: String, in store: DocumentStore) throws(FolioError) {
        let properties = store.propertyNames(of: entity)
        let known = properties + ["id", "path", "day"]
        for field in fields where !known.contains(field) && !field.hasPrefix("$") {
            let hint = Spelling.nearest(to: field, among: known).map { "did you mean \($0)? " } ?? ""
            throw .notFound(
                "--fields: \(entity) has no property \(field); \(hint)its properties are \(properties.joined(separator: ", "))"
            )
        }
    }
}
