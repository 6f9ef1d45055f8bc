import FolioTestSupport
import Foundation
import Testing

/// Stores that cannot be written as usual: a file that refuses to be replaced part way
/// through a transaction, a read-only mount, things in `.folio/` Folio did not put there.
/// What the tool says is true, reads go on, and nothing is lost.
struct StuckStoreTests {
    /// Whether this machine lets the tests set the immutable flag (root, on ext4 and the like).
    static let canMakeFilesImmutable: Bool = {
        guard let folder = try? TemporaryDirectory(), let file = try? folder.create("probe") else { return false }
        guard shell("chattr +i '\(file)'") == 0 else { return false }
        return shell("chattr -i '\(file)'") == 0
    }()

    /// Whether this machine lets the tests mount a folder read-only (root in a mount namespace that allows it).
    static let canMountReadOnly: Bool = {
        guard let source = try? TemporaryDirectory(), let mountPoint = try? TemporaryDirectory() else { return false }
        guard
            shell("mount --bind '\(source.path)' '\(mountPoint.path)' && mount -o remount,bind,ro '\(mountPoint.path)'")
                == 0
        else {
            _ = shell("umount '\(mountPoint.path)'")
            return false
        }
        return shell("umount '\(mountPoint.path)'") == 0
    }()

    @discardableResult
    static func shell(_ command: String) -> Int32 {
        (try? ProcessRun(
            "/bin/sh", ["-c", command + " 2>/dev/null"], in: "/", environment: ProcessInfo.processInfo.environment
        ).status) ?? -1
    }

    @Test(.enabled(if: canMakeFilesImmutable, "needs chattr +i (root, a file system with attributes)"))
    func aFileThatCannotBeReplacedAfterTheCommitPointIsReportedAsCommittedAndFinishedLater() throws {
        let store = try TimerStore()
        let lines = (0..<40).map {
            #"{"text": "item \#($0)", "isCompleted": false, "createdAt": "2026-11-0\#($0 % 5 + 1)T10:00:00Z"}"#
        }
        _ = try store.folder.create("todos.ndjson", contents: Array((lines.joined(separator: "\n") + "\n").utf8))
        #expect(try store.folio("import", "TodoItem", "../todos.ndjson").status == 0)
        let stuckID = try store.id(of: "TodoItem", where: "text == \"item 33\"")
        let stuck = store.root + "/" + (try store.path(of: stuckID))
        Self.shell("chattr +i '\(stuck)'")
        defer { Self.shell("chattr -i '\(stuck)'") }

        let set = try store.folio("set", "TodoItem", "true", "text=bulk")
        #expect(set.status == 74)
        #expect(set.errors.contains("the transaction is committed but could not be finished"), "\(set.errors)")
        #expect(!set.errors.contains("unchanged"))

        // Reads go on, and say what is stuck; writes wait for it to be finished.
        let count = try store.folio("count", "TodoItem")
        #expect(count.status == 0)
        #expect(count.output.trimmingCharacters(in: .whitespacesAndNewlines) == "42")
        #expect(count.errors.contains("warning:") && count.errors.contains(stuckID), "\(count.errors)")
        let check = try store.folio("check")
        #expect(check.output.contains("committed but could not be finished"))
        #expect(
            try store.folio("insert", "Timer", "name=Later", "durationInSeconds=1", "createdAt=2026-11-05T10:00:00Z")
                .status == 74)

        Self.shell("chattr -i '\(stuck)'")
        let finished = try store.folio("count", "TodoItem", "text == \"bulk\"")
        #expect(finished.status == 0)
        #expect(
            finished.output.trimmingCharacters(in: .whitespacesAndNewlines) == "42",
            "the whole transaction, once finished")
        #expect(!finished.errors.contains("warning:"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.root + "/.folio/journal").isEmpty)
    }

    @Test(.enabled(if: canMountReadOnly, "needs a read-only bind mount (root)"))
    func aReadOnlyStoreIsReadWithANoteThatNoLockWasTaken() throws {
        let store = try TimerStore()
        // As a fresh read-only checkout has it: no local state at all.
        try FileManager.default.removeItem(atPath: store.root + "/.folio")
        let mountPoint = try TemporaryDirectory()
        try #require(
            Self.shell(
                "mount --bind '\(store.root)' '\(mountPoint.path)' && mount -o remount,bind,ro '\(mountPoint.path)'")
                == 0)
        defer { Self.shell("umount '\(mountPoint.path)'") }
        let folio = FolioTool(folder: mountPoint.path)

        let count = try folio("count", "Timer")
        #expect(count.status == 0, "\(count.errors)")
        #expect(count.output.trimmingCharacters(in: .whitespacesAndNewlines) == "2")
        #expect(count.errors.contains("note: the store is read-only") && count.errors.contains("no lock was taken"))
        #expect(try folio("query", "TodoItem", "isCompleted").status == 0)
        #expect(try folio("check").status == 0)
        let insert = try folio("insert", "Timer", "name=Tea", "durationInSeconds=60", "createdAt=2026-11-01T12:00:00Z")
        #expect(insert.status == 74)
        #expect(insert.errors.contains("read-only"), "\(insert.errors)")
    }

    @Test(
        .enabled(
            if: geteuid() == 0 && TerminalSession.installed("setpriv"),
            "needs root, to run the check as another user with setpriv"))
    func aLocalStateFolderThatCannotBeReadIsAnErrorOfTheCheckNotPassedOver() throws {
        let store = try TimerStore()
        #expect(try store.folio("reindex").status == 0)  // makes .folio/cache
        // Everything readable by anyone but the cache folder, which the user of the check cannot open.
        #expect(Self.shell("chmod -R a+rwX '\(store.folder.path)' && chmod 700 '\(store.root)/.folio/cache'") == 0)
        let check = try ProcessRun(
            "/usr/bin/env", ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", FolioTool.path, "check"],
            in: store.root, environment: ["PATH": "/usr/bin:/bin"])
        #expect(check.status == 1, "\(check.output)\(check.errors)")
        #expect(
            check.output.contains(
                ".folio/cache: error: cannot be read (could not open the folder: Permission denied); give this user access to it"
            ), "\(check.output)")
    }

    @Test func strayFilesInTheLocalStateAreIgnoredLeftAloneAndReported() throws {
        let store = try TimerStore()
        let journal = store.root + "/.folio/journal"
        try FileManager.default.createDirectory(atPath: journal + "/notes", withIntermediateDirectories: true)
        try Data("finder".utf8).write(to: URL(fileURLWithPath: journal + "/.DS_Store"))
        try Data("mine".utf8).write(to: URL(fileURLWithPath: journal + "/notes/todo.txt"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: store.root + "/.folio/backup.tar"))

        #expect(try store.folio("count", "Timer").status == 0)
        #expect(
            try store.folio("insert", "Timer", "name=Tea", "durationInSeconds=60", "createdAt=2026-11-01T12:00:00Z")
                .status == 0)
        #expect(try store.folio("reindex").status == 0)
        // Three notes of one message: --verbose lists each (see NoteFoldingTests for the folded line).
        let check = try store.folio("check", "--verbose")
        #expect(check.output.contains(".folio/journal/.DS_Store: note: is not Folio's"))
        #expect(check.output.contains(".folio/journal/notes: note: is not Folio's"))
        #expect(check.output.contains(".folio/backup.tar: note: is not Folio's"))
        #expect(FileManager.default.fileExists(atPath: journal + "/.DS_Store"))
        #expect(FileManager.default.fileExists(atPath: journal + "/notes/todo.txt"))
    }
}
