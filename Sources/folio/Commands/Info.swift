import ArgumentParser
import FolioCore
import FolioJSON
import Foundation

extension FolioCommand {
    /// `folio info`: what a store holds.
    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "info", abstract: "Show a store's entities, counts, schema version, size and time zone.",
            discussion: """
                Example:
                  folio info --store Data/ForestFocus

                \(Failure.commandHelpText)
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var past: RevisionOption
        @OptionGroup var output: OutputOptions

        func run() throws {
            try Failure.reporting {
                // One look at the store, then the process ends: from the cache files when they can tell.
                let store = try past.open(store, reads: .oneCommand)
                let manifest = store.manifest
                // The folder the user named, not the copy a revision is read from.
                let root = past.revision == nil ? store.root : try self.store.root()
                let commit = past.commit
                let summary = store.summary
                let entities = Set(summary.tallies.keys).union(manifest.storedSchema.entityNames).sorted()
                // Counted from the cache and the walk: no document is read for this.
                let rows: [[JSONValue]] = entities.map { entity in
                    let tally = summary.tally(of: entity)
                    let span = tally.days.map { "\($0.lowerBound) … \($0.upperBound)" } ?? ""
                    return [
                        .string(entity), .integer(Int64(tally.live)), .integer(Int64(tally.deleted)), .string(span),
                    ]
                }
                let columns = ["entity", "documents", "deleted", "days"]
                let (bytes, total) = (summary.bytes, summary.documents)
                switch output.format {
                case .table:
                    Terminal.print(
                        "Store        \(root)"
                            + (commit.map { " at \(past.revision ?? "") (commit \($0.prefix(12)))" } ?? ""))
                    Terminal.print("Schema       \(manifest.schemaVersion) (format \(manifest.formatVersion))")
                    Terminal.print("Time zone    \(manifest.timeZone.identifier)")
                    Terminal.print(
                        "Size         \(bytes == 0 ? "0 bytes" : ByteCountFormatter.string(fromByteCount: bytes, countStyle: .file)) in \(counted(total, "document")) (their files and external-storage files)"
                    )
                    if !summary.issues.isEmpty {
                        Terminal.print("Unreadable   \(counted(summary.issues.count, "file")) (run folio check)")
                    }
                    Terminal.print("")
                    try output.print(columns: columns, rows: rows)
                case .json, .ndjson:
                    // The store's own facts beside its entities, as the table shows them.
                    var info: JSONObject = [
                        "store": .string(root), "schemaVersion": .string(manifest.schemaVersion),
                        "formatVersion": .integer(Int64(manifest.formatVersion)),
                        "timeZone": .string(manifest.timeZone.identifier),
                        "documents": .integer(Int64(total)), "bytes": .integer(bytes),
                        "unreadableFiles": .integer(Int64(summary.issues.count)),
                        "entities": .array(rows.map { .object(JSONObject(zip(columns, $0).map { ($0, $1) })) }),
                    ]
                    if let revision = past.revision, let commit {
                        info["revision"] = .string(revision)
                        info["commit"] = .string(commit)
                    }
                    Terminal.printExact(
                        output.format == .json
                            ? try RecordPrinter.text(.object(info)) : try RecordPrinter.line(.object(info)))
                case .csv:
                    try output.print(columns: columns, rows: rows)
                }
            }
        }
    }
}
