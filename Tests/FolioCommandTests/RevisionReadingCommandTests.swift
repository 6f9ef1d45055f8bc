import FolioJSON
import FolioTestSupport
import Foundation
import Synchronization
import Testing

/// `--at REV` on the reading commands, on real git repositories whose store is a subfolder of
/// the work tree: each command reads the store as that commit held it, from git's objects,
/// and leaves the work tree, the index, the refs and `.git/` as they were.
struct RevisionReadingCommandTests {
    typealias Repository = RecordLogTests.Repository

    /// A repository whose second commit renamed the timer "Workout" to "Morning Workout";
    /// the timer's id.
    func renamedWorkout() throws -> (Repository, String) {
        let repository = try Repository()
        let workout = try repository.store.id(of: "Timer", where: "name == \"Workout\"")
        try repository.succeeded("set", workout, "name=Morning Workout")
        try repository.commit("Morning now", author: "Bo", at: "2026-11-02T10:00:00Z")
        return (repository, workout)
    }

    @Test func everyReadingCommandReadsTheRevisionAndChangesNothingInTheRepository() throws {
        let (repository, workout) = try renamedWorkout()
        let before = try repository.repositoryState()
        let old = "name == \"Workout\""

        #expect(try repository.succeeded("count", "Timer", old, "--at", "HEAD~1").output == "1\n")
        #expect(try repository.succeeded("count", "Timer", old).output == "0\n", "the present is as it is")
        let query = try repository.succeeded("query", "Timer", old, "--format", "ndjson", "--at", "HEAD~1")
        #expect(query.output.contains(workout), "\(query.output)")
        let got = try repository.succeeded("get", workout, "--format", "ndjson", "--at", "main~1")
        #expect(got.output.contains("\"name\":\"Workout\""), "\(got.output)")
        let exported = try repository.succeeded("export", "Timer", "--at", "HEAD~1")
        #expect(exported.output.contains("\"Workout\"") && !exported.output.contains("Morning"), "\(exported.output)")
        let aggregate = try repository.succeeded(
            "aggregate", "Timer", "count", "--where", old, "--format", "ndjson", "--at", "HEAD~1")
        #expect(aggregate.output.contains("1"), "\(aggregate.output)")
        let listed = try repository.succeeded("ls", "Timer", "--at", "HEAD~1")
        #expect(!listed.output.isEmpty)
        let info = try repository.succeeded("info", "--format", "json", "--at", "HEAD~1")
        let described = try #require(try JSONReader().read(info.output).objectValue)
        #expect(described["revision"] == .string("HEAD~1"))
        #expect(described["store"] == .string(repository.store.root), "the folder named, not the copy")
        #expect(described["commit"]?.stringValue?.count == 40)
        #expect(try repository.succeeded("schema", "show", "--at", "HEAD~1").output.contains("Timer"))
        let check = try repository.succeeded("check", "--at", "HEAD~1")
        #expect(check.output.contains("0 errors"), "\(check.output)")
        let explained = try repository.succeeded("count", "Timer", old, "--explain", "--at", "HEAD~1")
        #expect(explained.errors.contains("plan:"), "\(explained.errors)")

        #expect(try repository.repositoryState() == before)
    }

    @Test func twoProcessesReadingTwoRevisionsAtOnceEachGetTheirOwn() throws {
        let (repository, _) = try renamedWorkout()
        let folio = repository.folio
        let revisions = ["HEAD~1", "HEAD", "HEAD~1", "HEAD", "HEAD~1", "HEAD"]
        let answers = Mutex([String](repeating: "", count: revisions.count))
        // Two at a time, each pair meeting on the same kept copies: one may turn a copy the
        // other is about to read, and neither may answer from the other's revision.
        for pair in stride(from: 0, to: revisions.count, by: 2) {
            DispatchQueue.concurrentPerform(iterations: 2) { offset in
                let index = pair + offset
                let run = try? folio.run(["count", "Timer", "name == \"Workout\"", "--at", revisions[index]])
                answers.withLock { $0[index] = run.map { "\($0.status) \($0.output)\($0.errors)" } ?? "did not run" }
            }
        }
        #expect(answers.withLock { $0 } == revisions.map { $0 == "HEAD" ? "0 0\n" : "0 1\n" })
    }

    @Test func revisionTextThatGitCouldReadAsAnOptionIsRefusedBeforeGitRuns() throws {
        let (repository, _) = try renamedWorkout()
        let before = try repository.repositoryState()
        for text in ["--output=x", "-p", "--all"] {
            let run = try repository.folio.run(["count", "Timer", "--at=\(text)"])
            #expect(run.status != 0)
            #expect(run.errors.contains("is not a revision"), "\(run.errors)")
        }
        #expect(!FileManager.default.fileExists(atPath: repository.store.root + "/x"))
        #expect(!FileManager.default.fileExists(atPath: repository.folder("x")))
        #expect(try repository.repositoryState() == before)
    }

    @Test func aMissingRevisionOrAStoreThatDidNotExistYetIsAClearError() throws {
        let (repository, _) = try renamedWorkout()
        // A commit of an empty tree, as a repository's first commit before the store often is.
        let emptyTree = try repository.git().git("hash-object", "-t", "tree", "/dev/null")
            .trimmingCharacters(in: .newlines)
        let empty = try repository.git().git("commit-tree", emptyTree, "-m", "nothing yet")
            .trimmingCharacters(in: .newlines)
        try repository.git().git("tag", "before-the-store", empty)
        let before = try repository.repositoryState()

        let unknown = try repository.folio.run(["count", "Timer", "--at", "no-such-branch"])
        #expect(unknown.status != 0)
        #expect(unknown.errors.contains("has no commit no-such-branch"), "\(unknown.errors)")
        let absent = try repository.folio.run(["info", "--at", "before-the-store"])
        #expect(absent.status != 0)
        #expect(absent.errors.contains("did not exist at before-the-store"), "\(absent.errors)")
        #expect(!absent.errors.contains("Fatal") && !absent.errors.contains("Stack"), "\(absent.errors)")
        #expect(try repository.repositoryState() == before)
    }

    @Test func aRecordThatDoesNotParseAtTheRevisionIsNamedByCheck() throws {
        let (repository, workout) = try renamedWorkout()
        let path = try repository.store.path(of: workout)
        let file = repository.store.root + "/" + path
        let good = try Data(contentsOf: URL(fileURLWithPath: file))
        try Data("{ \"name\": ".utf8).write(to: URL(fileURLWithPath: file))
        try repository.commit("broken by hand", author: "Cy", at: "2026-11-03T10:00:00Z")
        try good.write(to: URL(fileURLWithPath: file))
        try repository.commit("mended", author: "Cy", at: "2026-11-04T10:00:00Z")
        let before = try repository.repositoryState()

        let check = try repository.folio.run(["check", "--at", "HEAD~1"])
        #expect(check.status != 0, "\(check.output)")
        #expect((check.output + check.errors).contains(workout), "\(check.output) \(check.errors)")
        let count = try repository.folio.run(["count", "Timer", "--at", "HEAD~1"])
        #expect(count.status != 0 || count.errors.contains(workout), "\(count.output) \(count.errors)")
        #expect(try repository.succeeded("check").output.contains("0 errors"), "the present is mended")
        #expect(try repository.repositoryState() == before)
    }

    @Test func checkAtARevisionPlacesEachFindingAtItsLineInThatRevisionsFile() throws {
        let (repository, workout) = try renamedWorkout()
        let coffee = try repository.store.id(of: "Timer", where: "name == \"Coffee Break\"")
        var lines: [String: Int] = [:]
        for id in [workout, coffee] {
            // By hand: a duration as text, and for the coffee break a note above it, so the
            // finding's line is this revision's.
            let file = repository.store.root + "/" + (try repository.store.path(of: id))
            var text = try String(contentsOfFile: file, encoding: .utf8)
            if id == coffee { text = text.replacingOccurrences(of: "  \"id\":", with: "  \"note\": \"x\",\n  \"id\":") }
            text = text.replacing(#/"durationInSeconds": \d+/#, with: "\"durationInSeconds\": \"long\"")
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let split = text.split(separator: "\n", omittingEmptySubsequences: false)
            lines[id] = try #require(split.firstIndex { $0.hasPrefix("  \"durationInSeconds\":") }) + 1
        }
        try repository.commit("durations as text", author: "Cy", at: "2026-11-03T10:00:00Z")
        try repository.git().git("revert", "--no-edit", "HEAD")
        let before = try repository.repositoryState()

        let check = try repository.folio.run(["check", "--at", "HEAD~1"])
        #expect(check.status != 0, "\(check.output)")
        for id in [workout, coffee] {
            let path = try repository.store.path(of: id)
            let line = try #require(lines[id])
            #expect(check.output.contains("\(path):\(line):3: error"), "\(id) at line \(line): \(check.output)")
        }
        #expect(lines[workout] != lines[coffee], "the lines differ, each from its own file")
        #expect(try repository.succeeded("check").output.contains("0 errors"), "the present is mended")
        #expect(try repository.repositoryState() == before)
    }

    @Test func aMissingObjectOrAShallowHistoryIsAClearErrorNotACrash() throws {
        let (repository, workout) = try renamedWorkout()
        // The shallow clone holds only the last commit.
        let clone = repository.folder("shallow")
        try repository.git().git("clone", "-q", "--depth", "1", "file://" + repository.folder.path, clone)
        var shallow = repository.folio
        shallow.folder = clone + "/Timers"
        let ended = try shallow.run(["count", "Timer", "--at", "HEAD~1"])
        #expect(ended.status != 0)
        #expect(ended.errors.contains("git fetch --unshallow"), "\(ended.errors)")
        let head = try shallow.run(["count", "Timer", "name == \"Morning Workout\"", "--at", "HEAD"])
        #expect(head.status == 0 && head.output == "1\n", "\(head.output) \(head.errors)")

        // The blob of the timer's file before the rename, gone from the object store.
        let path = try repository.store.path(of: workout)
        let blob = try repository.git().git("rev-parse", "HEAD~1:Timers/" + path).trimmingCharacters(in: .newlines)
        try FileManager.default.removeItem(
            atPath: repository.folder(".git/objects/\(blob.prefix(2))/\(blob.dropFirst(2))"))
        let missing = try repository.folio.run(["count", "Timer", "--at", "HEAD~1"])
        #expect(missing.status != 0)
        #expect(missing.errors.contains("lacks the content of \(path)"), "\(missing.errors)")
        #expect(!missing.errors.contains("Fatal error"), "\(missing.errors)")
    }

    @Test func aBareRepositoryIsAClearErrorNotACrash() throws {
        let (repository, _) = try renamedWorkout()
        try repository.git().git("clone", "-q", "--bare", ".", "bare.git")
        let run = try repository.folio.run(["count", "Timer", "--store", repository.folder("bare.git"), "--at", "HEAD"])
        #expect(run.status != 0)
        #expect(run.errors.contains("is a bare repository"), "\(run.errors)")
        #expect(!run.errors.contains("Fatal error"), "\(run.errors)")
    }
}
