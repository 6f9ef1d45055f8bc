import ArgumentParser
import Folio
import Foundation

extension FolioCommand {
    /// `folio migrate`: runs a plan of stage files, or shows it as a diff.
    struct Migrate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Migrate a store with a plan from Migrations/<Store>/, or dry-run it as a diff.",
            discussion: """
                A dry run writes nothing and prints every change as `git diff` would show it after
                applying, then a summary per entity and every document that would fail. Applying
                is one transaction: all documents and the manifest move together, or nothing does.

                Example:
                  folio migrate --store Data/TimerApp --plan Migrations/TimerApp --dry-run
                  folio migrate --store Data/TimerApp --plan Migrations/TimerApp

                \(Failure.helpText)
                """)

        @OptionGroup var store: StoreOptions

        @Option(help: ArgumentHelp("The folder of stage files (one JSON file per stage, ordered by version).", valueName: "folder"))
        var plan: String

        @Flag(help: "Print the diff and the summary; write nothing.")
        var dryRun = false

        func run() throws {
            try Failure.reporting {
                let store = try store.open()
                let steps = try MigrationStep.plan(in: URL(fileURLWithPath: plan, isDirectory: true), timeZone: store.manifest.timeZone)
                let report = try store.migrate(steps, dryRun: dryRun)
                if dryRun {
                    for diff in MigrationDiff.diffs(of: report) { FileHandle.standardOutput.write(Data(Self.coloured(diff.text).utf8)) }
                }
                let summary = report.entities.keys.sorted().map { entity in
                    let counts = report.entities[entity]!
                    return "  \(entity): \(counts.changed) changed, \(counts.unchanged) unchanged, \(counts.deleted) deleted, \(counts.failed) failed"
                }
                let heading = dryRun ? "Dry run \(report.fromVersion) → \(report.toVersion) (nothing written):" : report.applied ? "Migrated \(report.fromVersion) → \(report.toVersion):" : "Nothing migrated:"
                Terminal.printError(([heading] + summary).joined(separator: "\n"))
                for failure in report.failures { Terminal.printError("error: \(failure.path): \(failure.reason)") }
                if !report.failures.isEmpty { throw ExitCode(Failure.Code.data.rawValue) }
            }
        }

        /// A diff with git's colours when standard output is a terminal.
        static func coloured(_ text: String) -> String {
            guard Terminal.colour("", 1) != "" else { return text }
            return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                if line.hasPrefix("+++") || line.hasPrefix("---") || line.hasPrefix("diff ") || line.hasPrefix("index ") { return Terminal.colour(String(line), 1) }
                if line.hasPrefix("+") { return Terminal.colour(String(line), 32) }
                if line.hasPrefix("-") { return Terminal.colour(String(line), 31) }
                if line.hasPrefix("@@") { return Terminal.colour(String(line), 36) }
                return String(line)
            }.joined(separator: "\n")
        }
    }
}

/// The diffs of a migration report in git's order (until the report offers them itself).
enum MigrationDiff {
    static func diffs(of report: MigrationReport) -> [DocumentDiff] {
        let diffs = report.files.flatMap { file -> [DocumentDiff] in
            if file.oldPath != file.path, let old = file.old, let new = file.new {
                if let renamed = DocumentDiff(renaming: file.oldPath, to: file.path, old: old, new: new) { return [renamed] }
                return [DocumentDiff(path: file.oldPath, old: old, new: nil), DocumentDiff(path: file.path, old: nil, new: new)]
            }
            return [DocumentDiff(path: file.path, old: file.old, new: file.new)]
        }
        return DocumentDiff.inGitOrder(diffs.filter { !$0.isEmpty })
    }
}
