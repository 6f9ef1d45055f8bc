import FolioCore
import FolioJSON
import Foundation

/// The records of a file `folio import` reads, one at a time as the import asks for them:
/// a JSON object per non-empty NDJSON line, or a CSV row under a header of columns, read
/// by the conventions `folio export --format csv` writes with (`CSVLayout`, `CSVCell`).
struct ImportRecords {
    private var lines: LineReader
    private let format: OutputFormat
    private let entity: String
    private let store: DocumentStore
    private var rows = CSV.FieldReader()
    /// The CSV file's columns, once its header is read.
    private var layout: CSVLayout?

    init(_ lines: LineReader, format: OutputFormat, entity: String, store: DocumentStore) {
        self.lines = lines
        self.format = format
        self.entity = entity
        self.store = store
    }

    /// Bytes of the file read so far, for the progress bar.
    var bytesRead: Int { lines.bytesRead }

    /// The next record and the line it starts on, or `nil` after the last; with the
    /// properties it says the document does not have (a CSV row's `(absent)` cells).
    mutating func next() throws(FolioError) -> (line: Int, record: JSONObject, absent: [String])? {
        if format == .csv { return try nextRow() }
        return try nextObject().map { ($0.line, $0.record, []) }
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

    private mutating func nextRow() throws(FolioError) -> (line: Int, record: JSONObject, absent: [String])? {
        while true {
            let row: (line: Int, fields: [CSV.Field])
            if let line = try lines.next() {
                guard let ended = try rows.read(line, number: lines.number) else { continue }
                row = ended
            } else {
                try rows.finish()
                return nil
            }
            guard let layout else {
                layout = try CSVLayout(importing: row.fields, entity: entity, store: store)
                continue
            }
            guard row.fields.count == layout.columns.count else {
                throw FolioError.invalidInput(
                    "line \(row.line) has \(row.fields.count) fields, but the header has \(layout.columns.count)")
            }
            let (record, absent) = try layout.record(row.fields, line: row.line)
            return (row.line, record, absent)
        }
    }
}
