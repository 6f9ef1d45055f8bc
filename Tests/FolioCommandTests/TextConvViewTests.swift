import FolioTestSupport
import Foundation
import Testing

/// `folio textconv` as git's diff driver: after `folio git install`, `git diff`, `git log -p`
/// and `git show` of a store read as property changes; plain git stays as it was.
struct TextConvViewTests {
    @Test func gitDiffLogAndShowReadAsPropertyChangesOnceInstalledAndPlainGitAsBefore() throws {
        let repository = try RecordLogTests.Repository()
        let id = try repository.store.id(of: "Timer", where: "name == \"Workout\"")
        let todo = try repository.store.id(of: "TodoItem", where: "text == \"Stretch\"")
        let coffee = try repository.store.id(of: "Timer", where: "name == \"Coffee Break\"")
        let git = repository.git()
        try repository.succeeded("set", id, "name=Morning Workout")
        try repository.succeeded("set", todo, "timer=\(coffee)")
        // Plain git: the JSON lines, as they are.
        let plain = try git.git("diff")
        #expect(plain.contains("-  \"name\": \"Workout\","), "\(plain)")
        #expect(plain.contains("+  \"name\": \"Morning Workout\","), "\(plain)")

        var environment = repository.environment
        environment["PATH"] = try FolioTool.installed(in: repository.folder("bin")) + ":" + (environment["PATH"] ?? "")
        let installed = try FolioTool(folder: repository.store.root, environment: environment)("git", "install")
        #expect(installed.status == 0, "\(installed.errors)")
        let viewed = try git.git("diff", "--", "Timers/Timer", "Timers/TodoItem")
        #expect(viewed.contains("-name: \"Workout\"\n+name: \"Morning Workout\"\n"), "\(viewed)")
        #expect(viewed.contains("-timer: \(id)\n+timer: \(coffee)\n"), "a relationship by its UUID: \(viewed)")
        #expect(viewed.contains(" Timer \(id)\n"), "the entity and the record head the view: \(viewed)")
        #expect(viewed.contains("\n createdAt: 2026-11-01T11:00:00+01:00\n"), "in the store's time zone: \(viewed)")
        #expect(
            !viewed.contains("-createdAt") && !viewed.contains("+createdAt"),
            "an unchanged date is the same line on both sides, the index's copy and the work tree's file: \(viewed)")

        try repository.commit("morning", author: "Ada", at: "2026-11-02T10:00:00Z")
        let shown = try git.git("show", "HEAD", "--", "Timers/Timer")
        #expect(shown.contains("+name: \"Morning Workout\""), "\(shown)")
        // The first commit's creation, dates in the store's time zone (Europe/Berlin).
        let created = try git.git("log", "-p", "--reverse", "--format=%s", "--", "Timers/Timer")
        #expect(created.contains("+createdAt: 2026-11-01T11:00:00+01:00\n"), "\(created)")
        #expect(created.contains("+durationInSeconds: 1500\n"), "\(created)")
    }

    @Test func eachStoreDeepInAWorkTreeIsViewedInItsOwnTimeZone() throws {
        let folder = try TemporaryDirectory()
        _ = try folder.create("schema.json", contents: Array(TimerStore.schema.utf8))
        var environment = GitClone.environment(home: folder("home"))
        try FileManager.default.createDirectory(atPath: folder("home"), withIntermediateDirectories: true)
        environment["PATH"] = try FolioTool.installed(in: folder("bin")) + ":" + (environment["PATH"] ?? "")
        let git = GitClone(path: folder.path, environment: environment)
        try git.git("init", "-q", "--initial-branch=main", ".")
        // Two stores two folders down, in zones an hour and six hours from UTC.
        let stores = [("apps/berlin/Timers", "Europe/Berlin"), ("apps/new york/Timers", "America/New_York")]
        for (path, zone) in stores {
            let made = try FolioTool(folder: folder.path, environment: environment)(
                "init", path, "--time-zone", zone, "--schema", "schema.json")
            #expect(made.status == 0, "\(made.errors)")
            let tool = FolioTool(folder: folder(path), environment: environment)
            let inserted = try tool(
                "insert", "Timer", "name=Tea", "durationInSeconds=240", "createdAt=2026-11-01T12:00:00Z")
            #expect(inserted.status == 0, "\(inserted.errors)")
            let installed = try tool("git", "install")
            #expect(installed.status == 0, "\(installed.errors)")
        }
        try git.git("add", "--all")
        try git.git("commit", "-q", "-m", "two stores")
        for (path, _) in stores {
            let tool = FolioTool(folder: folder(path), environment: environment)
            #expect(try tool("set", "Timer", "name == \"Tea\"", "name=Green Tea").status == 0)
        }

        let viewed = try git.git("diff")
        #expect(viewed.contains("-name: \"Tea\"\n+name: \"Green Tea\"\n"), "\(viewed)")
        #expect(viewed.contains(" createdAt: 2026-11-01T13:00:00+01:00\n"), "Berlin's: \(viewed)")
        #expect(viewed.contains(" createdAt: 2026-11-01T07:00:00-05:00\n"), "New York's: \(viewed)")
        // From inside a store, and from git's own objects (the committed version's temporary copy).
        let inside = GitClone(path: folder("apps/new york/Timers"), environment: environment)
        let shown = try inside.git("log", "-p", "--format=%s", "--", ".")
        #expect(shown.contains("+createdAt: 2026-11-01T07:00:00-05:00\n"), "\(shown)")
        #expect(!shown.contains("+01:00"), "\(shown)")
        let attributes = try String(contentsOfFile: folder("apps/berlin/Timers/.gitattributes"), encoding: .utf8)
        let other = try String(contentsOfFile: folder("apps/new york/Timers/.gitattributes"), encoding: .utf8)
        #expect(attributes.contains("*.json merge=folio diff=folio-"), "\(attributes)")
        #expect(attributes != other, "each store its own driver")
    }

    @Test func aFileThatDoesNotParseIsPrintedAsItIsAndWithoutAManifestDatesAreInUTC() throws {
        let folder = try TemporaryDirectory()
        let broken = try folder.create("broken.json", contents: Array("{ \"name\": \n".utf8))
        let tool = FolioTool(folder: folder.path)
        let run = try tool("textconv", broken)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output == "{ \"name\": \n")
        let id = "0F6C1E2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B"
        let record = try folder.create(
            "\(id).json",
            contents: Array(
                "{\n  \"$entity\": \"Timer\",\n  \"$version\": \"1.0.0\",\n  \"$deleted\": \"2026-11-03T10:00:00Z\",\n  \"name\": \"Tea\"\n}\n"
                    .utf8))
        let view = try tool("textconv", record)
        #expect(
            view.output == "Timer \(id)\n$version: \"1.0.0\"\n$deleted: 2026-11-03T10:00:00Z\nname: \"Tea\"\n",
            "\(view.output)")
    }
}
