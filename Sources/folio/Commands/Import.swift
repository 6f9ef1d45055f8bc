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
                let text = try Self.read(file)
                let format = format ?? (file.hasSuffix(".csv") ? .csv : .ndjson)
                let records =
                    try format == .csv ? Self.csvRecords(text, entity: entity, in: store) : Self.ndjsonRecords(text)
                let progress = Progress("import", total: records.count)
                var written: [(document: Document, old: StoredDocument?)] = []
                // Keys the schema does not know are kept, as a save keeps them, so an export
                // imports back whole; CSV refuses them at its header instead.
                let known = Set(store.propertyNames(of: entity))
                var unknownKeys = Set<String>()
                for (line, record) in records {
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
                            if let identity, values["id"] == nil { values["id"] = .string(identity.uuidString) }
                            document = try store.newDocument(entity: entity, values: values)
                        }
                        for member in unknown {
                            document.content[member.key] = member.value
                            unknownKeys.insert(member.key)
                        }
                        written.append((document, existing))
                    } catch {
                        throw FolioError(error.kind, "\(file):\(line): \(error.reason)")
                    }
                    progress.advance()
                }
                progress.finish()
                let summary = try store.commit(store.changes(putting: written), author: FolioCommand.author)
                Terminal.print(
                    "\(counted(records.count, "record")): \(summary.written) written, \(summary.unchanged) unchanged")
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

        static func read(_ file: String) throws(FolioError) -> String {
            if file == "-" { return String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self) }
            do { return try String(contentsOfFile: file, encoding: .utf8) } catch {
                throw .fileSystem(path: file, operation: "read", reason: error.localizedDescription)
            }
        }

        /// One object per non-empty line, with its line number.
        static func ndjsonRecords(_ text: String) throws(FolioError) -> [(Int, JSONObject)] {
            var records: [(Int, JSONObject)] = []
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.trimmingCharacters(in: .whitespaces).isEmpty {
                do {
                    guard let object = try JSONReader().read(String(line), file: "line \(index + 1)").objectValue else {
                        throw FolioError.invalidInput("line \(index + 1) is not a JSON object")
                    }
                    records.append((index + 1, object))
                } catch let error as JSONError {
                    throw FolioError.unreadableJSON(error)
                } catch let error as FolioError {
                    throw error
                } catch {
                    throw FolioError.invalidInput("line \(index + 1): \(error)")
                }
            }
            return records
        }

        /// Rows under a header row of property names; empty fields are left out.
        static func csvRecords(_ text: String, entity: String, in store: DocumentStore) throws(FolioError) -> [(
            Int, JSONObject
        )] {
            let rows = CSV.rows(text)
            guard let header = rows.first?.fields else { return [] }
            // The first line is the header: a file without one would import its first record
            // as column names, and the rest as nothing.
            let known = Set(store.propertyNames(of: entity))
            if let unknown = header.first(where: { !known.contains($0) && $0 != "id" && $0 != "$id" }) {
                let names = known.sorted().joined(separator: ", ")
                throw FolioError.invalidInput(
                    "line 1 of a CSV file is its header, naming a property of \(entity) in each column, but \"\(unknown)\" is not one (they are \(names)); add the header line, or rename the column"
                )
            }
            return try rows.dropFirst().map { row throws(FolioError) in
                guard row.fields.count == header.count else {
                    throw FolioError.invalidInput(
                        "line \(row.line) has \(row.fields.count) fields, but the header has \(header.count)")
                }
                var record = JSONObject()
                for (name, field) in zip(header, row.fields) where !field.isEmpty {
                    record[name] = Assignment.value(
                        field, type: Assignment.type(of: name, entity: entity, in: store),
                        timeZone: store.manifest.timeZone)
                }
                return (row.line, record)
            }
        }
    }
}

extension CSV {
    /// The rows of a CSV text (RFC 4180: quoted fields may hold commas, quotes and line breaks).
    static func rows(_ text: String) -> [(line: Int, fields: [String])] {
        var rows: [(Int, [String])] = []
        var fields: [String] = []
        var field = ""
        var quoted = false
        var line = 1
        var rowLine = 1
        var characters = text.makeIterator()
        var pending: Character? = nil
        while let character = pending ?? characters.next() {
            pending = nil
            if quoted {
                if character == "\"" {
                    let next = characters.next()
                    if next == "\"" {
                        field.append("\"")
                    } else {
                        quoted = false
                        pending = next
                    }
                } else {
                    if character == "\n" { line += 1 }
                    field.append(character)
                }
                continue
            }
            switch character {
            case "\"": quoted = true
            case ",":
                fields.append(field)
                field = ""
            case "\r\n", "\n":
                fields.append(field)
                field = ""
                if fields != [""] { rows.append((rowLine, fields)) }
                fields = []
                line += 1
                rowLine = line
            default: field.append(character)
            }
        }
        if !field.isEmpty || !fields.isEmpty {
            fields.append(field)
            rows.append((rowLine, fields))
        }
        return rows
    }
}
