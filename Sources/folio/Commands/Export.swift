import ArgumentParser
import Folio
import FolioJSON

extension FolioCommand {
    /// `folio export`: documents as NDJSON or CSV on standard output.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write an entity's documents (or those a query matches) as NDJSON or CSV.",
            discussion: """
                NDJSON keeps every document whole, metadata included, so `folio import` reads it \
                back as it was; CSV has a column per property (values that are not text as JSON).

                Example:
                  folio export FocusSession > sessions.ndjson
                  folio export FocusSession 'state == "completed"' --format csv > completed.csv

                \(Failure.helpText)
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var query: QueryOptions

        @Option(help: "ndjson or csv.")
        var format: ExportFormat = .ndjson

        @Flag(
            help:
                "In CSV, write text that starts with = + - @, a tab or a carriage return as it is, not behind a ' that keeps spreadsheets from running it as a formula."
        )
        var rawCSV = false

        func run() throws {
            try Failure.reporting {
                let store = try store.open()
                let documents = try store.query(try query.documentQuery(in: store)).matches.compactMap(\.stored)
                let properties = store.describedProperties(of: query.entity).filter { !$0.isToMany }.compactMap(\.name)
                let columns = properties.contains("id") ? properties : ["id"] + properties
                try RecordPrinter(format: format.output, rawCSV: rawCSV).print(documents: documents, columns: columns)
                try LeftOutDocuments.report(query.entity, in: store)
            }
        }
    }
}
