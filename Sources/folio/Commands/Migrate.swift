import ArgumentParser
import FolioCore
import Foundation

extension FolioCommand {
    /// `folio migrate`: runs a plan of stage files, or shows it as a diff.
    struct Migrate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "migrate",
            abstract: "Migrate a store with a plan from Migrations/<Store>/, or dry-run it as a diff.",
            discussion: """
                A dry run writes nothing and prints every change as `git diff` would show it after \
                applying (paths relative to the store, as `git diff --relative` run in the store's \
                folder after `git add --intent-to-add --ignore-removal .`), then, on standard error, \
                a summary per entity and every document that would fail. Applying is one \
                transaction: all documents and the manifest move together, or nothing does.

                Example:
                  folio migrate --store Data/TimerApp --plan Migrations/TimerApp --dry-run
                  folio migrate --store Data/TimerApp --plan Migrations/TimerApp

                \(Failure.commandHelpText)
                """)

        @OptionGroup var store: StoreOptions

        @Option(
            help: ArgumentHelp(
                "The folder of stage files (one JSON file per stage, ordered by version).", valueName: "folder"))
        var plan: String

        @Flag(help: "Print the diff and the summary; write nothing.")
        var dryRun = false

        @Option(
            help: ArgumentHelp(
                "Put this in front of every path of the diff: the store's folder in its git repository (Data/TimerApp/), for a diff that equals `git diff` run at the repository's top.",
                valueName: "prefix"))
        var pathPrefix: String?

        func run() throws {
            try Failure.reporting {
                let bar = Progress(dryRun ? "dry run" : "migrate", total: 0)
                let store = try store.open { read, total in bar.advance(to: read, of: total) }
                let steps = try MigrationStep.plan(
                    in: URL(fileURLWithPath: plan, isDirectory: true), timeZone: store.manifest.timeZone)
                let report = try store.migrate(steps, dryRun: dryRun) { done, total in bar.advance(to: done, of: total)
                }
                bar.finish()
                if dryRun {
                    let diff = String(decoding: report.unifiedDiff(pathPrefix: pathPrefix ?? ""), as: UTF8.self)
                    FileHandle.standardOutput.write(Data(Self.coloured(diff).utf8))
                }
                let summary = report.entities.keys.sorted().map { entity -> TerminalText in
                    let counts = report.entities[entity]!
                    return
                        "  \(entity): \(counts.changed) changed, \(counts.unchanged) unchanged, \(counts.deleted) deleted, \(counts.failed) failed"
                }
                let heading: TerminalText =
                    report.fromVersion == report.toVersion.description
                    ? "The store is at \(report.toVersion) already, where the plan ends:"
                    : dryRun
                        ? "Dry run \(report.fromVersion) → \(report.toVersion) (nothing written):"
                        : report.applied ? "Migrated \(report.fromVersion) → \(report.toVersion):" : "Nothing migrated:"
                let counts: [TerminalText] =
                    summary.isEmpty ? ["  no documents to change (the schema in folio.json changes)"] : summary
                Terminal.printError(([heading] + counts).joined(separator: "\n"))
                for failure in report.failures { Terminal.printError("error: \(failure.path): \(failure.reason)") }
                if !report.failures.isEmpty { throw ExitCode(Failure.Code.data.rawValue) }
            }
        }

        /// A diff with git's colours when standard output is a terminal, and what its lines
        /// quote from documents shown visibly there; exact, as a patch, anywhere else.
        static func coloured(_ text: String) -> String {
            guard Terminal.colour("", 1).description != "" else { return text }
            return text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> TerminalText in
                let shown = TerminalText(line, keepingLineBreaks: true)
                if line.hasPrefix("+++") || line.hasPrefix("---") || line.hasPrefix("diff ") || line.hasPrefix("index ")
                {
                    return Terminal.colour(shown, 1)
                }
                if line.hasPrefix("+") { return Terminal.colour(shown, 32) }
                if line.hasPrefix("-") { return Terminal.colour(shown, 31) }
                if line.hasPrefix("@@") { return Terminal.colour(shown, 36) }
                return shown
            }.joined(separator: "\n").description
        }
    }
}
