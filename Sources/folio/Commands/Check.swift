import ArgumentParser
import FolioCore
import FolioJSON

extension FolioCommand {
    /// `folio check`: every document against the schema.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Check every document against the manifest's schema; exit 1 when anything is wrong.",
            discussion: """
                Reports files that do not parse (with line:column), wrong types, missing required \
                properties, duplicates of unique values, relationships that point at nothing or \
                that only one side records, files in the wrong day folder, merge conflicts a git merge \
                recorded in "$conflicts" (with both values; `folio resolve` settles them), documents \
                written by a newer schema, and, as notes, documents written by an older schema and \
                keys the schema does not know.

                Every error is a line of its own. A note that several files share (the same \
                message: after a migration that left documents as they were, one for each) is one \
                line, at its first file, with how many more have it; --verbose lists each. JSON, \
                NDJSON and CSV list every finding.

                Example:
                  folio check --store Data/TimerApp

                \(Failure.commandHelpText)
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var past: RevisionOption

        @Option(help: "table (diagnostic lines), json, ndjson or csv.")
        var format: OutputFormat = .table

        @Flag(help: "List a note that several files share once for each file, not once with their count.")
        var verbose = false

        func run() throws {
            try Failure.reporting {
                let store = try past.open(store, reads: .oneCommand)
                let bar = Progress("check", total: 0)
                let (findings, files) = store.checkReport { checked, total in bar.advance(to: checked, of: total) }
                bar.finish()
                let errors = findings.filter { $0.severity == .error }.count
                if format == .table {
                    let shown = verbose ? findings.map { (finding: $0, others: 0) } : Self.folded(findings)
                    for (finding, others) in shown {
                        let label =
                            finding.severity == .error ? Terminal.colour("error", 31) : Terminal.colour("note", 36)
                        var place = finding.path
                        if let line = finding.line { place += ":\(line)" }
                        if let column = finding.column { place += ":\(column)" }
                        let more =
                            others == 0
                            ? "" : " (and \(counted(others, "more file")) with this note; --verbose lists them)"
                        Terminal.print("\(place): \(label): \(finding.message)\(more)")
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

        /// The findings as the table shows them: each error, and each note's message once, at
        /// the first finding that has it, with how many others do. A migration that left
        /// 50,000 documents as they were gave 50,000 notes, burying the errors among them.
        static func folded(_ findings: [StoreFinding]) -> [(finding: StoreFinding, others: Int)] {
            var shown: [(finding: StoreFinding, others: Int)] = []
            var position: [String: Int] = [:]
            for finding in findings {
                guard finding.severity == .note else {
                    shown.append((finding, 0))
                    continue
                }
                if let index = position[finding.message] {
                    shown[index].others += 1
                } else {
                    position[finding.message] = shown.count
                    shown.append((finding, 0))
                }
            }
            return shown
        }
    }
}
