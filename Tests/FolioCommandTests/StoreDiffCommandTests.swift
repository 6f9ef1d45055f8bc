import FolioJSON
import FolioTestSupport
import Foundation
import Testing

/// `folio diff` on real git repositories (the store in a subfolder of the work tree): the
/// working tree against HEAD or a revision, two revisions across a merge, records matched by
/// identity, an entity and a query, `--stat`, every format, read without writing.
struct StoreDiffCommandTests {
    typealias Repository = RecordLogTests.Repository

    /// The rows `folio diff` prints as NDJSON.
    func diff(_ repository: Repository, _ arguments: String...) throws -> [JSONObject] {
        let run = try repository.succeeded(["diff"] + arguments + ["--format", "ndjson"])
        return try run.output.split(separator: "\n").map { line in
            try #require(try JSONReader().read(String(line)).objectValue)
        }
    }

    /// Each record's change, by its id, from diff rows.
    func kinds(_ rows: [JSONObject]) -> [String: String] {
        var kinds: [String: String] = [:]
        for row in rows { kinds[row["id"]?.stringValue ?? ""] = row["change"]?.stringValue }
        return kinds
    }

    @Test func theWorkingTreeAgainstHEADListsEachRecordOnceByIdentityAndWritesNothing() throws {
        let repository = try Repository()
        let coffee = try repository.store.id(of: "Timer", where: "name == \"Coffee Break\"")
        let workout = try repository.store.id(of: "Timer", where: "name == \"Workout\"")
        let stretch = try repository.store.id(of: "TodoItem", where: "text == \"Stretch\"")
        let run = try repository.store.id(of: "TodoItem", where: "text == \"Run\"")
        try repository.succeeded("set", workout, "name=Morning Workout", "durationInSeconds=1800")
        try repository.succeeded("delete", coffee)
        try repository.succeeded(
            "insert", "Timer", "name=Nap", "durationInSeconds=1200", "createdAt=2026-11-03T13:00:00Z")
        let nap = try repository.store.id(of: "Timer", where: "name == \"Nap\"")
        // Moved by hand to another day folder, not staged; purged by hand, not staged.
        let stretchPath = try repository.store.path(of: stretch)
        let moved = "TodoItem/2026/10/15/\(stretch).json"
        try FileManager.default.createDirectory(
            atPath: repository.store.root + "/TodoItem/2026/10/15", withIntermediateDirectories: true)
        try FileManager.default.moveItem(
            atPath: repository.store.root + "/" + stretchPath, toPath: repository.store.root + "/" + moved)
        try FileManager.default.removeItem(atPath: repository.store.root + "/" + (try repository.store.path(of: run)))
        let before = try repository.repositoryState()

        let rows = try diff(repository)
        #expect(
            kinds(rows) == [workout: "changed", coffee: "deleted", nap: "created", stretch: "moved", run: "purged"],
            "\(rows)")
        let renamed = rows.filter { $0["id"]?.stringValue == workout }
        #expect(renamed.map { $0["property"]?.stringValue } == ["name", "durationInSeconds"])
        #expect(renamed.first?["old"] == .string("Workout"))
        #expect(renamed.first?["new"] == .string("Morning Workout"))
        #expect(renamed.first?["entity"] == .string("Timer"))
        let move = try #require(rows.first { $0["id"]?.stringValue == stretch })
        #expect(move["path"] == .string(moved))
        #expect(move["from"] == .string(stretchPath))
        #expect(move["property"] == .null, "the move changed no member")
        #expect(rows.filter { $0["id"]?.stringValue == stretch }.count == 1)
        let created = rows.filter { $0["id"]?.stringValue == nap }
        #expect(
            created.contains { $0["property"] == .string("name") && $0["old"] == .null && $0["new"] == .string("Nap") })
        #expect(try repository.repositoryState() == before)

        // The table names the same changes, ids short.
        let table = try repository.succeeded("diff")
        #expect(table.output.contains("Morning Workout"), "\(table.output)")
        #expect(table.output.contains("moved"), "\(table.output)")
        #expect(table.output.contains("Timer     \(workout.prefix(8))  "), "a table shows ids short: \(table.output)")
        #expect(try repository.repositoryState() == before)
    }

    @Test func twoRevisionsAcrossAMergeAndOneRevisionAgainstTheWorkingTree() throws {
        let repository = try Repository()
        let coffee = try repository.store.id(of: "Timer", where: "name == \"Coffee Break\"")
        let workout = try repository.store.id(of: "Timer", where: "name == \"Workout\"")
        try repository.git().git("checkout", "-q", "-b", "side")
        try repository.succeeded("set", workout, "name=Morning Workout")
        try repository.commit("side: morning", author: "Grace", at: "2026-11-02T10:00:00Z")
        try repository.git().git("checkout", "-q", "main")
        try repository.succeeded("delete", coffee)
        try repository.commit("main: delete the coffee break", author: "Ada", at: "2026-11-03T10:00:00Z")
        try repository.git(author: "Linus", at: "2026-11-04T10:00:00Z").git("merge", "-q", "--no-edit", "side")
        let before = try repository.repositoryState()

        // The merge brought the side's change into main.
        let merged = try diff(repository, "HEAD~1", "HEAD")
        #expect(kinds(merged) == [workout: "changed"], "\(merged)")
        #expect(merged.first?["new"] == .string("Morning Workout"))
        // From the start to the merge: both sides; and the other way round, a restore.
        #expect(kinds(try diff(repository, "main~2", "main")) == [workout: "changed", coffee: "deleted"])
        #expect(kinds(try diff(repository, "main", "main~2")) == [workout: "changed", coffee: "restored"])
        #expect(kinds(try diff(repository, "side", "main")) == [coffee: "deleted"])
        #expect(try repository.repositoryState() == before)

        // One revision: the working tree against it, with an uncommitted restore.
        try repository.succeeded("restore", coffee)
        let state = try repository.repositoryState()
        let against = try diff(repository, "main~2")
        #expect(kinds(against) == [workout: "changed"], "restored, the coffee break is as it was: \(against)")
        #expect(kinds(try diff(repository)) == [coffee: "restored"])
        #expect(try repository.repositoryState() == state)
    }

    @Test func anEntityAndAQueryRestrictTheRecordsAndStatCountsThemInEveryFormat() throws {
        let repository = try Repository()
        let coffee = try repository.store.id(of: "Timer", where: "name == \"Coffee Break\"")
        let workout = try repository.store.id(of: "Timer", where: "name == \"Workout\"")
        let stretch = try repository.store.id(of: "TodoItem", where: "text == \"Stretch\"")
        try repository.succeeded("set", coffee, "durationInSeconds=900")
        try repository.succeeded("set", workout, "durationInSeconds=100")
        try repository.succeeded("set", stretch, "isCompleted=true")
        try repository.commit("changes", author: "Ada", at: "2026-11-02T10:00:00Z")

        #expect(kinds(try diff(repository, "HEAD~1", "HEAD", "Timer")) == [coffee: "changed", workout: "changed"])
        #expect(kinds(try diff(repository, "HEAD~1", "HEAD", "TodoItem")) == [stretch: "changed"])
        // Matching either side: the coffee break only after (900), the workout only before (1500).
        #expect(
            kinds(
                try diff(repository, "HEAD~1", "HEAD", "Timer", "durationInSeconds > 800 && durationInSeconds < 1000"))
                == [coffee: "changed"])
        #expect(
            kinds(try diff(repository, "HEAD~1", "HEAD", "Timer", "durationInSeconds >= 1500"))
                == [workout: "changed"])
        #expect(try diff(repository, "HEAD~1", "HEAD", "Timer", "name == \"Nothing\"").isEmpty)

        let stat = try repository.succeeded("diff", "HEAD~1", "HEAD", "--stat", "--format", "json")
        let counts = try #require(try JSONReader().read(stat.output).arrayValue).compactMap(\.objectValue)
        #expect(counts.map { $0["entity"]?.stringValue } == ["Timer", "TodoItem"])
        #expect(counts.first?["changed"] == .integer(2))
        #expect(counts.first?["created"] == .integer(0))
        #expect(counts.last?["total"] == .integer(1))
        let csv = try repository.succeeded("diff", "HEAD~1", "HEAD", "--format", "csv")
        #expect(csv.output.hasPrefix("change,entity,id,property,old,new,path,from\n"), "\(csv.output)")
        #expect(csv.output.contains(coffee), "CSV keeps ids whole: \(csv.output)")
        let json = try repository.succeeded("diff", "HEAD~1", "HEAD", "Timer", "--format", "json")
        #expect(try JSONReader().read(json.output).arrayValue?.count == 2)
        let table = try repository.succeeded("diff", "HEAD~1", "HEAD", "--stat")
        #expect(table.output.contains("TodoItem"), "\(table.output)")
        // Nothing changed: nothing listed.
        #expect(try diff(repository).isEmpty)
        let unknown = try repository.folio("diff", "HEAD", "Timer", "nosuch > 1")
        #expect(unknown.status != 0)
        #expect(unknown.errors.contains("nosuch"), "\(unknown.errors)")
    }

    @Test func aQueryThatReadsARelatedRecordReadsItAsEachStateHeldIt() throws {
        let repository = try Repository()
        let workout = try repository.store.id(of: "Timer", where: "name == \"Workout\"")
        let coffee = try repository.store.id(of: "Timer", where: "name == \"Coffee Break\"")
        let stretch = try repository.store.id(of: "TodoItem", where: "text == \"Stretch\"")
        let run = try repository.store.id(of: "TodoItem", where: "text == \"Run\"")
        // Stretch goes to the coffee break; Run stays with the workout, which is renamed.
        try repository.succeeded("set", stretch, "timer=\(coffee)")
        try repository.succeeded("set", run, "isCompleted=false")
        try repository.succeeded("set", workout, "name=Morning Workout")
        try repository.commit("regrouped", author: "Ada", at: "2026-11-02T10:00:00Z")
        let before = try repository.repositoryState()

        // Before, both to-dos were the workout's, under its old name; after, each its own.
        #expect(
            kinds(try diff(repository, "HEAD~1", "HEAD", "TodoItem", "timer.name == \"Workout\""))
                == [stretch: "changed", run: "changed"])
        #expect(
            kinds(try diff(repository, "HEAD~1", "HEAD", "TodoItem", "timer.name == \"Coffee Break\""))
                == [stretch: "changed"])
        #expect(
            kinds(try diff(repository, "HEAD~1", "HEAD", "TodoItem", "timer.name == \"Morning Workout\""))
                == [run: "changed"])
        // Against the working tree, the related records are the working tree's.
        try repository.succeeded("set", run, "text=Jog")
        try repository.succeeded("set", workout, "name=Evening Workout")
        let state = try repository.repositoryState()
        #expect(
            kinds(try diff(repository, "TodoItem", "timer.name == \"Evening Workout\"")) == [run: "changed"])
        #expect(
            kinds(try diff(repository, "TodoItem", "timer.name == \"Morning Workout\"")) == [run: "changed"],
            "HEAD's name, in the older state")
        #expect(try diff(repository, "TodoItem", "timer.name == \"Workout\"").isEmpty)
        #expect(try repository.repositoryState() == state)
        #expect(state != before, "the working tree's changes are there to be read")
    }

    @Test func badRevisionsAStoreOutsideGitAndAFileThatDoesNotParseAreSaidSoWithoutAnyWrite() throws {
        let plain = try TimerStore()
        let outside = try plain.folio("diff")
        #expect(outside.status != 0)
        #expect(outside.errors.contains("is not in a git repository"), "\(outside.errors)")
        // A repository without a commit yet has no HEAD to compare with.
        try GitClone(path: plain.folder.path, environment: GitClone.environment(home: plain.folder("home"))).git(
            "init", "-q", ".")
        let empty = try plain.folio("diff")
        #expect(empty.status != 0)
        #expect(empty.errors.contains("has no commit HEAD"), "\(empty.errors)")
        #expect(!empty.errors.contains("no entity"), "no entity was named: \(empty.errors)")

        let repository = try Repository()
        let workout = try repository.store.id(of: "Timer", where: "name == \"Workout\"")
        let coffee = try repository.store.id(of: "Timer", where: "name == \"Coffee Break\"")
        let before = try repository.repositoryState()
        for revision in ["--output=x", "-p", "--all"] {
            let run = try repository.folio("diff", "--", revision)
            #expect(run.status != 0)
            #expect(run.errors.contains("is not a revision"), "\(run.errors)")
        }
        #expect(!FileManager.default.fileExists(atPath: repository.store.root + "/x"))
        let missing = try repository.folio("diff", "no-such-branch")
        #expect(missing.status != 0)
        #expect(missing.errors.contains("has no commit no-such-branch"), "\(missing.errors)")
        let typo = try repository.folio("diff", "Timr")
        #expect(typo.errors.contains("no entity of that name either"), "\(typo.errors)")
        let many = try repository.folio("diff", "HEAD", "HEAD", "HEAD")
        #expect(many.status != 0)
        #expect(many.errors.contains("one argument too many"), "\(many.errors)")
        #expect(try repository.repositoryState() == before)

        let file = repository.store.root + "/" + (try repository.store.path(of: workout))
        try Data("{ \"$entity\": \"Timer\",\n".utf8).write(to: URL(fileURLWithPath: file))
        try repository.succeeded("set", coffee, "name=Tea Break")
        let broken = try repository.folio.run(["diff", "--format", "ndjson"])
        #expect(broken.status == 0, "\(broken.errors)")
        #expect(broken.errors.contains("does not parse"), "\(broken.errors)")
        #expect(broken.output.contains("Tea Break"), "the rest is still shown: \(broken.output)")
        #expect(broken.output.contains(workout), "the record is named: \(broken.output)")
        try repository.commit("broken by hand", author: "Ada", at: "2026-11-02T10:00:00Z")
        let committed = try repository.folio.run(["diff", "HEAD~1", "HEAD", "--format", "ndjson"])
        #expect(committed.status == 0, "\(committed.errors)")
        #expect(committed.errors.contains("does not parse"), "\(committed.errors)")
        #expect(committed.output.contains("Tea Break"), "\(committed.output)")
    }
}
