import FolioTestSupport
import Foundation
import Testing

/// `folio edit` with what an editor and a terminal can do to it: bytes that are not
/// UTF-8, other users on the machine, ^C and a closed terminal.
struct EditSafetyTests {
    @Test func anEditThatIsNotUTF8ReopensWithItsPositionAndIsNeverDropped() throws {
        let store = try TimerStore()
        let id = try store.id(of: "Timer", where: "name == \"Coffee Break\"")
        let path = try store.path(of: id)
        let before = try String(contentsOfFile: store.root + "/" + path, encoding: .utf8)
        // First run: a Latin-1 byte in the name. Second run: the tool's comments are gone and the name is fixed.
        let folio = try store.folio(
            editor: """
                log="$(dirname "$0")/editor.log"
                echo run >> "$log"
                if [ "$(wc -l < "$log")" -eq 1 ]; then
                  sed -i 's/"Coffee Break"/"Caf\\xe9 Break"/' "$1"
                else
                  cp "$1" "$(dirname "$0")/second-opening.json"
                  grep -v '^//' "$1" | sed 's/"Caf.* Break"/"Cafe Break"/' > "$1.new" && mv "$1.new" "$1"
                fi
                """)
        let run = try folio("edit", id)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.errors.contains("UTF-8"), "\(run.errors)")
        #expect(!run.errors.contains("No change"))
        let reopened = try String(contentsOfFile: store.folder("second-opening.json"), encoding: .utf8)
        #expect(reopened.hasPrefix("// "))
        #expect(reopened.contains("\"Caf\u{FFFD} Break\""))
        let after = try String(contentsOfFile: store.root + "/" + path, encoding: .utf8)
        #expect(after == before.replacingOccurrences(of: "\"Coffee Break\"", with: "\"Cafe Break\""))
    }

    @Test func theCopyBeingEditedIsPrivateAndGoesWithTheTool() throws {
        let store = try TimerStore()
        let id = try store.id(of: "Timer", where: "name == \"Workout\"")
        let folio = try store.folio(
            editor: """
                echo "$1" > "$(dirname "$0")/edited-path"
                stat -c %a "$(dirname "$1")" > "$(dirname "$0")/folder-mode"
                """)
        #expect(try folio("edit", id).status == 0)
        let file = try String(contentsOfFile: store.folder("edited-path"), encoding: .utf8).trimmingCharacters(
            in: .newlines)
        #expect(try String(contentsOfFile: store.folder("folder-mode"), encoding: .utf8) == "700\n")
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(!FileManager.default.fileExists(atPath: URL(fileURLWithPath: file).deletingLastPathComponent().path))
    }

    @Test func interruptsGoToTheEditorAndATerminatedToolLeavesNoCopy() throws {
        let store = try TimerStore()
        let id = try store.id(of: "Timer", where: "name == \"Workout\"")
        // The editor says where it is, then waits for the test's go-ahead, changing nothing. It
        // also ends when the test's folder is gone: an editor whose tool was killed may miss a
        // go-ahead the next start removes, and waited on forever.
        let folio = try store.folio(
            editor: """
                echo "$1" > "$(dirname "$0")/edited-path.new" && mv "$(dirname "$0")/edited-path.new" "$(dirname "$0")/edited-path"
                while [ ! -e "$(dirname "$0")/go" ] && [ -d "$(dirname "$0")" ]; do sleep 0.05; done
                """)
        func start() throws -> Process {
            try? FileManager.default.removeItem(atPath: store.folder("edited-path"))
            try? FileManager.default.removeItem(atPath: store.folder("go"))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: FolioTool.path)
            process.arguments = ["edit", id]
            process.currentDirectoryURL = URL(fileURLWithPath: store.root)
            process.environment = ProcessInfo.processInfo.environment.merging(folio.environment) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        func editedPath() throws -> String {
            for _ in 0..<400 {
                if let text = try? String(contentsOfFile: store.folder("edited-path"), encoding: .utf8) {
                    return text.trimmingCharacters(in: .newlines)
                }
                usleep(25_000)
            }
            throw EditorNeverStarted()
        }

        /// Waits up to ten seconds for the tool to end; kills it if it does not, so a failure cannot hang the suite.
        func ended(_ process: Process) -> Bool {
            for _ in 0..<400 where process.isRunning { usleep(25_000) }
            guard process.isRunning else { return true }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return false
        }
        // The editors end whatever happens to the test.
        defer { _ = FileManager.default.createFile(atPath: store.folder("go"), contents: nil) }

        // ^C while the editor runs is the editor's: the tool waits on, and ends as the editor does.
        let interrupted = try start()
        let first = try editedPath()
        kill(interrupted.processIdentifier, SIGINT)
        usleep(300_000)
        #expect(interrupted.isRunning)
        _ = FileManager.default.createFile(atPath: store.folder("go"), contents: nil)
        #expect(ended(interrupted))
        #expect(interrupted.terminationReason == .exit && interrupted.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: first))

        // Told to stop, or losing its terminal, the tool removes the copy and dies of the signal.
        for signal in [SIGTERM, SIGHUP] {
            let stopped = try start()
            let file = try editedPath()
            #expect(FileManager.default.fileExists(atPath: file))
            kill(stopped.processIdentifier, signal)
            #expect(ended(stopped))
            _ = FileManager.default.createFile(atPath: store.folder("go"), contents: nil)
            #expect(stopped.terminationReason == .uncaughtSignal && stopped.terminationStatus == signal)
            #expect(!FileManager.default.fileExists(atPath: file))
            #expect(
                !FileManager.default.fileExists(atPath: URL(fileURLWithPath: file).deletingLastPathComponent().path))
        }
    }

    @Test(arguments: [("exit 3", "exited with status 3"), ("kill -KILL $$", "was ended by signal 9 (Killed)")])
    func anEditorThatFailsGivesTheEditUpAndLeavesTheDocumentUnchanged(ending: String, message: String) throws {
        let store = try TimerStore()
        let id = try store.id(of: "Timer", where: "name == \"Workout\"")
        let path = try store.path(of: id)
        let before = try Data(contentsOf: URL(fileURLWithPath: store.root + "/" + path))
        // The copy is changed and saved, then the editor fails: vi's :cq after :w, or a crash.
        let folio = try store.folio(
            editor: """
                sed -i 's/"Workout"/"Changed"/' "$1"
                \(ending)
                """)
        let run = try folio("edit", id)
        #expect(run.status == 69, "\(run.errors)")
        #expect(run.errors.contains("\(path): error: the editor "), "\(run.errors)")
        #expect(
            run.errors.contains(message + ", which gives the edit up: nothing was saved, the document is unchanged"))
        #expect(run.errors.contains("hint: "))
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.root + "/" + path)) == before)
    }

    @Test func anEditorWithArgumentsRunsThroughTheShellAndTheFilesPathIsNeverReadAsCode() throws {
        let store = try TimerStore()
        let id = try store.id(of: "Timer", where: "name == \"Workout\"")
        let path = try store.path(of: id)
        var folio = try store.folio(
            editor: """
                for argument; do echo "$argument"; done > "$(dirname "$0")/arguments"
                for file; do :; done
                sed -i 's/"Workout"/"Tea"/' "$file"
                """)
        // The copy's folder is in a temporary folder whose name the shell would read as code.
        let temporary = store.folder("it's $(touch pwned); *")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        folio.environment["TMPDIR"] = temporary
        folio.environment["EDITOR", default: ""] += " --wait -c 'set x'"
        let run = try folio("edit", id)
        #expect(run.status == 0, "\(run.errors)")
        let arguments = try String(contentsOfFile: store.folder("arguments"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        #expect(arguments.dropLast() == ["--wait", "-c", "set x"])
        #expect(arguments.last?.hasPrefix(temporary + "/folio-edit-") == true, "\(arguments)")
        #expect(arguments.last?.hasSuffix("/" + id + ".json") == true, "\(arguments)")
        for folder in [store.root, store.folder.path, temporary] {
            #expect(!FileManager.default.fileExists(atPath: folder + "/pwned"))
        }
        let after = try String(contentsOfFile: store.root + "/" + path, encoding: .utf8)
        #expect(after.contains("\"name\": \"Tea\""))
    }
}

struct EditorNeverStarted: Error {}
