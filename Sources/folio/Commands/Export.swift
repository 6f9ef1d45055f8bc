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
                back as it was. CSV has a row per document and a column per member, and `folio \
                import` reads it back to the same values:

                  columns   $id (for a model without its own id), each property the documents hold \
                (to-many relationships the documents keep, as JSON arrays), $entity when some \
                document is of an entity inheriting from this one, $deleted with --include-deleted, \
                and $unknown, a JSON object of the members the schema does not know
                  empty     null (for a required property, $id or $deleted: no value)
                  ""        the empty text
                  (absent)  a member the document does not have
                  'text     text that would read as something else without the ' (one starting \
                with = + - @ a tab or a carriage return, which a spreadsheet would run, or with ', \
                or reading (absent), or, in a column not of text, JSON); the ' is taken off on import
                  values    String, UUID, URL, Data (base64) and to-one relationships as their text; \
                a Date as its stored text (seconds since 2001 as a number outside years 0000-9999); \
                anything else as JSON: numbers exactly as stored, true, false, arrays, objects

                The import writes the store's schema version and members in declaration order, as \
                it does for NDJSON. What CSV cannot carry exactly (a value that does not fit its \
                column's type, merge conflicts, other metadata, a blob beside a document) makes \
                the export write nothing and exit 65, naming each document and column; --lossy \
                writes the CSV anyway with a warning for each on standard error.

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

        @Flag(
            help:
                "In CSV, write the file even where it cannot carry a value exactly, with a warning on standard error for each, instead of refusing."
        )
        var lossy = false

        func run() throws {
            try Failure.reporting {
                let store = try store.open()
                let documents = try store.query(try query.documentQuery(in: store)).matches.compactMap(\.stored)
                switch format {
                case .ndjson:
                    try RecordPrinter(format: .ndjson).print(documents: documents, columns: [])
                case .csv:
                    try printCSV(documents, from: store)
                }
                try LeftOutDocuments.report(query.entity, in: store)
            }
        }

        /// Prints the documents as CSV: every line is made and read back first, so that a
        /// value the CSV cannot carry stops the export before anything is written (or, with
        /// `--lossy`, is named in a warning).
        private func printCSV(_ documents: [StoredDocument], from store: DocumentStore) throws(FolioError) {
            let layout = CSVLayout(
                exporting: query.entity, documents: documents, includeDeleted: query.includeDeleted, store: store)
            var problems: [String] = []
            let lines = documents.map { layout.line(for: $0, raw: rawCSV, store: store, problems: &problems) }
            if !problems.isEmpty, !lossy {
                let shownCount = 20
                let more = problems.count > shownCount ? "\n  and \(problems.count - shownCount) more" : ""
                throw FolioError(
                    .invalidValue,
                    "CSV cannot carry every value of these documents exactly, so nothing was written:\n  "
                        + problems.prefix(shownCount).joined(separator: "\n  ") + more,
                    hint:
                        "export them as NDJSON, which carries documents whole, or pass --lossy to write the CSV anyway with a warning for each"
                )
            }
            Terminal.printExact(layout.header)
            for line in lines { Terminal.printExact(line) }
            for problem in problems {
                Terminal.printError(
                    Terminal.colour("warning:", 33, onError: true) + " \(problem); the CSV does not carry it exactly")
            }
        }
    }
}
