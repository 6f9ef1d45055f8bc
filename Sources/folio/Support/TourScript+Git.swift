import FolioCore
import Foundation

extension TourScript {
    /// The tour's git part: two clones of one repository edit the same timer, `folio sync`
    /// merges edits to different properties, and a real conflict is settled with
    /// `folio resolve`. Git runs with a home of its own in the tour's folder, so the
    /// person's own git settings neither change it nor are changed.
    func gitTour() throws(FolioError) {
        section(
            "Folio's documents are made for git. Alice and Bob each clone one repository holding the Timer store; `folio git install` sets up Folio's merge driver in each clone:"
        )
        let home = folder + "/home"
        do { try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true) } catch {
            throw .fileSystem(path: home, operation: "make the tour's git home", reason: error.localizedDescription)
        }
        // The merge driver `folio git install` records is the `folio` on the PATH when it is
        // this program. This binary is likely in a build folder, which git install refuses: a
        // rebuild replaces it. The clones last as long as the tour, and so does this copy.
        let bin = folder + "/bin"
        do {
            try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Self.executable, toPath: bin + "/folio")
        } catch {
            throw .fileSystem(path: bin, operation: "copy the folio tool for git", reason: error.localizedDescription)
        }
        let environment = [
            "HOME": home, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": home + "/.gitconfig",
            "GIT_AUTHOR_NAME": "Alice", "GIT_AUTHOR_EMAIL": "alice@example.invalid",
            "GIT_COMMITTER_NAME": "Alice", "GIT_COMMITTER_EMAIL": "alice@example.invalid",
            "PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
        ]
        let bob = environment.merging([
            "GIT_AUTHOR_NAME": "Bob", "GIT_COMMITTER_NAME": "Bob", "GIT_AUTHOR_EMAIL": "bob@example.invalid",
        ]) {
            $1
        }
        guard try show(["--version"], program: "git", environment: environment) == 0 else {
            return Terminal.print("(git is not installed here, so the tour skips this part)")
        }
        try show(
            ["init", "-q", "--bare", "--initial-branch=main", "shared.git"], program: "git", environment: environment)
        try show(["clone", "-q", "shared.git", "alice"], program: "git", environment: environment)
        do {
            try FileManager.default.copyItem(atPath: folder + "/Data/TimerApp", toPath: folder + "/alice/Timers")
        } catch {
            throw .fileSystem(
                path: folder + "/alice", operation: "copy the Timer store", reason: error.localizedDescription)
        }
        Terminal.print("\n" + Terminal.colour("$ cp -R Data/TimerApp alice/Timers", 33))
        try show(["git", "install"], in: "alice/Timers", environment: environment)
        try show(["add", "--all"], program: "git", in: "alice", environment: environment)
        try show(["commit", "-q", "-m", "The Timer store"], program: "git", in: "alice", environment: environment)
        try show(["tag", "first"], program: "git", in: "alice", environment: environment)
        try show(["push", "-q", "origin", "main"], program: "git", in: "alice", environment: environment)
        try show(["clone", "-q", "shared.git", "bob"], program: "git", environment: bob)
        try show(["git", "install"], in: "bob/Timers", environment: bob)

        let store = try DocumentStore.open(at: folder + "/alice/Timers")
        guard let workout = store.documents(entity: "Timer").first(where: { $0.content["name"] == "Workout" })?.path
        else {
            throw .notFound("the Timer store holds no timer named Workout")
        }
        let path = workout.relativePath
        section("Alice adds a note to the Workout timer and syncs (commit, pull, check, push):")
        try show(["set", path, "notes=Stretch first"], in: "alice/Timers", environment: environment)
        try show(["sync"], in: "alice/Timers", environment: environment)
        section("Bob changes the same timer's duration. His sync merges the two edits property by property:")
        try show(["set", path, "durationInSeconds=1800"], in: "bob/Timers", environment: bob)
        try show(["sync"], in: "bob/Timers", environment: bob)
        try show(["get", path, "--format", "json"], in: "bob/Timers", environment: bob)

        section(
            "Both rename the timer, differently: a real conflict. Git stops, and the document says what each side wanted:"
        )
        try show(["pull", "-q"], program: "git", in: "alice", environment: environment)
        try show(["set", path, "name=Morning workout"], in: "alice/Timers", environment: environment)
        try show(["sync"], in: "alice/Timers", environment: environment)
        try show(["set", path, "name=Gym"], in: "bob/Timers", environment: bob)
        try show(["sync"], in: "bob/Timers", environment: bob)
        try show(["get", path, "--format", "json"], in: "bob/Timers", environment: bob)
        section("Bob keeps Alice's name with folio resolve, and syncs again; Alice pulls it:")
        try show(["resolve", path, "--theirs"], in: "bob/Timers", environment: bob)
        try show(["sync"], in: "bob/Timers", environment: bob)
        try show(["pull", "-q"], program: "git", in: "alice", environment: environment)
        try show(
            ["query", "Timer", "durationInSeconds == 1800", "--fields", "name,notes,durationInSeconds"],
            in: "alice/Timers", environment: environment)
        try show(["log", "--oneline"], program: "git", in: "alice", environment: environment)

        section(
            "Git keeps every version of every record, and Folio reads them back by property: the timer's history, newest first, and what changed since the first commit:"
        )
        try show(["log", path], in: "alice/Timers", environment: environment)
        try show(["diff", "first", "Timer"], in: "alice/Timers", environment: environment)
        section("And a value comes back as a new change, checked like any edit: Alice restores the first name.")
        try show(
            ["restore", path, "--from", "first", "--property", "name"], in: "alice/Timers", environment: environment)
        try show(["diff", "Timer"], in: "alice/Timers", environment: environment)
    }
}
