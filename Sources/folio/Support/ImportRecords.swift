import Folio
import FolioJSON
import Foundation

/// The records of a file `folio import` reads, one at a time as the import asks for them:
/// a JSON object per non-empty NDJSON line, or a CSV row under a header of property names.
struct ImportRecords {
    private var lines: LineReader
    private let format: OutputFormat
    private let entity: String
    private let store: DocumentStore
    private var rows = CSV.Rows()
    private var header: [String]?

    init(_ lines: LineReader, format: OutputFormat, entity: String, store: DocumentStore) {
        self.lines = lines
        self.format = format
        self.entity = entity
        self.store = store
    }

    /// Bytes of the file read so far, for the progress bar.
    var bytesRead: Int { lines.bytesRead }

    /// The next record and the line it starts on, or `nil` after the last.
    mutating func next() throws(FolioError) -> (line: Int, record: JSONObject)? {
        format == .csv ? try nextRow() : try nextObject()
    }

    private mutating func nextObject() throws(FolioError) -> (line: Int, record: JSONObject)? {
        while let line = try lines.next() {
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            let number = lines.number
            do {
                guard let object = try JSONReader().read(line, file: "line \(number)").objectValue else {
                    throw FolioError.invalidInput("line \(number) is not a JSON object")
                }
                return (number, object)
            } catch let error as JSONError {
                throw FolioError.unreadableJSON(error)
            } catch let error as FolioError {
                throw error
            } catch {
                throw FolioError.invalidInput("line \(number): \(error)")
            }
        }
        return nil
    }

    private mutating func nextRow() throws(FolioError) -> (line: Int, record: JSONObject)? {
        while true {
            let row: (line: Int, fields: [String])
            if let line = try lines.next() {
                guard let ended = rows.read(line, number: lines.number) else { continue }
                row = ended
            } else {
                guard let last = rows.finish() else { return nil }
                row = last
            }
            guard let header else {
                try checkHeader(row.fields)
                header = row.fields
                continue
            }
            guard row.fields.count == header.count else {
                throw FolioError.invalidInput(
                    "line \(row.line) has \(row.fields.count) fields, but the header has \(header.count)")
            }
            var record = JSONObject()
            for (name, field) in zip(header, row.fields) where !field.isEmpty {
                record[name] = Assignment.value(
                    field, type: Assignment.type(of: name, entity: entity, in: store), timeZone: store.manifest.timeZone
                )
            }
            return (row.line, record)
        }
    }

    /// The first line is the header: a file without one would import its first record as
    /// column names, and the rest as nothing.
    private func checkHeader(_ names: [String]) throws(FolioError) {
        let known = Set(store.propertyNames(of: entity))
        if let unknown = names.first(where: { !known.contains($0) && $0 != "id" && $0 != "$id" }) {
            let names = known.sorted().joined(separator: ", ")
            throw FolioError.invalidInput(
                "line 1 of a CSV file is its header, naming a property of \(entity) in each column, but \"\(unknown)\" is not one (they are \(names)); add the header line, or rename the column"
            )
        }
    }
}
