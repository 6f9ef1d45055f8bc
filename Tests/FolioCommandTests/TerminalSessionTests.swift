import FolioTestSupport
import Foundation
import Testing

/// The tool on a real (pseudo-)terminal, as a person runs it: `edit`'s editor and `sync`'s git
/// run in the terminal's foreground, so they can read the terminal, change its modes and take its ^C,
/// where a background job would be stopped by the kernel and the tool would wait forever.
@Suite(.enabled(if: TerminalSession.installed("python3"), "needs python3, whose pty module drives a terminal"))
struct TerminalSessionTests {
    /// The text of a document of the store.
    func text(of path: String, in store: TimerStore) throws -> String {
        try String(contentsOfFile: store.root + "/" + path, encoding: .utf8)
    }

    @Test func anEditorThatReadsTheTerminalAndChangesItsModesIsNotStoppedAndItsEditIsSaved() throws {
        let store = try TimerStore()
        let id = try store.id(of: "Timer", where: "name == \"Workout\"")
        let path = try store.path(of: id)
        let before = try text(of: path, in: store)
        // As a password prompt does: echo off, a question on the terminal, the answer read from it.
        let folio = try store.folio(
            editor: """
                stty -echo < /dev/tty
                printf 'New name? ' > /dev/tty
                read -r name < /dev/tty
                stty echo < /dev/tty
                sed -i "s/\\"Workout\\"/\\"$name\\"/" "$1"
                """)
        let session = try TerminalSession(folio, ["edit", id], steps: [.expect("New name? "), .send("Gym\n")])
        #expect(session.exited(0), "\(session.ending) \(session.code): \(session.transcript)")
        #expect(session.transcript.contains("Saved " + path))
        #expect(try text(of: path, in: store) == before.replacingOccurrences(of: "\"Workout\"", with: "\"Gym\""))
    }

    /// How the test names its editor: by its path, which the tool runs itself, or with an
    /// argument, which makes the tool run it through `sh -c` as git does.
    enum EditorNaming: CaseIterable {
        case byPath
        case withAnArgument
    }

    @Test(arguments: EditorNaming.allCases)
    func controlCWhileTheEditorRunsReachesItAndEndsTheToolWithTheDocumentUnchanged(naming: EditorNaming) throws {
        let store = try TimerStore()
        let id = try store.id(of: "Timer", where: "name == \"Workout\"")
        let path = try store.path(of: id)
        let before = try text(of: path, in: store)
        // The editor changes the copy, then waits on the terminal; on ^C it records that it got
        // it and dies of it, as an editor that takes no ^C of its own does. It reads with the
        // shell's own `read`: a ^C between the fork and the exec of a program it ran would be lost.
        var folio = try store.folio(
            editor: """
                folder="$(dirname "$0")"
                for file; do :; done
                echo "$file" > "$folder/edited-path"
                sed -i 's/"Workout"/"Changed"/' "$file"
                trap 'echo > "$folder/editor-got-interrupt"; trap - INT; kill -INT $$' INT
                printf 'New name? ' > /dev/tty
                read -r line < /dev/tty
                echo > "$folder/editor-went-on"
                """)
        if naming == .withAnArgument { folio.environment["EDITOR", default: ""] += " --wait" }
        // ^C again while nothing comes of it, as a person would: a ^C in the instant between
        // the shell's check for traps and its `read` blocking is taken and then waits, with the
        // trap, for a line that never comes (dash's `read` is broken off only by a later one).
        let session = try TerminalSession(
            folio, ["edit", id],
            steps: [.expect("New name? "), .sendUntil("\u{3}", shows: "was interrupted (^C)")])
        // The tool says so, then ends as the interrupt would have ended it, as git does.
        #expect(session.signalled(SIGINT), "\(session.ending) \(session.code): \(session.transcript)")
        #expect(session.transcript.contains("was interrupted (^C); nothing was saved, the document is unchanged"))
        #expect(FileManager.default.fileExists(atPath: store.folder("editor-got-interrupt")))
        #expect(!FileManager.default.fileExists(atPath: store.folder("editor-went-on")))
        #expect(try text(of: path, in: store) == before)
        let copy = try String(contentsOfFile: store.folder("edited-path"), encoding: .utf8)
        #expect(!FileManager.default.fileExists(atPath: copy.trimmingCharacters(in: .newlines)))
    }

    @Test func anEditorThatTakesControlCAndGoesOnKeepsItsEditThroughTheShell() throws {
        let store = try TimerStore()
        let id = try store.id(of: "Timer", where: "name == \"Workout\"")
        let path = try store.path(of: id)
        let before = try text(of: path, in: store)
        // Named with an argument, the editor runs under `sh -c`, which gets the ^C as well: it
        // must wait for the editor and exit as the editor does, not die of the interrupt.
        // `noflsh`: the kernel flushes a terminal's output just after it sends a ^C's signal,
        // which could discard the trap's reply when the editor is quicker than the flush.
        var folio = try store.folio(
            editor: """
                stty noflsh < /dev/tty
                for file; do :; done
                trap 'printf "(^C taken) New name? " > /dev/tty' INT
                printf 'New name? ' > /dev/tty
                name=""
                while [ -z "$name" ]; do read -r name < /dev/tty; done
                sed -i "s/\\"Workout\\"/\\"$name\\"/" "$file"
                """)
        folio.environment["EDITOR", default: ""] += " --wait"
        let session = try TerminalSession(
            folio, ["edit", id],
            steps: [.expect("New name? "), .send("\u{3}"), .expect("(^C taken) New name? "), .send("Gym\n")])
        #expect(session.exited(0), "\(session.ending) \(session.code): \(session.transcript)")
        #expect(session.transcript.contains("Saved " + path))
        #expect(try text(of: path, in: store) == before.replacingOccurrences(of: "\"Workout\"", with: "\"Gym\""))
    }

    @Test(.enabled(if: TerminalSession.installed("vim"), "needs vim"))
    func vimWithArgumentsEditsByKeystrokesAndAControlCInItCostsNoEdit() throws {
        let store = try TimerStore()
        let id = try store.id(of: "Timer", where: "name == \"Workout\"")
        let path = try store.path(of: id)
        let before = try text(of: path, in: store)
        let home = try TemporaryDirectory()
        let folio = FolioTool(
            folder: store.root, environment: ["EDITOR": "vim -u NONE -i NONE -N", "VISUAL": "", "HOME": home.path])
        // Vim drops the keys that come while it handles a ^C, which can outlast its answer to it on
        // a loaded machine: the substitution is typed again until the changed line shows (vim redraws
        // it from the change on: `Gym",`).
        let session = try TerminalSession(
            folio, ["edit", id],
            steps: [
                .expect("Workout"), .send("\u{3}"), .expect(":qa"),
                .sendUntil(":%s/Workout/Gym/\r", shows: "Gym\","), .send(":wq\r"),
            ])
        #expect(session.exited(0), "\(session.ending) \(session.code): \(session.transcript)")
        #expect(session.transcript.contains("Saved " + path))
        #expect(try text(of: path, in: store) == before.replacingOccurrences(of: "\"Workout\"", with: "\"Gym\""))
    }

    @Test(.enabled(if: TerminalSession.installed("vi"), "needs vi"))
    func withNoEditorSetViOpensOnTheTerminalAndItsEditIsSaved() throws {
        let store = try TimerStore()
        let id = try store.id(of: "Timer", where: "name == \"Workout\"")
        let path = try store.path(of: id)
        let before = try text(of: path, in: store)
        let home = try TemporaryDirectory()
        let session = try TerminalSession(
            FolioTool(folder: store.root), ["edit", id],
            steps: [.expect("Workout"), .send(":%s/Workout/Gym/\r"), .send(":wq\r")],
            environment: ["EDITOR": nil, "VISUAL": nil, "HOME": home.path])
        #expect(session.exited(0), "\(session.ending) \(session.code): \(session.transcript)")
        #expect(session.transcript.contains("Saved " + path))
        #expect(try text(of: path, in: store) == before.replacingOccurrences(of: "\"Workout\"", with: "\"Gym\""))
    }

    /// A clone of an origin with the driver installed, a new timer to sync, and `origin` as
    /// its remote reached over "ssh": a stand-in that asks for a passphrase on the terminal,
    /// with echo off, as ssh does, then runs the git command it was given here. The
    /// environment to add to the tool's names the stand-in.
    func cloneBehindAPassphrase(of origin: GitSyncTests.Origin) throws -> (FolioTool, [String: String?]) {
        let (clone, folio) = try cloneWithANewTimer(of: origin, named: "a")
        let ssh = try origin.folder.create(
            "ssh",
            contents: Array(
                """
                #!/bin/sh
                stty -echo < /dev/tty
                printf 'Enter passphrase for key: ' > /dev/tty
                read -r answer < /dev/tty
                stty echo < /dev/tty
                printf '\\n' > /dev/tty
                [ "$answer" = "open sesame" ] || { echo "Permission denied" >&2; exit 255; }
                shift
                exec sh -c "$*"

                """.utf8))
        chmod(ssh, 0o755)
        try clone.git("remote", "set-url", "origin", "somewhere:" + origin.folder("origin"))
        return (folio, ["GIT_SSH_COMMAND": ssh, "GIT_SSH_VARIANT": "simple"])
    }

    @Test func syncWhoseGitAsksOnTheTerminalGetsItsAnswerAndPushes() throws {
        let origin = try GitSyncTests.Origin(bare: true)
        let (folio, environment) = try cloneBehindAPassphrase(of: origin)
        // Asked twice: by the pull, then by the push.
        let session = try TerminalSession(
            folio, ["sync"],
            steps: [.expect("passphrase"), .send("open sesame\n"), .expect("passphrase"), .send("open sesame\n")],
            environment: environment)
        #expect(session.exited(0), "\(session.ending) \(session.code): \(session.transcript)")
        #expect(session.transcript.contains("Pushed; the store is in sync"))
        #expect(try origin.origin.git("log", "-1", "--format=%s") == "folio sync: Timer +1 ~0 -0\n")
    }

    @Test func controlCAtGitsPromptEndsGitAndTheSyncAndPushesNothing() throws {
        let origin = try GitSyncTests.Origin(bare: true)
        var (folio, environment) = try cloneBehindAPassphrase(of: origin)
        // The files git's output goes to are made in the tool's temporary folder: none is left.
        let temporary = origin.folder("temporary")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        environment["TMPDIR"] = temporary
        let session = try TerminalSession(
            folio, ["sync"], steps: [.expect("passphrase"), .send("\u{3}")], environment: environment)
        #expect(session.signalled(SIGINT), "\(session.ending) \(session.code): \(session.transcript)")
        #expect(try origin.origin.git("log", "-1", "--format=%s") == "base\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary) == [])
    }
}

extension TerminalSessionTests {
    /// A clone of origin with the merge driver installed and a new timer in its store, not yet committed.
    func cloneWithANewTimer(of origin: GitSyncTests.Origin, named name: String) throws -> (GitClone, FolioTool) {
        let clone = try origin.clone(name)
        let folio = origin.folio(in: clone)
        #expect(try folio("git", "install").status == 0)
        try insertTimer(named: "New in " + name, with: folio)
        return (clone, folio)
    }

    /// Inserts a timer with this name through the tool.
    func insertTimer(named name: String, with folio: FolioTool) throws {
        let inserted = try folio(
            "insert", "Timer", "name=\(name)", "durationInSeconds=60", "createdAt=2026-11-20T10:00:00Z")
        #expect(inserted.status == 0, "\(inserted.errors)")
    }

    @Test func syncOnATerminalShowsGitsOwnProgressAndWithoutOneStaysQuiet() throws {
        let origin = try GitSyncTests.Origin(bare: true)
        let (_, folio) = try cloneWithANewTimer(of: origin, named: "a")
        // Another clone pushes meanwhile, so the pull has objects to receive too.
        let (_, theirs) = try cloneWithANewTimer(of: origin, named: "b")
        #expect(try theirs("sync").status == 0)

        let session = try TerminalSession(folio, ["sync"], steps: [.expect("Pushed")])
        #expect(session.exited(0), "\(session.ending) \(session.code): \(session.transcript)")
        // The pull's meters (the remote's, for one on this machine), then the push's.
        #expect(session.transcript.contains("remote: Counting objects: 100%"), "\(session.transcript)")
        #expect(session.transcript.contains("Writing objects: 100%"), "\(session.transcript)")
        #expect(session.transcript.contains("Pushed; the store is in sync"))
        // What git says besides its meters ("From …", "To …") is not copied.
        for said in ["From ", "To "] {
            #expect(!session.transcript.contains(said + origin.folder("origin")), "\(session.transcript)")
        }

        // Without a terminal (a script, a log), git is not asked for its meters.
        try insertTimer(named: "In a pipe", with: folio)
        let piped = try folio("sync")
        #expect(piped.status == 0, "\(piped.errors)")
        #expect(!piped.errors.contains("objects:"), "\(piped.errors)")
        #expect(try origin.origin.git("log", "-1", "--format=%s") == "folio sync: Timer +1 ~0 -0\n")
    }
}
