import ArgumentParser
import Folio
import FolioJSON
import Foundation

extension FolioCommand {
    /// `folio import`: documents from NDJSON or CSV, in one transaction.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add or update an entity's documents from an NDJSON or CSV file, all or nothing.",
            discussion: """
                Each record is checked against the schema; the first bad one stops the import with \
                its line number, and nothing is written. A record whose identity ("id", or "$id" for \
                models without one) the store holds updates that document; others are added. \
                Keys of an NDJSON record that the schema does not know are kept, as a save keeps \
                them, so an export imports back whole; a CSV column must name a property.

                Example:
                  folio import FocusSession sessions.ndjson
                  folio import TodoItem todos.csv --format csv

                \(Failure.helpText)
                """)

        @OptionGroup var store: StoreOptions

        @Argument(help: "The entity.")
        var entity: String

        @Argument(help: "The file; - for standard input.")
        var file: String

        @Option(help: "ndjson or csv (default: by the file's extension, else ndjson).")
        var format: OutputFormat?

        func run() throws {
            try Failure.reporting {
                let store = try store.open()
                _ = try store.parseQuery("true", entity: entity)
                let format = format ?? (file.hasSuffix(".csv") ? .csv : .ndjson)
                let lines = try LineReader(file)
                defer { lines.close() }
                var records = ImportRecords(lines, format: format, entity: entity, store: store)
                // By bytes of the file read, since how many records it holds is known only at its end.
                let progress = Progress("import", total: lines.size ?? 0, unit: lines.size == nil ? .items : .bytes)
                // Keys the schema does not know are kept, as a save keeps them, so an export
                // imports back whole; CSV refuses them at its header instead.
                let known = Set(store.propertyNames(of: entity))
                var unknownKeys = Set<String>()
                var count = 0
                /// The next record as a document, and the stored one it replaces.
                func next() throws(FolioError) -> (document: Document, existing: StoredDocument?)? {
                    guard let (line, record) = try records.next() else { return nil }
                    count += 1
                    progress.advance(to: lines.size == nil ? count : records.bytesRead)
                    do throws(FolioError) {
                        let identity = (record["id"] ?? record["$id"])?.stringValue.flatMap(UUID.init(uuidString:))
                        let properties = Self.properties(of: record)
                        let values = JSONObject(properties.filter { known.contains($0.key) }.map { ($0.key, $0.value) })
                        let unknown = properties.filter { !known.contains($0.key) }
                        var document: Document
                        let existing = identity.flatMap { store.document(entity: entity, id: $0) }
                        if let existing {
                            document = try store.document(existing, setting: values)
                        } else {
                            var values = values
                            // The record's identity, under the name the entity keeps it by.
                            let key = known.contains("id") ? "id" : "$id"
                            if let identity, values[key] == nil { values[key] = .string(identity.uuidString) }
                            document = try store.newDocument(entity: entity, values: values)
                        }
                        for member in unknown {
                            document.content[member.key] = member.value
                            unknownKeys.insert(member.key)
                        }
                        return (document, existing)
                    } catch {
                        throw FolioError(error.kind, "\(file):\(line): \(error.reason)")
                    }
                }
                let summary: CommitSummary
                if store.writesOtherSides(of: entity) {
                    // Each document may write the other sides of its relationships, in other
                    // folders: one commit of them all, held in memory.
                    var written: [(document: Document, old: StoredDocument?)] = []
                    while let (document, existing) = try next() { written.append((document, existing)) }
                    summary = try store.commit(store.changes(putting: written), author: FolioCommand.author)
                } else {
                    summary = try store.importDocuments(into: entity, author: FolioCommand.author) {
                        () throws(FolioError) -> DocumentStore.ImportedDocument? in
                        try next().map { ($0.document, $0.existing?.version) }
                    }
                }
                progress.finish()
                Terminal.print(
                    "\(counted(count, "record")): \(summary.written) written, \(summary.unchanged) unchanged")
                if !unknownKeys.isEmpty {
                    Terminal.printError(
                        "note: kept keys \(entity)'s schema does not know, as a save keeps them: \(unknownKeys.sorted().joined(separator: ", ")) (folio check lists them)"
                    )
                }
            }
        }

        /// A record's property values: metadata such as "$version" is the store's to write.
        static func properties(of record: JSONObject) -> JSONObject {
            JSONObject(record.filter { !$0.key.hasPrefix("$") }.map { ($0.key, $0.value) })
        }
    }
}
