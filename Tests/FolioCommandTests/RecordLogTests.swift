import FolioJSON
import FolioTestSupport
import Foundation
import Testing

/// `folio log` and `folio blame` on real git repositories: a record's creation, changes,
/// soft delete, restore, move between day folders, purge and merges, read without writing.
struct RecordLogTests {
    /// A Timer store in `Timers/`, a subfolder of a git work tree, with commits made at fixed times.
    struct Repository {
        let store: TimerStore
        let environment: [String: String]
        var folder: TemporaryDirectory { store.folder }
        var folio: FolioTool {
            var folio = store.folio
            folio.environment = environment
            return folio
        }

        init() throws {
            store = try TimerStore()
            environment = GitClone.environment(home: store.folder("home"))
            try FileManager.default.createDirectory(atPath: store.folder("home"), withIntermediateDirectories: true)
            try git().git("init", "-q", "--initial-branch=main", ".")
            try commit("Timers: add the timers", author: "Ada", at: "2026-11-01T10:00:00Z")
        }

        /// Git in the work tree, its commits by `author` at `date`.
        func git(author: String = "Folio Tests", at date: String = "2026-11-22T09:30:00Z") -> GitClone {
            var environment = environment
            environment["GIT_AUTHOR_NAME"] = author
            environment["GIT_AUTHOR_DATE"] = date
            environment["GIT_COMMITTER_DATE"] = date
            return GitClone(path: store.folder.path, environment: environment)
        }

        /// Commits everything in the work tree.
        func commit(_ message: String, author: String, at date: String) throws {
            try git(author: author, at: date).git("add", "--all")
            try git(author: author, at: date).git("commit", "-q", "-m", message)
        }

        /// Runs the tool in the store and requires it to succeed.
        @discardableResult
        func succeeded(_ arguments: String...) throws -> FolioTool.Run {
            let run = try folio.run(arguments)
            try #require(run.status == 0, "folio \(arguments.joined(separator: " ")): \(run.errors)")
            return run
        }

        /// The rows `folio log` prints as NDJSON.
        func log(_ arguments: String...) throws -> [JSONObject] {
            let run = try succeeded(["log"] + arguments + ["--format", "ndjson"])
            return try run.output.split(separator: "\n").map { line in
                try #require(try JSONReader().read(String(line)).objectValue)
            }
        }

        func succeeded(_ arguments: [String]) throws -> FolioTool.Run {
            let run = try folio.run(arguments)
            try #require(run.status == 0, "folio \(arguments.joined(separator: " ")): \(run.errors)")
            return run
        }

        /// What a reading command must leave as it was: the work tree's status, the index
        /// file's bytes and every ref.
        func repositoryState() throws -> [String] {
            // Git as the test runs it must not refresh the index either.
            var environment = environment
            environment["GIT_OPTIONAL_LOCKS"] = "0"
            let git = GitClone(path: folder.path, environment: environment)
            let index = try Data(contentsOf: URL(fileURLWithPath: folder(".git/index")))
            return [
                try git.git("status", "--porcelain", "--ignored"), index.base64EncodedString(),
                try git.git("for-each-ref"), try git.git("rev-parse", "HEAD"),
                try FileManager.default.subpathsOfDirectory(atPath: folder(".git")).sorted().joined(separator: "\n"),
            ]
        }
    }

    /// The distinct commits of log rows, in order, with their change.
    func changes(_ rows: [JSONObject]) -> [String] {
        var seen: [String] = []
        for row in rows {
            let entry = "\(row["commit"]?.stringValue ?? "")"
            if !seen.contains(entry) { seen.append(entry) }
        }
        return seen.map { commit in rows.first { $0["commit"]?.stringValue == commit }?["change"]?.stringValue ?? "" }
    }

    @Test func logFollowsARecordThroughChangesSoftDeleteRestoreMoveAndPurge() throws {
        let repository = try Repository()
        let id = try repository.store.id(of: "Timer", where: "name == \"Workout\"")
        let path = try repository.store.path(of: id)
        try repository.succeeded("set", id, "name=Morning Workout", "durationInSeconds=1800")
        try repository.commit("Timers: rename the workout", author: "Grace", at: "2026-11-02T10:00:00Z")
        try repository.succeeded("delete", id)
        try repository.commit("Timers: delete the workout", author: "Ada", at: "2026-11-03T10:00:00Z")
        try repository.succeeded("restore", id)
        try repository.commit("Timers: restore the workout", author: "Ada", at: "2026-11-04T10:00:00Z")
        let moved = "Timer/2026/10/15/\(id).json"
        try FileManager.default.createDirectory(
            atPath: repository.store.root + "/Timer/2026/10/15", withIntermediateDirectories: true)
        try FileManager.default.moveItem(
            atPath: repository.store.root + "/" + path, toPath: repository.store.root + "/" + moved)
        try repository.commit("Timers: file the workout under October", author: "Ada", at: "2026-11-05T10:00:00Z")
        try repository.git().git("rm", "-q", "Timers/" + moved)
        try repository.commit("Timers: purge the workout", author: "Linus", at: "2026-11-06T10:00:00Z")

        // Purged: the whole UUID finds it in the past.
        let rows = try repository.log(id)
        #expect(changes(rows) == ["purged", "moved", "restored", "deleted", "changed", "created"])
        let renamed = rows.filter { $0["change"]?.stringValue == "changed" }
        #expect(renamed.map { $0["property"]?.stringValue } == ["name", "durationInSeconds"])
        #expect(renamed.first?["old"]?.stringValue == "Workout")
        #expect(renamed.first?["new"]?.stringValue == "Morning Workout")
        #expect(renamed.first?["author"]?.stringValue == "Grace")
        #expect(renamed.first?["subject"]?.stringValue == "Timers: rename the workout")
        #expect(renamed.first?["date"]?.stringValue == "2026-11-02T10:00:00Z")
        let move = try #require(rows.first { $0["change"]?.stringValue == "moved" })
        #expect(move["path"] == .string(moved))
        #expect(move["property"] == .null)
        let created = rows.filter { $0["change"]?.stringValue == "created" }
        #expect(
            created.contains {
                $0["property"]?.stringValue == "name" && $0["old"] == .null && $0["new"]?.stringValue == "Workout"
            })

        // Blame has no current values to name; the start of an id finds only a record the store holds.
        let blame = try repository.folio("blame", id)
        #expect(blame.status != 0)
        #expect(blame.errors.contains("was purged in commit"), "\(blame.errors)")
        let short = try repository.folio("log", String(id.prefix(8)))
        #expect(short.status != 0)
        #expect(short.errors.contains("by its whole UUID or its path"), "\(short.errors)")

        // By its path too, and the table names the same commits.
        #expect(try repository.log(moved).count == rows.count)
        let table = try repository.succeeded("log", id)
        #expect(table.output.contains("purged"), "\(table.output)")
        #expect(table.output.contains("Morning Workout"), "\(table.output)")
    }

    @Test func logShowsARelationshipByTheRelatedRecordsUUIDAndBlameNamesTheCommitThatSetEachValue() throws {
        let repository = try Repository()
        let todo = try repository.store.id(of: "TodoItem", where: "text == \"Stretch\"")
        let workout = try repository.store.id(of: "Timer", where: "name == \"Workout\"")
        let coffee = try repository.store.id(of: "Timer", where: "name == \"Coffee Break\"")
        try repository.succeeded("set", todo, "timer=\(coffee)")
        try repository.commit("Todos: stretch at the café break", author: "Grace", at: "2026-11-02T10:00:00Z")

        let rows = try repository.log(String(todo.prefix(8)))
        let moved = try #require(rows.first)
        #expect(moved["property"]?.stringValue == "timer")
        #expect(moved["old"] == .string(workout))
        #expect(moved["new"] == .string(coffee))

        // Settings of the user's that would change what git prints change nothing.
        var configured = repository.folio
        configured.environment["GIT_LITERAL_PATHSPECS"] = "1"
        try repository.git().git("config", "i18n.logOutputEncoding", "ISO-8859-1")
        try repository.git().git("config", "log.showSignature", "true")
        try repository.git().git("config", "diff.relative", "true")
        let same = try configured.run(["log", String(todo.prefix(8)), "--format", "ndjson"])
        #expect(same.status == 0, "\(same.errors)")
        #expect(same.output.split(separator: "\n").count == rows.count, "\(same.output)")

        let run = try repository.succeeded("blame", todo, "--format", "ndjson")
        let blamed = try run.output.split(separator: "\n").map {
            try #require(try JSONReader().read(String($0)).objectValue)
        }
        let timer = try #require(blamed.first { $0["property"]?.stringValue == "timer" })
        #expect(timer["value"] == .string(coffee))
        #expect(timer["author"]?.stringValue == "Grace")
        #expect(timer["subject"]?.stringValue == "Todos: stretch at the café break")
        let text = try #require(blamed.first { $0["property"]?.stringValue == "text" })
        #expect(text["value"]?.stringValue == "Stretch")
        #expect(text["author"]?.stringValue == "Ada")
        #expect(text["date"]?.stringValue == "2026-11-01T10:00:00Z")
    }

    @Test func propertyAndMaxCountAndSinceSelectTheCommitsAndJSONIsAnArrayOfRows() throws {
        let repository = try Repository()
        let id = try repository.store.id(of: "Timer", where: "name == \"Coffee Break\"")
        try repository.succeeded("set", id, "durationInSeconds=900")
        try repository.commit("longer", author: "Ada", at: "2026-11-02T10:00:00Z")
        try repository.succeeded("set", id, "notes=with milk")
        try repository.commit("notes", author: "Ada", at: "2026-11-03T10:00:00Z")
        try repository.succeeded("set", id, "durationInSeconds=1200")
        try repository.commit("longer still", author: "Ada", at: "2026-11-04T10:00:00Z")

        let duration = try repository.log(id, "--property", "durationInSeconds")
        #expect(duration.map { $0["subject"]?.stringValue } == ["longer still", "longer", "Timers: add the timers"])
        #expect(duration.allSatisfy { $0["property"]?.stringValue == "durationInSeconds" })
        #expect(try repository.log(id, "--property", "durationInSeconds").first?["old"] == .integer(900))
        #expect(Set(try repository.log(id, "-n", "2").map { $0["subject"]?.stringValue }) == ["longer still", "notes"])
        #expect(
            try repository.log(id, "--since", "2026-11-03T00:00:00Z", "--until", "2026-11-03T23:00:00Z").map {
                $0["subject"]?.stringValue
            } == ["notes"])
        // A day without a time, in the store's time zone, is the whole day, at either end.
        #expect(
            try repository.log(id, "--since", "2026-11-03", "--until", "2026-11-03").map { $0["subject"]?.stringValue }
                == ["notes"])

        let json = try repository.succeeded("log", id, "--format", "json", "-n", "1")
        let array = try #require(try JSONReader().read(json.output).arrayValue)
        #expect(array.count == 1)
        let row = try #require(array.first?.objectValue)
        #expect(row["commit"]?.stringValue?.count == 40)
        #expect(row["new"] == .integer(1200))
        let csv = try repository.succeeded("log", id, "--format", "csv", "-n", "1")
        #expect(csv.output.hasPrefix("commit,change,property,old,new,author,date,subject,path\n"), "\(csv.output)")
    }

    @Test func aMergeWhereBothSidesChangedTheRecordIsListedWithBothSides() throws {
        let repository = try Repository()
        let id = try repository.store.id(of: "Timer", where: "name == \"Coffee Break\"")
        try repository.git().git("checkout", "-q", "-b", "side")
        try repository.succeeded("set", id, "name=Tea Break")
        try repository.commit("side: tea", author: "Grace", at: "2026-11-02T10:00:00Z")
        try repository.git().git("checkout", "-q", "main")
        // Not next to the name's line, which git would take for one change of both sides.
        try repository.succeeded("set", id, "createdAt=2026-11-02T11:00:00Z")
        try repository.commit("main: later", author: "Ada", at: "2026-11-03T10:00:00Z")
        try repository.git(author: "Linus", at: "2026-11-04T10:00:00Z").git("merge", "-q", "--no-edit", "side")

        let rows = try repository.log(id)
        #expect(changes(rows) == ["changed (merge)", "changed", "changed", "created"])
        let merge = try #require(rows.first)
        #expect(merge["author"]?.stringValue == "Linus")
        // Compared with the first parent (main): the side's name came in.
        #expect(merge["property"]?.stringValue == "name")
        #expect(merge["new"]?.stringValue == "Tea Break")
        #expect(rows.contains { $0["subject"]?.stringValue == "side: tea" })
        #expect(rows.contains { $0["subject"]?.stringValue == "main: later" })
    }

    @Test func readingCommandsLeaveTheStatusTheIndexAndTheRefsAsTheyWere() throws {
        let repository = try Repository()
        let id = try repository.store.id(of: "Timer", where: "name == \"Workout\"")
        try repository.succeeded("set", id, "name=Run")
        try repository.commit("run", author: "Ada", at: "2026-11-02T10:00:00Z")
        // An uncommitted change and a stale index stat: what an index refresh would rewrite.
        try repository.succeeded("set", id, "name=Walk")
        let before = try repository.repositoryState()
        try repository.succeeded("log", id)
        try repository.succeeded("log", String(id.prefix(8)), "--format", "json")
        try repository.succeeded("blame", id)
        try repository.succeeded("log", id, "--revision", "HEAD~1")
        _ = try repository.folio("log", id, "--revision", "nothing-here")
        #expect(try repository.repositoryState() == before)
    }

    @Test func aRevisionThatReadsAsAnOptionIsRefusedBeforeGitRuns() throws {
        let repository = try Repository()
        let id = try repository.store.id(of: "Timer", where: "name == \"Workout\"")
        let before = try repository.repositoryState()
        for revision in ["--output=x", "-p", "--all"] {
            let run = try repository.folio("log", id, "--revision=\(revision)")
            #expect(run.status != 0)
            #expect(run.errors.contains("is not a revision"), "\(run.errors)")
        }
        let blame = try repository.folio("blame", id, "--revision=--output=x")
        #expect(blame.errors.contains("is not a revision"), "\(blame.errors)")
        #expect(!FileManager.default.fileExists(atPath: repository.store.root + "/x"))
        let missing = try repository.folio("log", id, "--revision", "no-such-branch")
        #expect(missing.status != 0)
        #expect(missing.errors.contains("has no commit no-such-branch"), "\(missing.errors)")
        let option = try repository.folio("log", "--", "--output=x")
        #expect(option.status != 0)
        #expect(option.errors.contains("is neither a record's id nor a document path"), "\(option.errors)")
        #expect(try repository.repositoryState() == before)
    }

    @Test func aStoreOutsideGitAFileThatDoesNotParseAndAShallowCloneAreSaidSo() throws {
        let plain = try TimerStore()
        let id = try plain.id(of: "Timer", where: "name == \"Workout\"")
        let outside = try plain.folio("log", id)
        #expect(outside.status != 0)
        #expect(outside.errors.contains("is not in a git repository"), "\(outside.errors)")

        let repository = try Repository()
        let workout = try repository.store.id(of: "Timer", where: "name == \"Workout\"")
        let file = repository.store.root + "/" + (try repository.store.path(of: workout))
        let good = try Data(contentsOf: URL(fileURLWithPath: file))
        try Data("{ \"$entity\": \"Timer\",\n".utf8).write(to: URL(fileURLWithPath: file))
        try repository.commit("broken by hand", author: "Ada", at: "2026-11-02T10:00:00Z")
        try good.write(to: URL(fileURLWithPath: file))
        try repository.commit("mended", author: "Ada", at: "2026-11-03T10:00:00Z")
        let run = try repository.succeeded("log", workout, "--format", "ndjson")
        #expect(run.errors.contains("does not parse"), "\(run.errors)")
        #expect(run.output.contains("\"subject\":\"mended\""), "\(run.output)")

        let clone = repository.folder("clone")
        try repository.git().git("clone", "-q", "--depth", "1", "file://" + repository.folder.path, clone)
        var shallow = repository.folio
        shallow.folder = clone + "/Timers"
        let cut = try shallow.run(["log", workout])
        #expect(cut.status == 0, "\(cut.errors)")
        #expect(cut.errors.contains("shallow clone"), "\(cut.errors)")
    }
}
