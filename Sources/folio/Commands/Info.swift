import ArgumentParser
import Folio
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

                \(Failure.helpText)
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            try Failure.reporting {
                let store = try store.open()
                let manifest = store.manifest
                let counts = store.documentCounts
                let entities = Set(counts.keys).union(manifest.schema["entities"]?.objectValue?.keys ?? []).sorted()
                let rows: [[JSONValue]] = entities.map { entity in
                    let documents = store.documents(entity: entity)
                    let deleted = documents.filter { $0.content["$deleted"] != nil }.count
                    let days = Set(documents.map(\.path.day)).sorted()
                    let span = days.first.map { "\($0) … \(days.last!)" } ?? ""
                    return [.string(entity), .integer(Int64(documents.count - deleted)), .integer(Int64(deleted)), .string(span)]
                }
                if output.format == .table {
                    Terminal.print("Store        \(store.root)")
                    Terminal.print("Schema       \(manifest.schemaVersion) (format \(manifest.formatVersion))")
                    Terminal.print("Time zone    \(manifest.timeZone.identifier)")
                    Terminal.print("Size         \(Self.size(of: store.root)) in \(counted(counts.values.reduce(0, +), "document"))")
                    if !store.issues.isEmpty { Terminal.print("Unreadable   \(counted(store.issues.count, "file")) (run folio check)") }
                    Terminal.print("")
                }
                try output.print(columns: ["entity", "documents", "deleted", "days"], rows: rows)
            }
        }

        /// The bytes the store's files take, without `.folio/`, as "1.2 MB".
        static func size(of root: String) -> String {
            var total: Int64 = 0
            let enumerator = FileManager.default.enumerator(atPath: root)
            while let path = enumerator?.nextObject() as? String {
                if path == ".folio" { enumerator?.skipDescendants(); continue }
                total += Int64((enumerator?.fileAttributes?[.size] as? NSNumber)?.intValue ?? 0)
            }
            return ByteCountFormatter.string(fromByteCount: total, countStyle: .file)
        }
    }
}
