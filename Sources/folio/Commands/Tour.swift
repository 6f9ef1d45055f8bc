import ArgumentParser
import FolioCore
import Foundation

extension FolioCommand {
    /// `folio tour`: a guided run of the tool over a copy of the example stores.
    struct Tour: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tour", abstract: "Show what Folio does, command by command, on a temporary copy of Data/.",
            discussion: """
                Copies the example stores to a temporary folder (the committed ones are never \
                touched), then runs real commands on the copy and prints each with its output: \
                info, queries with --explain, an aggregate, a soft delete and its restore, an insert \
                and an edit, a hand edit caught by check, the Timer app's migration as a dry-run \
                diff, then applied, and two git clones that sync, merge edits to one document and \
                settle a conflict with folio resolve (git runs with a home of its own there).

                Example:
                  folio tour --data Data --migrations Migrations

                \(Failure.commandHelpText)
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
                Self.removeAbandonedCopies()
                // A folder only this user can enter, holding the number of the process that uses it.
                let folder = try ScratchFolder(purpose: "tour")
                let scratch = folder.url
                defer { folder.remove() }
                do {
                    try String(getpid()).write(
                        toFile: folder.path(of: Self.processFile), atomically: false, encoding: .utf8)
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

        /// The file in a tour's folder that names the process using it.
        static let processFile = ".tour-process"

        /// Removes the folders of earlier tours whose process is gone: one stopped by a
        /// signal or a closed pipe (`folio tour | head`) had no chance to remove its own.
        static func removeAbandonedCopies() {
            let temporary = FileManager.default.temporaryDirectory
            let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
            for name in names where name.hasPrefix("folio-tour-") {
                let folder = temporary.appending(path: name)
                guard let text = try? String(contentsOf: folder.appending(path: processFile), encoding: .utf8),
                    let process = pid_t(text), kill(process, 0) != 0, errno == ESRCH
                else { continue }
                try? FileManager.default.removeItem(at: folder)
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
