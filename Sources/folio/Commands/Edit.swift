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
                An edit that does not parse or breaks the schema is never saved: the editor \
                opens again with the error at the top, as // lines. Save the file unchanged \
                (or empty it) to give up. If the document changed on disk meanwhile, the save \
                is refused as a conflict; with --if-unchanged, so is a document whose revision \
                is no longer the one given. The copy being edited is kept in a folder only you \
                can read, and removed when the tool ends.

                Example:
                  EDITOR=nano folio edit 0F6C1E2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B

                \(Failure.helpText)
                """)

        @OptionGroup var store: StoreOptions

        @Argument(help: ArgumentHelp("The document's UUID or path.", valueName: "uuid-or-path"))
        var document: String

        @OptionGroup var condition: RevisionCondition

        func run() throws {
            try Failure.reporting {
                let store = try store.open()
                guard let stored = try DocumentTarget.document(document, in: store) else {
                    throw FolioError.invalidInput("\(document) is neither a UUID nor a document path")
                }
                try condition.check(stored, in: store)
                // The copy being edited is the user's data: it lives in a folder only this user can
                // enter, and goes when the tool ends, however it ends (but for SIGKILL).
                let scratch = try ScratchFolder(purpose: "edit")
                let file = scratch.path(of: stored.id.uuidString + ".json")
                InterruptCleanup.install(file: file, folder: scratch.path)
                defer {
                    scratch.remove()
                    InterruptCleanup.uninstall()
                }
                var text = try RecordPrinter.text(.object(stored.content)) + "\n"
                let original = text
                while true {
                    try Self.write(text, to: file)
                    try Self.openEditor(on: file)
                    let edited = try Self.read(file)
                    if edited == Array(text.utf8) || edited.allSatisfy({ [0x20, 0x0A, 0x0D, 0x09].contains($0) }) {
                        Terminal.printError(text == original ? "No change; nothing saved." : "Gave up; nothing saved.")
                        if text != original { throw ExitCode(Failure.Code.data.rawValue) }
                        return
                    }
                    // Bytes, not text, go to the reader: an edit that is not UTF-8 is an error at its
                    // line and column, never read as nothing.
                    let body = Self.withoutErrorLines(edited)
                    do {
                        let content: JSONObject
                        do {
                            guard let object = try JSONReader().read(body, file: stored.path.relativePath).objectValue
                            else {
                                throw FolioError.invalidDocument(
                                    path: stored.path.relativePath, reason: "a document must be a JSON object")
                            }
                            content = object
                        } catch let error as JSONError {
                            throw FolioError.unreadableJSON(error)
                        }
                        let next = try store.document(stored, replacingWith: content)
                        let summary = try store.commit(
                            store.changes(putting: next, over: stored), author: FolioCommand.author)
                        Terminal.print(
                            summary.written == 0
                                ? "No change; nothing saved."
                                : "Saved \(summary.versions.keys.map(\.relativePath).sorted().joined(separator: ", "))")
                        return
                    } catch let error as FolioError {
                        if error.kind == .conflict { throw error }
                        Terminal.printError("\(lines: error.description)")
                        let lines = error.description.split(separator: "\n").map { "// " + $0 }
                        // Bytes that are not UTF-8 come back as U+FFFD, so the editor shows where they were.
                        text =
                            (lines + ["// Fix the document below and save; save it unchanged to give up.", ""]).joined(
                                separator: "\n") + String(decoding: body, as: UTF8.self)
                    }
                }
            }
        }

        /// The bytes without the `//` lines the tool put at their top.
        static func withoutErrorLines(_ bytes: [UInt8]) -> [UInt8] {
            var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
            func isComment(_ line: ArraySlice<UInt8>) -> Bool { line.starts(with: [0x2F, 0x2F]) }
            while let first = lines.first, isComment(first) || (first.isEmpty && lines.count > 1 && isComment(lines[1]))
            { lines.removeFirst() }
            if lines.first?.isEmpty == true { lines.removeFirst() }
            return Array(lines.joined(separator: [0x0A]))
        }

        static func read(_ file: String) throws(FolioError) -> [UInt8] {
            do { return [UInt8](try Data(contentsOf: URL(fileURLWithPath: file))) } catch {
                throw .fileSystem(path: file, operation: "read the edited document", reason: error.localizedDescription)
            }
        }

        static func write(_ text: String, to file: String) throws(FolioError) {
            do { try Data(text.utf8).write(to: URL(fileURLWithPath: file)) } catch {
                throw .fileSystem(path: file, operation: "write", reason: error.localizedDescription)
            }
        }

        /// Runs `$VISUAL`, else `$EDITOR`, else `vi`, on a file and waits for it; the
        /// variable may carry arguments (`code --wait`), run through the shell as git does.
        static func openEditor(on path: String) throws(FolioError) {
            let environment = ProcessInfo.processInfo.environment
            let editor =
                environment["VISUAL"].flatMap { $0.isEmpty ? nil : $0 } ?? environment["EDITOR"].flatMap {
                    $0.isEmpty ? nil : $0
                } ?? "vi"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "\(editor) \"$1\"", editor, path]
            do { try process.run() } catch {
                throw .externalProgram(
                    "could not start the editor \(editor): \(error.localizedDescription); set EDITOR")
            }
            InterruptCleanup.ignoreTerminalInterrupts(true)
            process.waitUntilExit()
            InterruptCleanup.ignoreTerminalInterrupts(false)
            if process.terminationReason == .uncaughtSignal {
                throw .externalProgram(
                    "the editor \(editor) was stopped by signal \(process.terminationStatus); nothing saved")
            }
            guard process.terminationStatus == 0 else {
                throw .externalProgram(
                    "the editor \(editor) exited with status \(process.terminationStatus); nothing saved")
            }
        }
    }
}
