import ArgumentParser
import FolioCore
import FolioJSON

/// The formats one document prints in (`get`): as on disk, or on one line.
enum DocumentFormat: String, ExpressibleByArgument, CaseIterable {
    case json, ndjson
}

/// The formats `export` writes, which `import` reads back.
enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
    case ndjson, csv

    var output: OutputFormat { self == .csv ? .csv : .ndjson }
}

/// The forms the tool prints records in.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    /// Aligned columns for reading on a terminal.
    case table
    /// One JSON array, pretty-printed as documents are.
    case json
    /// One JSON object per line, for `jq` and other line tools.
    case ndjson
    /// Comma-separated values with a header row (RFC 4180).
    case csv
}

/// `--format`, shared by every command that prints records.
struct OutputOptions: ParsableArguments {
    @Option(help: "How to print: table, json, ndjson or csv.")
    var format: OutputFormat = .table

    @Flag(
        help:
            "In CSV, write text that starts with = + - @, a tab or a carriage return as it is, not behind a ' that keeps spreadsheets from running it as a formula."
    )
    var rawCSV = false

    /// Prints records: `columns` name what each row holds, in order. `choosable`: the
    /// command takes `--fields`, which a table too wide for the terminal then points to.
    func print(
        columns: [String], rows: [[JSONValue]], localDates: LocalDates? = nil, ids: IDColumns? = nil,
        choosable: Bool = false
    ) throws(FolioError) {
        try RecordPrinter(format: format, rawCSV: rawCSV, localDates: localDates, ids: ids, choosable: choosable)
            .print(columns: columns, rows: rows)
    }

    /// Prints whole documents: as they are in json and ndjson, as rows of `columns` otherwise
    /// (`choosable` as for records).
    func print(
        documents: [StoredDocument], columns: [String], localDates: LocalDates? = nil, ids: IDColumns? = nil,
        choosable: Bool = false
    ) throws(FolioError) {
        try RecordPrinter(format: format, rawCSV: rawCSV, localDates: localDates, ids: ids, choosable: choosable)
            .print(documents: documents, columns: columns)
    }
}

/// Prints records and documents on standard output in one of the formats.
struct RecordPrinter {
    var format: OutputFormat
    /// Whether CSV text cells are written as they are, formulas included.
    var rawCSV = false
    /// The date columns a table shows in the store's time zone.
    var localDates: LocalDates?
    /// The columns of ids a table shows short.
    var ids: IDColumns?
    /// Whether the command takes `--fields`, which a table too wide for the terminal then points to.
    var choosable = false

    /// Prints records: `columns` name what each row holds, in order.
    func print(columns: [String], rows: [[JSONValue]]) throws(FolioError) {
        switch format {
        case .table:
            let shortIDs = ids?.shortCells(columns: columns, rows: rows)
            var cells = rows.indices.map { index in
                zip(columns, rows[index]).enumerated().map { position, cell in
                    shortIDs?[index][position] ?? localDates?.text(of: cell.1, in: cell.0) ?? Table.cell(cell.1)
                }
            }
            // Dates in one column show the same number of fraction digits.
            for column in columns.indices {
                let evened = DateColumn.evened(cells.map { column < $0.count ? $0[column] : "" })
                for row in cells.indices where column < cells[row].count { cells[row][column] = evened[row] }
            }
            let width = Terminal.width
            let table = Table(columns: columns, rows: cells).lines(width: width)
            for line in table.lines { Terminal.print(line) }
            if table.hiddenColumns > 0 {
                Terminal.printError(
                    "(\(counted(table.hiddenColumns, "more column")) did not fit in \(width ?? 0) columns; \(choosable ? "choose them with --fields, or " : "")see all with --format json)"
                )
            }
        case .csv:
            Terminal.printExact(columns.map { CSV.written($0) }.joined(separator: ","))
            for row in rows {
                Terminal.printExact(row.map { CSV.written(CSV.cell($0, raw: rawCSV)) }.joined(separator: ","))
            }
        case .json:
            let objects = rows.map { JSONValue.object(JSONObject(zip(columns, $0))) }
            Terminal.printExact(try Self.text(.array(objects)))
        case .ndjson:
            for row in rows { Terminal.printExact(try Self.line(.object(JSONObject(zip(columns, row))))) }
        }
    }

    /// Prints whole documents: as they are in json and ndjson, as rows of `columns` otherwise.
    func print(documents: [StoredDocument], columns: [String]) throws(FolioError) {
        switch format {
        case .json:
            Terminal.printExact(try Self.text(.array(documents.map { .object($0.content) })))
        case .ndjson:
            for document in documents { Terminal.printExact(try Self.line(.object(document.content))) }
        case .table, .csv:
            try print(
                columns: columns, rows: documents.map { document in columns.map { Field.value(of: $0, in: document) } })
        }
    }

    /// Canonical, pretty JSON text without its final newline.
    static func text(_ value: JSONValue) throws(FolioError) -> String {
        do {
            return String(try JSONWriter().string(for: value).dropLast())
        } catch {
            throw .unreadableJSON(error)
        }
    }

    /// JSON on one line.
    static func line(_ value: JSONValue) throws(FolioError) -> String {
        do {
            return try JSONWriter().line(for: value)
        } catch {
            throw .unreadableJSON(error)
        }
    }
}

/// What the columns of a document row may name: a property, or `id`, `path`, `day`
/// (a property of that name wins: DayEntry has a `day`).
enum Field {
    static func value(of field: String, in document: StoredDocument) -> JSONValue {
        if let value = document.content[field] { return value }
        return switch field {
        case "path": .string(document.path.relativePath)
        case "day": .string(document.path.day.description)
        case "id": .string(document.id.uuidString)
        default: .null
        }
    }

    /// The columns a table shows when none are asked for: the identity, then every
    /// attribute of the entity the manifest lists, except long binary data, and every
    /// to-one relationship (the related document's UUID); a to-many holds a list, shown
    /// with `--fields` or in JSON.
    static func defaults(for entity: String, in store: DocumentStore) -> [String] {
        let properties = store.describedProperties(of: entity)
        let names = properties.compactMap { property -> String? in
            guard !property.isToMany, property.typeName != "Data", let name = property.name, name != "id"
            else { return nil }
            return name
        }
        return ["id"] + names
    }
}

/// CSV as the tool writes and reads it (see `docs/format.md`, "CSV").
enum CSV {
    /// A value as a CSV cell. Text that a spreadsheet would run as a formula (starting with
    /// `=`, `+`, `-`, `@`, a tab or a carriage return) gets a `'` in front unless `raw`, as
    /// OWASP's advice on CSV injection has it. Numbers are never changed: they cannot hold a
    /// formula, and `-5` must stay a number.
    static func cell(_ value: JSONValue, raw: Bool) -> String {
        let text = Table.cell(value)
        guard !raw, case .string = value, let first = text.unicodeScalars.first,
            "=+-@\t\r".unicodeScalars.contains(first)
        else { return text }
        return "'" + text
    }
}
