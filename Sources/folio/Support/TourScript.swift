import FolioCore
import Foundation

/// The tour's steps: each a real `folio` command run in a copy of the example stores,
/// shown as the user would type it, followed by what it printed.
struct TourScript {
    /// The folder holding the copies of `Data/` and `Migrations/`; commands run inside it.
    let folder: String

    func run() throws(FolioError) {
        section(
            """
            Folio keeps SwiftData models as a tree of JSON files, one per model instance:
            <Entity>/<YYYY>/<MM>/<DD>/<UUID>.json beside a folio.json manifest. This tour runs the
            folio tool on a temporary copy of the example stores in Data/ (one per seed app).
            """)
        try show(["info", "--store", "Data/ForestFocus"])
        section("Each model instance is one pretty-printed file, filed under its day:")
        try show(["ls", "Timer", "--store", "Data/TimerApp"])
        let workout = try DocumentStore.open(at: folder + "/Data/TimerApp").documents(entity: "Timer").first {
            $0.content["name"] == "Workout"
        }
        if let workout { try show(["get", workout.path.relativePath, "--store", "Data/TimerApp"]) }
        section(
            """
            Queries are written like Swift. --explain tells how the query ran: a date range reads
            only the day folders it needs.
            """)
        try show([
            "query", "FocusSession", "state == \"completed\" && startTime >= @2026-10-25", "--store",
            "Data/ForestFocus",
            "--sort", "-startTime", "--limit", "5", "--fields", "startTime,state,duration", "--explain",
        ])
        try show([
            "query", "DayEntry", "day >= @2026-10-10 && day < @2026-10-15", "--store", "Data/OneThing", "--fields",
            "day,taskText,completedAt", "--explain",
        ])
        section("Relationships too: the timers with a to-do still open.")
        try show([
            "query", "Timer", "todoItems.any(!isCompleted)", "--store", "Data/TimerApp", "--fields",
            "name,durationInSeconds", "--explain",
        ])
        section("Aggregates, grouped:")
        try show(["aggregate", "FocusSession", "count", "--group-by", "state", "--store", "Data/ForestFocus"])
        try show([
            "aggregate", "FocusSession", "average", "--of", "duration / 60", "--where", "state == \"completed\"",
            "--store", "Data/ForestFocus",
        ])
        section("Deletes are soft: the file stays, marked \"$deleted\", and the Timer's to-dos go with it (cascade).")
        try show(["count", "TodoItem", "--store", "Data/TimerApp"])
        try show(["delete", "Timer", "name == \"Workout\"", "--store", "Data/TimerApp"])
        try show(["count", "TodoItem", "--store", "Data/TimerApp"])
        try show(["restore", "Timer", "name == \"Workout\"", "--store", "Data/TimerApp"])
        try show(["count", "TodoItem", "--store", "Data/TimerApp"])
        section(
            "insert takes values as a person types them: dates as now, today, 2026-11-22 or 2026-11-22 09:30 in the store's time zone; properties with a default take it."
        )
        try show([
            "insert", "TodoItem", "text=Buy tea", "isCompleted=false", "sortOrder=0", "createdAt=now", "updatedAt=now",
            "--store", "Data/TimerApp",
        ])
        section(
            "edit opens a document in $EDITOR and saves it only if it still fits the schema (here the editor is a sed script):"
        )
        let tea = try DocumentStore.open(at: folder + "/Data/TimerApp").documents(entity: "TodoItem").first {
            $0.content["text"] == "Buy tea"
        }
        if let tea {
            let editor = "sed -i 's/Buy tea/Buy green tea/'"
            try show(
                ["edit", tea.path.relativePath, "--store", "Data/TimerApp"],
                environment: ["EDITOR": editor, "VISUAL": ""],
                shown: "EDITOR=\"\(editor)\" folio edit \(tea.path.relativePath) --store Data/TimerApp")
            try show([
                "query", "TodoItem", "text.hasPrefix(\"Buy\")", "--fields", "text,isCompleted", "--store",
                "Data/TimerApp",
            ])
        }
        section(
            "Every write is a transaction in the store's history, with its author (folio for the tool, an app's context names its own; changes found on disk are by external):"
        )
        try show(["history", "--store", "Data/TimerApp"])
        section("Documents are plain files. A hand edit that breaks the schema is caught by check (exit code 1):")
        let broken = try handEdit()
        Terminal.print("$ sed -i 's/\"elapsedSeconds\": \\([0-9]*\\)/\"elapsedSeconds\": \"\\1\"/' \(broken)")
        try show(["check", "--store", "Data/OneThing"])
        section(
            "The Timer app's store is at schema V1; Migrations/TimerApp takes it to V2. First the dry run, as git diff would show it (the tour shows its head and its tail; `folio migrate ... --dry-run | less` pages all of it):"
        )
        try show(
            ["migrate", "--store", "Data/TimerApp", "--plan", "Migrations/TimerApp", "--dry-run"], maximumLines: 40)
        try show(["migrate", "--store", "Data/TimerApp", "--plan", "Migrations/TimerApp"])
        try show(["info", "--store", "Data/TimerApp"])
        try gitTour()
        section("That is Folio: your data as files you can read, diff and review. Run `folio help <command>` for more.")
        Terminal.print("\(lines: Self.pathAdvice)")
    }

    /// Whether `folio` typed in a shell runs this program, and if not, the exact line that
    /// makes it so (the tour never changes the person's files or shell settings itself).
    static var pathAdvice: String {
        if let onPath = Installation.onPath, Installation.isThisProgram(onPath.resolved) {
            return "(This folio is the one on your PATH, at \(onPath.path).)"
        }
        let other = Installation.onPath.map { " (your PATH has another one, at \($0.path))" } ?? ""
        return "This folio is not on your PATH yet\(other); this line puts it there:\n  \(Installation.command())"
    }

    /// Prints a paragraph of the narration, filled to the terminal's width (80 columns off a terminal).
    func section(_ text: String) {
        // A paragraph written across source lines is one paragraph: its line breaks are blanks.
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        let filled = WordWrap.lines(words, width: Terminal.width ?? 80)
        Terminal.print("\n\(Terminal.colour("\(lines: filled.joined(separator: "\n"))", 1))")
    }

    /// Prints the command, runs it, and prints its output (stdout and stderr, as a terminal
    /// would); returns its exit status. `program` is `folio` or `git`, run in `directory`
    /// of the tour's folder with `environment` added; `shown` is how the command is printed.
    @discardableResult
    func show(
        _ arguments: [String], program: String = "folio", in directory: String = "",
        environment: [String: String] = [:],
        shown: String? = nil, maximumLines: Int? = nil
    ) throws(FolioError) -> Int32 {
        let typed = shown ?? (program + " " + arguments.map(Self.quoted).joined(separator: " "))
        // A command run in another folder shows it as a shell prompt would: `alice/Timers $ folio sync`.
        Terminal.print(
            "\n\(Terminal.colour("\(lines: (directory.isEmpty ? "" : directory + " ") + "$ " + typed)", 33))")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program == "folio" ? Self.executable : "/usr/bin/env")
        process.arguments = program == "folio" ? arguments : [program] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory.isEmpty ? folder : folder + "/" + directory)
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch {
            throw .externalProgram("could not run \(Self.executable): \(error.localizedDescription)")
        }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        // A long output keeps its head and its last lines (a summary), the middle elided.
        if let maximumLines, lines.count > maximumLines + 8 {
            lines = lines.prefix(maximumLines) + ["… (\(lines.count - maximumLines - 8) more lines)"] + lines.suffix(8)
        }
        // The commands' output as a terminal would show it: folio's own is safe already, git's may quote a file.
        for line in lines { Terminal.print("\(lines: line)") }
        if process.terminationStatus != 0 { Terminal.print("(exit code \(process.terminationStatus))") }
        return process.terminationStatus
    }

    /// Breaks one OneThing document by hand, as a person in an editor might: a number
    /// written as text. Returns its path.
    private func handEdit() throws(FolioError) -> String {
        let store = try DocumentStore.open(at: folder + "/Data/OneThing")
        guard let document = store.documents(entity: "DayEntry").first else {
            throw .notFound("Data/OneThing holds no DayEntry")
        }
        let path = "Data/OneThing/" + document.path.relativePath
        let file = folder + "/" + path
        do {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            let edited = text.replacing(/"elapsedSeconds": (\d+)/) { "\"elapsedSeconds\": \"\($0.1)\"" }
            try edited.write(toFile: file, atomically: true, encoding: .utf8)
        } catch {
            throw .fileSystem(path: file, operation: "edit", reason: error.localizedDescription)
        }
        return path
    }

    /// This program, to run the commands as a user would.
    static var executable: String {
        Bundle.main.executableURL?.path ?? CommandLine.arguments[0]
    }

    static func quoted(_ argument: String) -> String {
        argument.allSatisfy({ $0.isLetter || $0.isNumber || "-_./@,:=".contains($0) }) ? argument : "'" + argument + "'"
    }
}
