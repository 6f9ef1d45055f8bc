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

    /// A record as read: its values, or what is wrong with it alone, past which the file
    /// reads on (a line that is not JSON, a row of the wrong number of fields).
    enum Read {
        /// The record on `line`, with the properties it says the document does not have
        /// (a CSV row's `(absent)` cells).
        case record(line: Int, record: JSONObject, absent: [String])
        /// The record on `line` cannot be read.
        case bad(line: Int, error: FolioError)
    }

    /// The next record and the line it starts on, or `nil` after the last; with the
    /// properties it says the document does not have (a CSV row's `(absent)` cells).
    mutating func next() throws(FolioError) -> (line: Int, record: JSONObject, absent: [String])? {
        switch try nextRead() {
        case .record(let line, let record, let absent)?: return (line, record, absent)
        case .bad(_, let error)?: throw error
        case nil: return nil
        }
    }

    /// The next record, or what is wrong with it; `nil` after the last. Throws what stops the
    /// reading of the file itself: bytes that are not UTF-8, a CSV header or quote that is wrong.
    mutating func nextRead() throws(FolioError) -> Read? {
        if format == .csv { return try nextRow() }
        return try nextObject()
    }

    private mutating func nextObject() throws(FolioError) -> Read? {
        while let line = try lines.next() {
            // Scalar by scalar, stopping at a record's first `{`: trimming each line makes a copy of it.
            guard !line.unicodeScalars.allSatisfy(CharacterSet.whitespaces.contains) else { continue }
            let number = lines.number
            let value: JSONValue
            do { value = try JSONReader().read(line, file: "line \(number)") } catch {
                return .bad(line: number, error: FolioError.unreadableJSON(error))
            }
            guard let object = value.objectValue else {
                return .bad(line: number, error: FolioError.invalidInput("line \(number) is not a JSON object"))
            }
            return .record(line: number, record: object, absent: [])
        }
        return nil
    }

    private mutating func nextRow() throws(FolioError) -> Read? {
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
                return .bad(
                    line: row.line,
                    error: FolioError.invalidInput(
                        "line \(row.line) has \(row.fields.count) fields, but the header has \(layout.columns.count)"))
            }
            do throws(FolioError) {
                let (record, absent) = try layout.record(row.fields, line: row.line)
                return .record(line: row.line, record: record, absent: absent)
            } catch {
                return .bad(line: row.line, error: error)
            }
        }
    }
}
