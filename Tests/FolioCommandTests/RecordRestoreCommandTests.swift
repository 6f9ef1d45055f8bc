import FolioJSON
import FolioTestSupport
import Foundation
import Testing

/// `folio restore --from REV` on real git repositories (the store in a subfolder of the work
/// tree): a record written back whole or by property, a purged one brought back, refusals,
/// and git read without a write.
struct RecordRestoreCommandTests {
    typealias Repository = RecordLogTests.Repository

    /// The rows `folio restore` prints as NDJSON, by property.
    func restore(_ repository: Repository, _ arguments: String...) throws -> [String: JSONObject] {
        let run = try repository.succeeded(["restore"] + arguments + ["--format", "ndjson"])
        var rows: [String: JSONObject] = [:]
        for line in run.output.split(separator: "\n") {
            let row = try #require(try JSONReader().read(String(line)).objectValue)
            rows[row["property"]?.stringValue ?? ""] = row
        }
        return rows
    }

    /// The record's file in the work tree, as JSON.
    func record(_ repository: Repository, at path: String) throws -> JSONObject {
        try #require(try JSONReader().read(contentsOfFile: repository.store.root + "/" + path).objectValue)
    }

    /// The repository's state but for the work tree's status: the index, the refs, HEAD, `.git`'s files.
    func gitState(_ repository: Repository) throws -> [String] { Array(try repository.repositoryState().dropFirst()) }

    /// `git status --porcelain` of the work tree.
    func status(_ repository: Repository) throws -> String {
        try repository.git().git("status", "--porcelain", "--untracked-files=all")
    }

    @Test func aChangedRecordIsWrittenBackAsTheRevisionHoldsItAndOnlyItsFileChanges() throws {
        let repository = try Repository()
        let id = try repository.store.id(of: "Timer", where: "name == \"Workout\"")
        let path = try repository.store.path(of: id)
        try repository.succeeded("set", id, "name=Morning Workout", "durationInSeconds=1800")
        try repository.commit("Timers: rename the workout", author: "Grace", at: "2026-11-02T10:00:00Z")
        let before = try gitState(repository)

        let rows = try restore(repository, String(id.prefix(8)), "--from", "HEAD~1")
        #expect(Set(rows.keys) == ["name", "durationInSeconds"], "\(rows)")
        #expect(rows["name"]?["old"] == .string("Morning Workout"))
        #expect(rows["name"]?["new"] == .string("Workout"))
        #expect(rows["durationInSeconds"]?["old"] == .integer(1800))
        #expect(rows["durationInSeconds"]?["new"] == .integer(1500))
        let restored = try record(repository, at: path)
        #expect(restored["name"] == .string("Workout"))
        #expect(restored["durationInSeconds"] == .integer(1500))
        #expect(try status(repository) == " M Timers/\(path)\n")
        #expect(try gitState(repository) == before, "git's index, refs and objects are untouched")

        // The tool's writes are the store history's "folio"; a second restore has nothing to write.
        let history = try repository.succeeded("history", "--format", "csv")
        #expect(history.output.contains("folio"), "\(history.output)")
        let again = try repository.succeeded("restore", id, "--from", "HEAD~1")
        #expect(again.output.contains("already holds what HEAD~1"), "\(again.output)")
        #expect(try status(repository) == " M Timers/\(path)\n")
    }

    @Test func namedPropertiesAloneComeBackAndTheWholeRecordTakesTheRevisionsSoftDelete() throws {
        let repository = try Repository()
        let id = try repository.store.id(of: "Timer", where: "name == \"Coffee Break\"")
        let path = try repository.store.path(of: id)
        try repository.succeeded("set", id, "name=Espresso", "durationInSeconds=120")
        try repository.succeeded("delete", id)
        try repository.commit("Timers: espresso, then gone", author: "Ada", at: "2026-11-02T10:00:00Z")

        let named = try restore(repository, id, "--from", "HEAD~1", "--property", "name")
        #expect(Set(named.keys) == ["name"], "\(named)")
        var stored = try record(repository, at: path)
        #expect(stored["name"] == .string("Coffee Break"))
        #expect(stored["durationInSeconds"] == .integer(120))
        #expect(stored["$deleted"] != nil, "only the named property changed: still deleted")

        let whole = try restore(repository, id, "--from", "HEAD~1")
        #expect(whole["$deleted"]?["new"] == .null, "\(whole)")
        #expect(whole["durationInSeconds"]?["new"] == .integer(600))
        stored = try record(repository, at: path)
        #expect(stored["$deleted"] == nil, "deleted now, live then: back live")
        #expect(stored["durationInSeconds"] == .integer(600))
    }

    @Test func aPurgedRecordComesBackAtItsPathWithARelationshipToAGoneRecordClearedAndNamed() throws {
        let repository = try Repository()
        let workout = try repository.store.id(of: "Timer", where: "name == \"Workout\"")
        let stretch = try repository.store.id(of: "TodoItem", where: "text == \"Stretch\"")
        let run = try repository.store.id(of: "TodoItem", where: "text == \"Run\"")
        let stretchPath = try repository.store.path(of: stretch)
        for id in [workout, stretch, run] {
            try repository.git().git("rm", "-q", "Timers/" + (try repository.store.path(of: id)))
        }
        try repository.commit("Timers: purge the workout", author: "Linus", at: "2026-11-03T10:00:00Z")
        let before = try gitState(repository)

        // The start of an id names only a record the store holds; the whole UUID finds a purged one.
        let short = try repository.folio("restore", String(stretch.prefix(8)), "--from", "HEAD~1")
        #expect(short.status != 0)
        #expect(short.errors.contains("whole UUID"), "\(short.errors)")

        let rows = try restore(repository, stretch, "--from", "HEAD~1")
        #expect(rows["timer"]?["new"] == .null, "\(rows)")
        let note = rows["timer"]?["note"]?.stringValue ?? ""
        #expect(note.contains(workout) && note.contains("no longer in the store"), "\(note)")
        #expect(rows["text"]?["new"] == .string("Stretch"))
        let restored = try record(repository, at: stretchPath)
        #expect(restored["timer"] == .null)
        #expect(restored["text"] == .string("Stretch"))
        #expect(try status(repository) == "?? Timers/\(stretchPath)\n")
        #expect(try gitState(repository) == before)
        let table = try repository.succeeded("restore", run, "--from", "HEAD~1")
        #expect(table.output.contains("brought back (it was purged)"), "\(table.output)")
    }

    @Test func badInputIsAClearErrorAndWritesNothing() throws {
        let repository = try Repository()
        let id = try repository.store.id(of: "Timer", where: "name == \"Workout\"")
        let path = try repository.store.path(of: id)
        let file = repository.store.root + "/" + path
        let committed = try String(contentsOfFile: file, encoding: .utf8)
        // A version that does not parse, then one with a member the schema lacks, then the record again.
        try "{ \"$entity\": \"Timer\",\n".write(toFile: file, atomically: true, encoding: .utf8)
        try repository.commit("broken by hand", author: "Ada", at: "2026-11-02T10:00:00Z")
        try committed.replacingOccurrences(of: "\"notes\": null", with: "\"notes\": null,\n  \"colour\": \"red\"")
            .write(toFile: file, atomically: true, encoding: .utf8)
        try repository.commit("a colour by hand", author: "Ada", at: "2026-11-03T10:00:00Z")
        try committed.write(toFile: file, atomically: true, encoding: .utf8)
        try repository.commit("mended", author: "Ada", at: "2026-11-04T10:00:00Z")
        try repository.succeeded(
            "insert", "Timer", "name=Nap", "durationInSeconds=60", "createdAt=2026-11-05T10:00:00Z")
        let nap = try repository.store.id(of: "Timer", where: "name == \"Nap\"")
        try repository.commit("a nap", author: "Ada", at: "2026-11-05T10:00:00Z")
        try repository.git().git("rm", "-q", "Timers/" + (try repository.store.path(of: nap)))
        try repository.commit("no nap", author: "Ada", at: "2026-11-06T10:00:00Z")
        let before = try repository.repositoryState()

        let refusals: [([String], String)] = [
            (["restore", id, "--from", "no-such-branch"], "has no commit no-such-branch"),
            (["restore", id, "--from=--output=x"], "is not a revision"),
            (["restore", UUID().uuidString, "--from", "HEAD"], "no commit up to HEAD"),
            (["restore", nap, "--from", "HEAD"], "is not in the store at HEAD"),
            (["restore", nap, "--from", "HEAD~2"], "no commit up to HEAD~2"),
            (["restore", id, "--from", "HEAD~4"], "does not parse"),
            (["restore", id, "--from", "HEAD~3"], "colour"),
            (["restore", id, "--from", "HEAD~5", "--property", "nmae"], "did you mean name"),
            (["restore", id, "--property", "name"], "go with --from"),
            (["restore", id, "--format", "json"], "go with --from"),
            (["restore", "Timer", "--all", "--from", "HEAD~1"], "one record"),
        ]
        for (arguments, message) in refusals {
            let run = try repository.folio.run(arguments)
            #expect(run.status != 0 && run.status < 100, "\(arguments): \(run.status)")
            #expect(run.errors.contains(message), "\(arguments): \(run.errors)")
            #expect(!run.errors.contains("Fatal error"), "\(arguments)")
        }
        #expect(try repository.repositoryState() == before, "nothing written, git untouched")

        // The member the schema lacks is named, with how to go on: the others by name.
        let named = try repository.folio.run(["restore", id, "--from", "HEAD~3"])
        #expect(named.errors.contains("--property"), "\(named.errors)")
        _ = try restore(repository, id, "--from", "HEAD~3", "--property", "name")

        // A store in no git repository.
        let outside = try TimerStore()
        let workout = try outside.id(of: "Timer", where: "name == \"Workout\"")
        let run = try outside.folio.run(["restore", workout, "--from", "HEAD"])
        #expect(run.status != 0)
        #expect(run.errors.contains("is not in a git repository"), "\(run.errors)")
    }
}
