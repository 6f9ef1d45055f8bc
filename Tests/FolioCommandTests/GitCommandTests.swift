import FolioJSON
import FolioTestSupport
import Foundation
import Testing

/// `folio git install|uninstall`, `merge-driver` on bad input, `resolve`, and `sync` between real clones.
struct GitCommandTests {
    typealias Origin = GitSyncTests.Origin

    /// The path and identity of the base timer named "Timer <index>".
    func timer(_ index: Int, in origin: Origin) throws -> (path: String, id: String) {
        let found = origin.base.documents.first { $0.value["name"] == .string("Timer \(index)") }
        let entry = try #require(found)
        return (entry.key, try #require(entry.value["id"]?.stringValue))
    }

    func read(_ file: String) throws -> JSONObject {
        try #require(try JSONReader().read(Array(try Data(contentsOf: URL(fileURLWithPath: file)))).objectValue)
    }

    @Test func installIsIdempotentKeepsOtherAttributesAndUninstallRemovesOnlyItsOwn() throws {
        let origin = try Origin()
        let folio = origin.folio(in: origin.origin)
        let attributes = origin.origin.path + "/Store/.gitattributes"
        let text = try String(contentsOfFile: attributes, encoding: .utf8)
        try ("*.csv text\n" + text).write(toFile: attributes, atomically: true, encoding: .utf8)
        #expect(try folio("git", "install").status == 0)
        #expect(try folio("git", "install").status == 0)
        let installed = try String(contentsOfFile: attributes, encoding: .utf8)
        #expect(installed.hasPrefix("*.csv text\n\n# folio git install: begin"))
        #expect(installed.components(separatedBy: "*.json merge=folio diff=folio").count == 2)
        let driver = try origin.origin.git("config", "--get-all", "merge.folio.driver")
        #expect(driver.split(separator: "\n").count == 1)
        #expect(driver.hasSuffix(" merge-driver %O %A %B %P\n"))
        // The store's own diff driver names its folder, from the top of the work tree.
        let views = try origin.origin.git("config", "--get-regexp", "^diff\\.folio-.*\\.textconv$")
        #expect(views.split(separator: "\n").count == 1, "\(views)")
        #expect(views.hasSuffix(" textconv --store 'Store'\n"), "\(views)")
        let name = try #require(views.split(separator: " ").first?.split(separator: ".").dropFirst().first)
        #expect(installed.contains("*.json merge=folio diff=\(name)\n"), "\(installed)")
        #expect(try origin.origin.git("config", "--get", "merge.renames") == "false\n")

        #expect(try folio("git", "uninstall").status == 0)
        #expect(try folio("git", "uninstall").status == 0)
        #expect(try String(contentsOfFile: attributes, encoding: .utf8) == "*.csv text\n")
        #expect(try origin.origin.run("config", "--get", "merge.folio.driver").status == 1)
        #expect(try origin.origin.run("config", "--get", "diff.folio.textconv").status == 1)
        #expect(try origin.origin.run("config", "--get-regexp", "^diff\\.folio-").status == 1)
        #expect(try origin.origin.run("config", "--get", "merge.renames").status == 1)
    }

    /// What `folio git install` wrote in the origin: its .gitattributes and its driver.
    func installed(in origin: Origin) throws -> (attributes: String, driver: String) {
        (
            try String(contentsOfFile: origin.origin.path + "/Store/.gitattributes", encoding: .utf8),
            try origin.origin.git("config", "--get", "merge.folio.driver")
        )
    }

    @Test(.enabled(if: FolioTool.isInBuildFolder, "the tool is built outside a .build folder"))
    func installRefusesTheToolInItsBuildFolderAndSaysHowToInstallIt() throws {
        let origin = try Origin()
        let before = try installed(in: origin)
        var folio = origin.folio(in: origin.origin)
        folio.environment = ["PATH": "/usr/bin:/bin"]
        let run = try folio("git", "install")
        #expect(run.status == 65)
        #expect(run.errors.contains("\(FolioTool.path): error: is in a build folder"), "\(run.errors)")
        #expect(run.errors.contains("changed nothing"), "\(run.errors)")
        // The way out, exact: a release build of this package, installed on PATH.
        let package = FolioTool.path.components(separatedBy: "/.build/")[0]
        #expect(
            run.errors.contains("swift build -c release --product folio --package-path \(package) && "),
            "\(run.errors)")
        #expect(run.errors.contains("install -m 755 \(package)/.build/release/folio "), "\(run.errors)")
        #expect(try installed(in: origin) == before, "nothing written")
    }

    @Test(.enabled(if: FolioTool.isInBuildFolder, "the tool is built outside a .build folder"))
    func installRefusesTheToolReachedThroughALinkOnPathIntoItsBuildFolder() throws {
        let origin = try Origin()
        let before = try installed(in: origin)
        let bin = try TemporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: bin("folio"), withDestinationPath: FolioTool.path)
        var folio = origin.folio(in: origin.origin)
        folio.environment = ["PATH": bin.path + ":/usr/bin:/bin"]
        folio.executable = bin("folio")
        let run = try folio("git", "install")
        #expect(run.status == 65)
        #expect(run.errors.contains("\(FolioTool.path): error: is in a build folder"), "\(run.errors)")
        // The link is what the install line replaces with a release build.
        #expect(run.errors.contains("/.build/release/folio \(bin("folio"))"), "\(run.errors)")
        #expect(try installed(in: origin) == before, "nothing written")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: bin("folio")) == FolioTool.path)
    }

    @Test(.enabled(if: FolioTool.isInBuildFolder, "the tool is built outside a .build folder"))
    func anInstalledCopyIsRecordedWhenTheFolioOnPathLinksIntoTheBuildFolder() throws {
        let origin = try Origin()
        let links = try TemporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: links("folio"), withDestinationPath: FolioTool.path)
        let copy = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: FolioTool.path, toPath: copy("folio"))
        var folio = origin.folio(in: origin.origin)
        folio.environment = ["PATH": links.path + ":/usr/bin:/bin"]
        folio.executable = copy("folio")
        let run = try folio("git", "install")
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            try origin.origin.git("config", "--get", "merge.folio.driver").hasPrefix("'\(copy("folio"))' merge-driver"))
    }

    @Test func installRecordsTheFolioOnPath() throws {
        let origin = try Origin()
        var folio = origin.folio(in: origin.origin)
        // A copy of this folio on PATH is what the configuration names, a place that stays.
        let bin = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: FolioTool.path, toPath: bin("folio"))
        folio.environment = ["PATH": bin.path + ":/usr/bin:/bin"]
        let fromPath = try folio("git", "install")
        #expect(fromPath.status == 0 && fromPath.errors.isEmpty, "\(fromPath.errors)")
        #expect(
            try origin.origin.git("config", "--get", "merge.folio.driver").hasPrefix("'\(bin("folio"))' merge-driver"))
    }

    @Test func attributesThatCannotBeReadAreNeverRewrittenOrDeleted() throws {
        let origin = try Origin()
        let folio = origin.folio(in: origin.origin)
        let attributes = origin.origin.path + "/Store/.gitattributes"
        // Not UTF-8: uninstall used to read it as nothing and delete the file.
        let latin1 = Data([0x2A, 0x2E, 0x74, 0x78, 0x74, 0x20, 0x23, 0x20, 0xE9, 0x0A])
        try latin1.write(to: URL(fileURLWithPath: attributes))
        for command in ["uninstall", "install"] {
            let run = try folio("git", command)
            #expect(run.status == 65, "\(command): \(run.errors)")
            #expect(run.errors.contains("is not UTF-8 text, so Folio leaves it alone"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: attributes)) == latin1)
        }
        // A link in its place is refused, and what it points at is left alone.
        let outside = origin.origin.path + "/outside-attributes"
        try "keep me\n".write(toFile: outside, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: attributes)
        try FileManager.default.createSymbolicLink(atPath: attributes, withDestinationPath: "../outside-attributes")
        for command in ["install", "uninstall"] {
            let run = try folio("git", command)
            #expect(run.status == 65, "\(command): \(run.errors)")
            #expect(try String(contentsOfFile: outside, encoding: .utf8) == "keep me\n")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: attributes) == "../outside-attributes")
        }
    }

    @Test func theDriverFallsBackToGitsLineMergeWhenADocumentDoesNotParse() throws {
        let folder = try TemporaryDirectory()
        let base = try folder.create("base", contents: Array("{\n  \"a\": 1\n}\n".utf8))
        let ours = try folder.create("ours", contents: Array("{\n  \"a\": 2,\n}\n".utf8))
        let theirs = try folder.create("theirs", contents: Array("{\n  \"a\": 3\n}\n".utf8))
        let run = try FolioTool(folder: folder.path)("merge-driver", base, ours, theirs, "Timer/x.json")
        #expect(run.status == 1)
        #expect(run.errors.contains("merged by line instead"))
        let merged = try String(contentsOfFile: ours, encoding: .utf8)
        #expect(
            merged.contains("<<<<<<< ours") && merged.contains("\"a\": 2,") && merged.contains("\"a\": 3")
                && merged.contains(">>>>>>> theirs"))
    }

    @Test func syncCommitsPullsWithTheDriverChecksAndPushesAndStopsAtAConflictUntilResolved() throws {
        let origin = try Origin(bare: true)
        let (a, b) = (try origin.clone("a"), try origin.clone("b"))
        let (folioA, folioB) = (origin.folio(in: a), origin.folio(in: b))
        #expect(try folioA("sync").errors.contains("run `folio git install` first"))
        #expect(try folioA("git", "install").status == 0)
        #expect(try folioB("git", "install").status == 0)
        let first = try timer(0, in: origin)

        // Different properties of one document, and a new one: merged, checked, pushed.
        #expect(try folioB("set", first.id, "name=Bee").status == 0)
        let syncB = try folioB("sync")
        #expect(syncB.status == 0, "\(syncB.errors)")
        #expect(syncB.output.contains("Committed: folio sync: Timer +0 ~1 -0"))
        #expect(try folioA("set", first.id, "durationInSeconds=42").status == 0)
        #expect(
            try folioA("insert", "Timer", "name=New", "durationInSeconds=60", "createdAt=2026-11-20T10:00:00Z").status
                == 0)
        let syncA = try folioA("sync")
        #expect(syncA.status == 0, "\(syncA.errors)")
        #expect(syncA.output.contains("Committed: folio sync: Timer +1 ~1 -0"))
        #expect(syncA.output.hasSuffix("Pushed; the store is in sync\n"))
        let merged = try read(a.path + "/Store/" + first.path)
        #expect(merged["name"] == "Bee" && merged["durationInSeconds"] == 42)

        // The same property changed on both sides: the sync stops, the document keeps both values.
        let second = try timer(1, in: origin)
        #expect(try folioB("sync").status == 0)
        #expect(try folioB("set", second.id, "name=From B").status == 0)
        #expect(try folioB("sync").status == 0)
        #expect(try folioA("set", second.id, "name=From A").status == 0)
        let stopped = try folioA("sync")
        #expect(stopped.status == 1)
        #expect(stopped.errors.contains("Store/" + second.path))
        #expect(stopped.errors.contains("Nothing was pushed"))
        let check = try folioA("check")
        #expect(check.status == 1)
        #expect(
            check.output.contains(
                "\"name\" has a merge conflict: ours \"From A\", theirs \"From B\" (base \"Timer 1\")"))

        let resolved = try folioA("resolve", second.path, "--theirs")
        #expect(resolved.status == 0, "\(resolved.errors)")
        #expect(try read(a.path + "/Store/" + second.path) == (try read(b.path + "/Store/" + second.path)))
        try a.git("add", "Store/" + second.path)
        try a.git("commit", "-q", "--no-edit")
        let finished = try folioA("sync")
        #expect(finished.status == 0, "\(finished.errors)")
        #expect(try folioA("check").status == 0)
    }
}

extension GitCommandTests {
    @Test func theDriverNeverMergesTwoDifferentDocumentsThatGitPairedAsARename() throws {
        let folder = try TemporaryDirectory()
        func document(_ id: String, _ name: String) -> [UInt8] {
            Array(
                "{\n  \"$entity\": \"Timer\",\n  \"$version\": \"1.0.0\",\n  \"id\": \"\(id)\",\n  \"name\": \"\(name)\"\n}\n"
                    .utf8)
        }
        let (first, second) = ("0F6C1E2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B", "1F6C1E2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B")
        let base = try folder.create("base", contents: document(first, "Run"))
        let ours = try folder.create("ours", contents: document(first, "Walk"))
        let theirs = try folder.create("theirs", contents: document(second, "Swim"))
        let run = try FolioTool(folder: folder.path)(
            "merge-driver", base, ours, theirs, "Timer/2026/11/01/\(first).json")
        #expect(run.status == 1)
        #expect(run.errors.contains("git paired two different documents"))
        #expect(run.errors.contains("not merged"))
        // Ours is left exactly as it was: no blend of the two, no line merge with markers.
        #expect(try Data(contentsOf: URL(fileURLWithPath: ours)) == Data(document(first, "Walk")))
    }
}

extension GitCommandTests {
    @Test func theDriverFollowsTheManifestsNewestPolicyAndSaysWhatItTook() throws {
        let origin = try Origin()
        let manifestPath = origin.origin.path + "/Store/folio.json"
        var manifest = try read(manifestPath)
        manifest["merge"] = ["conflicts": "newest"]
        try Data(try JSONWriter().write(.object(manifest))).write(to: URL(fileURLWithPath: manifestPath))
        let first = try timer(0, in: origin)
        var base = try #require(origin.base.documents[first.path])
        base["updatedAt"] = "2026-11-01T10:00:00Z"
        var ours = base
        var theirs = base
        (ours["name"], ours["updatedAt"]) = ("Ours", "2026-11-03T10:00:00Z")
        (theirs["name"], theirs["updatedAt"]) = ("Theirs", "2026-11-02T10:00:00Z")
        theirs["durationInSeconds"] = 5
        let files = try TemporaryDirectory()
        let paths = try [base, ours, theirs].enumerated().map {
            try files.create("v\($0.offset)", contents: try JSONWriter().write(.object($0.element)))
        }
        let run = try FolioTool(folder: origin.origin.path)(
            "merge-driver", paths[0], paths[1], paths[2], "Store/" + first.path)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.errors.contains("name, updatedAt taken from the side changed last"))
        let merged = try read(paths[1])
        #expect(merged["name"] == "Ours" && merged["durationInSeconds"] == 5 && merged["$conflicts"] == nil)
    }
}

extension GitCommandTests {
    @Test func checkNotesDocumentsAnOlderSchemaWroteAfterAMerge() throws {
        let origin = try Origin()
        let first = try timer(0, in: origin)
        var content = try #require(origin.base.documents[first.path])
        content["$version"] = "0.9.0"
        try Data(try JSONWriter().write(.object(content))).write(
            to: URL(fileURLWithPath: origin.origin.path + "/Store/" + first.path))
        let run = try origin.folio(in: origin.origin)("check")
        #expect(run.status == 0)
        #expect(run.output.contains("\(first.path):3:3: note: written by schema 0.9.0, older than the store's 1.0.0"))
    }
}
