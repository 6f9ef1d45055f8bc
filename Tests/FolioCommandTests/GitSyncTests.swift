import FolioJSON
import FolioTestSupport
import Foundation
import Testing

/// The merge driver and `folio sync` with real git and real clones on this machine.
struct GitSyncTests {
    /// A repository `origin` holding a store `Store` with the sync schema, `.gitattributes`
    /// committed by `folio git install`, and 12 timers with 20 to-dos.
    struct Origin {
        let folder: TemporaryDirectory
        let environment: [String: String]
        let origin: GitClone
        var base: StoreFiles

        init(bare: Bool = false) throws {
            folder = try TemporaryDirectory()
            // The tool on PATH, outside the build folder, so `folio git install` records it.
            environment = GitClone.environment(home: folder("home"), bin: try FolioTool.installed(in: folder("bin")))
            try FileManager.default.createDirectory(atPath: folder("home"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: folder("origin"), withIntermediateDirectories: true)
            origin = GitClone(path: folder("origin"), environment: environment)
            try origin.git("init", "-q", "--initial-branch=main", ".")
            _ = try folder.create("schema.json", contents: Array(SyncDocuments.schema.utf8))
            let created = try FolioTool(folder: folder.path, environment: environment)(
                "init", "origin/Store", "--time-zone", "UTC", "--schema", "schema.json")
            guard created.status == 0 else { throw StoreSetupError(run: created) }
            base = try StoreFiles(root: folder("origin/Store"))
            var random = SplitMix64(seed: 7)
            var timers: [String] = []
            for index in 0..<12 {
                let id = SyncDocuments.uuid(&random)
                let (path, content) = SyncDocuments.timer(
                    id: id, name: "Timer \(index)", duration: 60 * (index + 1), day: 1 + index)
                try base.write(content, at: path)
                timers.append(id)
            }
            for index in 0..<20 {
                let (path, content) = SyncDocuments.todo(
                    id: SyncDocuments.uuid(&random), text: "To-do \(index)", timer: timers[index % 12], day: 1 + index)
                try base.write(content, at: path)
            }
            let installed = try FolioTool(folder: folder("origin/Store"), environment: environment)("git", "install")
            guard installed.status == 0 else { throw StoreSetupError(run: installed) }
            try origin.git("add", "--all")
            try origin.git("commit", "-q", "-m", "base")
            if bare { try origin.git("config", "receive.denyCurrentBranch", "updateInstead") }
        }

        /// A clone of origin (or of another clone) in a new folder.
        func clone(_ name: String, of source: String = "origin") throws -> GitClone {
            try GitClone(path: folder.path, environment: environment).git("clone", "-q", folder(source), folder(name))
            return GitClone(path: folder(name), environment: environment)
        }

        /// The tool, run in a clone's store.
        func folio(in clone: GitClone) -> FolioTool {
            FolioTool(folder: clone.path + "/Store", environment: environment)
        }
    }

    @Test func twoClonesWithAHundredRandomEditsEachMergeByPropertyWithNothingLostOrSilentlyChosen() throws {
        let origin = try Origin()
        let shared = Set(origin.base.documents.keys)
        let (a, b) = (try origin.clone("a"), try origin.clone("b"))
        try #require(origin.folio(in: a)("git", "install").status == 0)

        var filesA = try StoreFiles(root: a.path + "/Store")
        var filesB = try StoreFiles(root: b.path + "/Store")
        var editsA = RandomStoreEdits(seed: 1, side: "A", shared: shared)
        var editsB = RandomStoreEdits(seed: 2, side: "B", shared: shared)
        try editsA.apply(100, to: &filesA)
        try editsB.apply(100, to: &filesB)
        for (clone, message) in [(a, "edits A"), (b, "edits B")] {
            try clone.git("add", "--all")
            try clone.git("commit", "-q", "-m", message)
        }

        // Without the driver: a third clone, of A, merges B as git alone would (same strategy).
        let c = try origin.clone("c", of: "a")
        #expect(try c.run("config", "--get", "merge.folio.driver").status == 1, "a clone never inherits a driver")
        try c.git("fetch", "-q", b.path, "main")
        let plain = try c.run("merge", "--no-edit", "--strategy=recursive", "-Xno-renames", "FETCH_HEAD")
        let conflictsWithoutDriver = try c.unmergedFiles().count
        // What git alone leaves: conflict markers, so documents that no longer parse.
        let plainCheck = try origin.folio(in: c)("check", "--format", "ndjson")
        let unreadable = plainCheck.output.split(separator: "\n").filter {
            !$0.contains("has a merge conflict") && !$0.contains("must be unique") && !$0.contains("does not hold")
        }
        let unreadableWithoutDriver = unreadable.count

        // With the driver, in A.
        try a.git("fetch", "-q", b.path, "main")
        // As `folio sync` merges: no rename detection, since a document's identity is its file name.
        let merged = try a.run("merge", "--no-edit", "--strategy=recursive", "-Xno-renames", "FETCH_HEAD")
        let unmergedWithDriver = try a.unmergedFiles()
        let after = try StoreFiles(root: a.path + "/Store")

        // Nothing lost: every document either clone holds is there, unless a clone purged it.
        let expected = Set(filesA.documents.keys).union(filesB.documents.keys).subtracting(editsA.purged).subtracting(
            editsB.purged)
        let lost = expected.filter { after.documents[$0] == nil }.sorted()
        #expect(lost.isEmpty, "lost: \(lost)")

        // Each property follows the rules, and every real conflict shows both values.
        var propertyConflicts = 0
        var conflictDocuments = 0
        for (path, content) in after.documents {
            let recorded = content["$conflicts"]?.objectValue ?? [:]
            if !recorded.isEmpty { conflictDocuments += 1 }
            propertyConflicts += recorded.count
            guard let ours = filesA.documents[path], let theirs = filesB.documents[path] else { continue }
            let base = origin.base.documents[path] ?? [:]
            for key in Set(ours.keys).union(theirs.keys) where !key.hasPrefix("$") {
                let (o, t, b) = (ours[key], theirs[key], base[key])
                if o == t || t == b {
                    #expect(content[key] == o, "\(path) \(key)")
                } else if o == b {
                    #expect(content[key] == t, "\(path) \(key)")
                } else {
                    #expect(content[key] == o, "\(path) \(key) keeps ours meanwhile")
                    #expect(
                        recorded[key]?["ours"] == o && recorded[key]?["theirs"] == t,
                        "\(path) \(key) records both values")
                }
            }
            if theirs["$deleted"] != nil || ours["$deleted"] != nil {
                #expect(content["$deleted"] != nil, "\(path) keeps the tombstone")
            }
            let bytes = try Data(contentsOf: URL(fileURLWithPath: a.path + "/Store/" + path))
            #expect(Array(bytes) == (try JSONWriter().write(.object(content))), "\(path) is canonical")
        }

        // check finds the conflicts, and what line-level git cannot: duplicate unique values, dangling links.
        let check = try origin.folio(in: a)("check", "--format", "ndjson")
        let findings = try check.output.split(separator: "\n").map {
            try JSONReader().read(String($0))["message"]?.stringValue ?? ""
        }
        let conflictFindings = findings.filter { $0.contains("has a merge conflict") }.count
        let duplicates = findings.filter { $0.contains("must be unique") }.count
        let dangling = findings.filter { $0.contains("which the store does not hold") }.count
        let other = findings.filter {
            !$0.contains("has a merge conflict") && !$0.contains("must be unique")
                && !$0.contains("which the store does not hold")
        }
        #expect(conflictFindings == propertyConflicts)
        #expect(other.isEmpty, "unexpected findings: \(other)")
        #expect(merged.status == (unmergedWithDriver.isEmpty ? 0 : 1))
        #expect(plain.status == 1)
        #expect(unmergedWithDriver.count < conflictsWithoutDriver)

        print(
            """
            merge report (seeds 1 and 2, 100 edits per clone; A: \(editsA.counts.sorted { $0.key < $1.key }), B: \(editsB.counts.sorted { $0.key < $1.key })):
              files git alone leaves conflicted: \(conflictsWithoutDriver) (check then finds \(unreadableWithoutDriver) documents that do not parse: conflict markers)
              files conflicted with the driver:  \(unmergedWithDriver.count) (\(conflictDocuments) documents with "$conflicts", \(propertyConflicts) properties; \(unmergedWithDriver.count - conflictDocuments) modify/delete)
              documents lost: \(lost.count)
              folio check after the merge: \(findings.count) findings: \(conflictFindings) conflicts, \(duplicates) duplicate unique values, \(dangling) dangling relationships
            """)
    }
}
