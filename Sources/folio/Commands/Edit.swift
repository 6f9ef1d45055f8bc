import ArgumentParser
import Folio
import FolioJSON
import Foundation

extension FolioCommand {
    /// `folio edit`: a document in `$EDITOR`, checked before it is saved.
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Open a document in $EDITOR; save it only when it parses and fits the schema.",
            discussion: """
                An edit that does not parse or breaks the schema is never saved: the editor
                opens again with the error at the top, as // lines. Save the file unchanged
                (or empty it) to give up. If the document changed on disk meanwhile, the save
                is refused as a conflict.

                Example:
                  EDITOR=nano folio edit Timer/2026/01/05/0F6C1E2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B.json

                \(Failure.helpText)
                """)

        @OptionGroup var store: StoreOptions

        @Argument(help: ArgumentHelp("The document's UUID or path.", valueName: "uuid-or-path"))
        var document: String

        func run() throws {
            try Failure.reporting {
                let store = try store.open()
                guard let stored = try DocumentTarget.document(document, in: store) else {
                    throw FolioError.invalidArgument("\(document) is neither a UUID nor a document path")
                }
                let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("folio-edit-\(UUID().uuidString)-\(stored.id.uuidString).json")
                defer { try? FileManager.default.removeItem(at: scratch) }
                var text = try RecordPrinter.text(.object(stored.content)) + "\n"
                let original = text
                while true {
                    try Self.write(text, to: scratch)
                    try Self.openEditor(on: scratch.path)
                    let edited = (try? String(contentsOf: scratch, encoding: .utf8)) ?? ""
                    if edited == text || edited.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                        Terminal.printError(text == original ? "No change; nothing saved." : "Gave up; nothing saved.")
                        if text != original { throw ExitCode(Failure.Code.data.rawValue) }
                        return
                    }
                    let body = Self.withoutErrorLines(edited)
                    do {
                        let content: JSONObject
                        do {
                            guard let object = try JSONReader().read(body, file: stored.path.relativePath).objectValue else {
                                throw FolioError.invalidDocument(path: stored.path.relativePath, reason: "a document must be a JSON object")
                            }
                            content = object
                        } catch let error as JSONError {
                            throw FolioError.unreadableJSON(error)
                        }
                        let next = try store.document(stored, replacingWith: content)
                        let summary = try store.commit(store.changes(putting: next, over: stored))
                        Terminal.print(summary.written == 0 ? "No change; nothing saved." : "Saved \(summary.versions.keys.map(\.relativePath).sorted().joined(separator: ", "))")
                        return
                    } catch let error as FolioError {
                        if case .conflict = error { throw error }
                        Terminal.printError("error: \(error.description)")
                        let lines = error.description.split(separator: "\n").map { "// " + $0 }
                        text = (lines + ["// Fix the document below and save; save it unchanged to give up.", ""]).joined(separator: "\n") + body
                    }
                }
            }
        }

        /// The text without the `//` lines the tool put at its top.
        static func withoutErrorLines(_ text: String) -> String {
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            while let first = lines.first, first.hasPrefix("//") || (first.isEmpty && lines.count > 1 && lines[1].hasPrefix("//")) { lines.removeFirst() }
            if lines.first?.isEmpty == true { lines.removeFirst() }
            return lines.joined(separator: "\n")
        }

        static func write(_ text: String, to file: URL) throws(FolioError) {
            do { try Data(text.utf8).write(to: file) } catch {
                throw .fileSystem(path: file.path, operation: "write", reason: error.localizedDescription)
            }
        }

        /// Runs `$VISUAL`, else `$EDITOR`, else `vi`, on a file and waits for it; the
        /// variable may carry arguments (`code --wait`), run through the shell as git does.
        static func openEditor(on path: String) throws(FolioError) {
            let environment = ProcessInfo.processInfo.environment
            let editor = environment["VISUAL"].flatMap { $0.isEmpty ? nil : $0 } ?? environment["EDITOR"].flatMap { $0.isEmpty ? nil : $0 } ?? "vi"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "\(editor) \"$1\"", editor, path]
            do { try process.run() } catch {
                throw .invalidArgument("could not start the editor \(editor): \(error.localizedDescription); set EDITOR")
            }
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw .invalidArgument("the editor \(editor) exited with status \(process.terminationStatus); nothing saved")
            }
        }
    }
}
