import ArgumentParser
import Folio
import FolioJSON

extension FolioCommand {
    /// `folio check`: every document against the schema.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check every document against the manifest's schema; exit 1 when anything is wrong.",
            discussion: """
                Reports files that do not parse (with line:column), wrong types, missing required \
                properties, duplicates of unique values, relationships that point at nothing or \
                that only one side records, files in the wrong day folder, merge conflicts a git merge \
                recorded in "$conflicts" (with both values; `folio resolve` settles them), documents \
                written by a newer schema, and, as notes, documents written by an older schema and \
                keys the schema does not know.

                Example:
                  folio check --store Data/TimerApp

                \(Failure.helpText)
                """)

        @OptionGroup var store: StoreOptions

        @Option(help: "table (diagnostic lines), json, ndjson or csv.")
        var format: OutputFormat = .table

        func run() throws {
            try Failure.reporting {
                let store = try store.open()
                store.servesOneCommand = true
                let bar = Progress("check", total: 0)
                let (findings, files) = store.checkReport { checked, total in bar.advance(to: checked, of: total) }
                bar.finish()
                let errors = findings.filter { $0.severity == .error }.count
                if format == .table {
                    for finding in findings {
                        let label =
                            finding.severity == .error ? Terminal.colour("error", 31) : Terminal.colour("note", 36)
                        var place = finding.path
                        if let line = finding.line { place += ":\(line)" }
                        if let column = finding.column { place += ":\(column)" }
                        Terminal.print("\(place): \(label): \(finding.message)")
                    }
                    Terminal.print(
                        "\(counted(files, "document")) checked: \(counted(errors, "error")), \(counted(findings.count - errors, "note"))"
                    )
                } else {
                    try RecordPrinter(format: format).print(
                        columns: ["severity", "path", "line", "column", "message"],
                        rows: findings.map { finding in
                            [
                                .string(finding.severity.rawValue), .string(finding.path),
                                finding.line.map { .integer(Int64($0)) } ?? .null,
                                finding.column.map { .integer(Int64($0)) } ?? .null, .string(finding.message),
                            ]
                        })
                }
                if errors > 0 { throw ExitCode(Failure.Code.found.rawValue) }
            }
        }
    }
}
