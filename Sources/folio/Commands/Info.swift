import ArgumentParser
import FolioCore
import FolioJSON
import Foundation

extension FolioCommand {
    /// `folio info`: what a store holds.
    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a store's entities, counts, schema version, size and time zone.",
            discussion: """
                Example:
                  folio info --store Data/ForestFocus

                \(Failure.commandHelpText)
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            try Failure.reporting {
                // One look at the store, then the process ends: from the cache files when they can tell.
                let store = try store.open(reads: .oneCommand)
                let manifest = store.manifest
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
                    Terminal.print("Store        \(store.root)")
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
                    let info: JSONValue = .object([
                        "store": .string(store.root), "schemaVersion": .string(manifest.schemaVersion),
                        "formatVersion": .integer(Int64(manifest.formatVersion)),
                        "timeZone": .string(manifest.timeZone.identifier),
                        "documents": .integer(Int64(total)), "bytes": .integer(bytes),
                        "unreadableFiles": .integer(Int64(summary.issues.count)),
                        "entities": .array(rows.map { .object(JSONObject(zip(columns, $0).map { ($0, $1) })) }),
                    ])
                    Terminal.printExact(
                        output.format == .json ? try RecordPrinter.text(info) : try RecordPrinter.line(info))
                case .csv:
                    try output.print(columns: columns, rows: rows)
                }
            }
        }
    }
}
