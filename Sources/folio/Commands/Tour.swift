import ArgumentParser
import Folio
import Foundation

extension FolioCommand {
    /// `folio tour`: a guided run of the tool over a copy of the example stores.
    struct Tour: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show what Folio does, command by command, on a temporary copy of Data/.",
            discussion: """
                Copies the example stores to a temporary folder (the committed ones are never \
                touched), then runs real commands on the copy and prints each with its output: \
                info, queries with --explain, an aggregate, a soft delete and its restore, an insert \
                and an edit, a hand edit caught by check, the Timer app's migration as a dry-run \
                diff, then applied, and two git clones that sync, merge edits to one document and \
                settle a conflict with folio resolve (git runs with a home of its own there).

                Example:
                  folio tour --data Data --migrations Migrations

                \(Failure.helpText)
                """)

        @Option(
            help: ArgumentHelp(
                "The example stores (default: Data/ in this folder or the nearest one above).", valueName: "folder"))
        var data: String?

        @Option(
            help: ArgumentHelp(
                "The migration plans (default: Migrations/ beside the example stores).", valueName: "folder"))
        var migrations: String?

        func run() throws {
            try Failure.reporting {
                let data = try data ?? Self.nearest("Data")
                let migrations =
                    migrations
                    ?? URL(fileURLWithPath: data).standardizedFileURL.deletingLastPathComponent()
                    .appendingPathComponent("Migrations").path
                let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "folio-tour-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: scratch) }
                do {
                    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
                    try FileManager.default.copyItem(atPath: data, toPath: scratch.appendingPathComponent("Data").path)
                    try FileManager.default.copyItem(
                        atPath: migrations, toPath: scratch.appendingPathComponent("Migrations").path)
                } catch {
                    throw FolioError.fileSystem(
                        path: scratch.path, operation: "copy the example stores", reason: error.localizedDescription)
                }
                try TourScript(folder: scratch.path).run()
            }
        }

        /// A folder of this name here or in the nearest folder above.
        static func nearest(_ name: String) throws(FolioError) -> String {
            var folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL
            while true {
                let candidate = folder.appendingPathComponent(name)
                if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("TimerApp").path) {
                    return candidate.path
                }
                let parent = folder.deletingLastPathComponent()
                if parent.path == folder.path { break }
                folder = parent
            }
            throw .notFound("found no \(name)/ with the example stores here or above; pass --data PATH")
        }
    }
}
