import ArgumentParser
import FolioCore
import Foundation

extension FolioCommand {
    /// `folio reindex`: rebuilds the local cache from the files.
    struct Reindex: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reindex",
            abstract: "Read every file again and rebuild the store's cache and indexes in .folio/.",
            discussion: """
                Opening a store trusts the cache for files whose size, time and inode have not \
                changed. Run this after a tool rewrote files while keeping those (rare), or to \
                measure a cold open.

                Example:
                  folio reindex --store Data/ForestFocus

                \(Failure.commandHelpText)
                """)

        @OptionGroup var store: StoreOptions

        func run() throws {
            try Failure.reporting {
                try DocumentStore.discardCache(at: try store.root())
                let started = Date()
                let bar = Progress("reindex", total: 0)
                let store = try store.open { read, total in bar.advance(to: read, of: total) }
                try store.load(nil)
                bar.finish()
                try store.writeCache()
                let seconds = Date().timeIntervalSince(started)
                Terminal.print(
                    "Read \(counted(store.statistics.filesRead, "file")) in \(String(format: "%.2f", seconds)) s; \(store.issues.count) unreadable (run folio check)"
                )
            }
        }
    }
}
