import ArgumentParser
import FolioCore
import FolioJSON
import Foundation

extension FolioCommand {
    /// `folio edit`: a document in `$EDITOR`, checked before it is saved.
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Open a document in $EDITOR; save it only when it parses and fits the schema.",
            discussion: """
                An edit that does not parse or breaks the schema is never saved: the editor \
                opens again with the error at the top, as // lines. Save the file unchanged \
                (or empty it) to give up. If the document changed on disk meanwhile, the save \
                is refused as a conflict; with --if-unchanged, so is a document whose revision \
                is no longer the one given. The copy being edited is kept in a folder only you \
                can read, and removed when the tool ends.

                The editor runs in the terminal's foreground, as git runs it: ^C and ^\\ are the \
                editor's while it runs. An editor that is interrupted, exits with an error (vi's \
                :cq) or is killed gives the edit up, and nothing is saved. VISUAL or EDITOR may \
                hold arguments (EDITOR="code --wait"); such a value runs through sh -c, as git \
                runs it.

                Example:
                  EDITOR=nano folio edit 0F6C1E2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B

                \(Failure.commandHelpText(also: "69 git or the editor failed"))
                """)

        @OptionGroup var store: StoreOptions

        @Argument(
            help: ArgumentHelp(
                "The document's id (a UUID, or its first 4 or more digits, as a table shows it) or path.",
                valueName: "id-or-path"))
        var document: String

        @OptionGroup var condition: RevisionCondition

        func run() throws {
            try Failure.reporting {
                let store = try store.open()
                guard let stored = try DocumentTarget.document(document, in: store) else {
                    throw FolioError.invalidInput(
                        "\(document) is neither a document's id (a UUID, or its first 4 or more digits) nor a document path"
                    )
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
                    try Self.openEditor(on: file, document: stored.path.relativePath)
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
                        let changes = store.changes(putting: next, over: stored)
                        let summary = try UniqueRefusal.commit(
                            changes, in: store,
                            hint: "give a value no other document holds, or change the other document first")
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

        /// Runs `$VISUAL`, else `$EDITOR`, else `vi`, on a file and waits for it, in the terminal's
        /// foreground as git runs its editor: ^C and ^\ are the editor's while it runs. Throws
        /// when it exits with an error or a signal ends it (`InterruptedChild` for ^C and ^\),
        /// each error saying the document, `document`, is unchanged.
        static func openEditor(on file: String, document: String) throws {
            let environment = ProcessInfo.processInfo.environment
            let editor =
                environment["VISUAL"].flatMap { $0.isEmpty ? nil : $0 } ?? environment["EDITOR"].flatMap {
                    $0.isEmpty ? nil : $0
                } ?? "vi"
            let arguments = command(editor, on: file)
            let child = ForegroundChild(arguments: arguments, interrupts: .leftToTheProgram)
            let unchanged = "nothing was saved, the document is unchanged"
            var ending: ForegroundChild.Ending
            do { ending = try child.run() } catch {
                throw FolioError(
                    .externalProgram,
                    "could not \(error.operation) the editor '\(editor)': \(error.reason); \(unchanged)",
                    path: document,
                    hint: "set VISUAL or EDITOR to an editor installed here (EDITOR=nano, EDITOR=\"code --wait\")")
            }
            // The shell tells an editor's death by a signal as 128 and the signal.
            if arguments.first == "/bin/sh", case .exited(let status) = ending, status > 128, status < 128 + 65 {
                ending = .signalled(status - 128)
            }
            if let signal = ending.interrupt {
                let key = signal == SIGINT ? "^C" : "^\\"
                throw InterruptedChild(
                    error: FolioError(
                        .externalProgram, "the editor '\(editor)' was interrupted (\(key)); \(unchanged)",
                        path: document,
                        hint: "run folio edit again to start over"),
                    signal: signal)
            }
            let hint =
                switch ending {
                case .exited(0): String?.none
                case .exited(127):
                    "the shell found no such program (its message is above); set VISUAL or EDITOR to an editor installed here"
                case .exited:
                    "quit the editor normally to save an edit (in vi, :wq); one that exits with an error (vi's :cq) gives it up"
                case .signalled: "the editor did not finish (it crashed, or was killed); run folio edit again"
                }
            guard let hint else { return }
            throw FolioError(
                .externalProgram, "the editor '\(editor)' \(ending.description), which gives the edit up: \(unchanged)",
                path: document, hint: hint)
        }

        /// What runs the editor on `file`, as git runs it: a command of one plain word (`vim`, a
        /// path) itself; any other (`code --wait`, `vim -u NONE`) through `sh -c`, the file after it
        /// as `"$@"`, a parameter the shell never reads as code, whatever the path holds.
        static func command(_ editor: String, on file: String) -> [String] {
            let shellCharacters = "|&;<>()$`\\\"' \t\n*?[#~=%"
            guard editor.contains(where: { shellCharacters.contains($0) }) else { return [editor, file] }
            // The trap keeps the shell waiting through a ^C the editor takes and goes on from
            // (ed, a script that traps it): without one dash dies of SIGINT once the editor has
            // exited, and its saved edit would be taken for an interrupted one. The editor starts
            // with the default SIGINT all the same (a trapped signal is reset by exec).
            return ["/bin/sh", "-c", "trap : INT QUIT; " + editor + " \"$@\"", editor, file]
        }
    }
}
