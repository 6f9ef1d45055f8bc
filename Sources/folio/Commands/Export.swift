import ArgumentParser
import FolioCore
import FolioJSON

extension FolioCommand {
    /// `folio export`: documents as NDJSON or CSV on standard output.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export", abstract: "Write an entity's documents (or those a query matches) as NDJSON or CSV.",
            discussion: """
                NDJSON keeps every document whole, metadata included, so `folio import` reads it \
                back as it was. CSV has a row per document, and `folio import` reads it back to the \
                same values (docs/format.md, "CSV"). Its columns: $id for a model without its own \
                id; each property the documents hold (a to-many they keep, as a JSON array); \
                $entity when some document is of an entity inheriting from this one; $deleted with \
                --include-deleted; $unknown, a JSON object of the members the schema does not know.

                In a cell, empty is null (for a required property and the $ columns: nothing), "" \
                the empty text, and (absent) a member the document does not have. String, UUID, URL \
                and Data (base64) values and to-one relationships are their text, a Date its stored \
                text (or seconds since 2001, outside years 0000-9999), anything else JSON, numbers \
                exactly as stored. A ' goes before text that would read as something else: text \
                starting with = + - @, a tab or a carriage return (which a spreadsheet would run as \
                a formula; --raw-csv writes it bare) or with ', text reading (absent), and, outside \
                text columns, text that is JSON; the import takes it off.

                What a CSV cannot carry exactly (a value that does not fit its column's type, merge \
                conflicts, other metadata, a blob beside a document) makes the export write nothing \
                and exit 65, naming each document and column; --lossy writes the CSV anyway, with a \
                warning for each on standard error. From either format, the import writes the \
                store's schema version, and a new document's members in declaration order.

                Example:
                  folio export FocusSession > sessions.ndjson
                  folio export FocusSession 'state == "completed"' --format csv > completed.csv

                \(Failure.commandHelpText)
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var past: RevisionOption
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
                // The reading of the files is the long part of a large store's export.
                let bar = Progress("export", total: 0)
                let store = try past.open(store) { read, total in bar.advance(to: read, of: total) }
                let documents = try store.query(try query.documentQuery(in: store)).matches.compactMap(\.stored)
                bar.finish()
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
