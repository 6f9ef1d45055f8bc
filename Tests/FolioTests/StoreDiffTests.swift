import FolioJSON
import FolioTestSupport
import Foundation
import Testing

@testable import FolioCore

/// `StoreDiff` on real git repositories whose work tree is the store itself.
struct StoreDiffTests {
    static let tea = UUID(uuidString: "0F6C1E2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B")!
    static let coffee = UUID(uuidString: "1A2B3C4D-5E6F-4A1B-8C2D-3E4F5A6B7C8D")!
    static let nap = UUID(uuidString: "2B3C4D5E-6F7A-4B2C-9D3E-4F5A6B7C8D9E")!

    /// A Timer document as Folio writes it.
    static func timer(_ id: UUID, name: String, minutes: Int, deleted: Bool = false) -> [UInt8] {
        Array(
            """
            {
              "$entity": "Timer",
              "$version": "1.0.0",\(deleted ? "\n  \"$deleted\": \"2026-11-03T10:00:00Z\"," : "")
              "id": "\(id.uuidString)",
              "name": "\(name)",
              "minutes": \(minutes)
            }

            """.utf8)
    }

    static func path(_ id: UUID, day: Int = 1) -> String { "Timer/2026/11/0\(day)/\(id.uuidString).json" }

    @Test func aRecordMovedToAnotherDayFolderIsOneChangeWithItsPropertiesBetweenTwoCommits() throws {
        let repository = try GitScratchRepository()
        try repository.write(Self.path(Self.tea), Self.timer(Self.tea, name: "Tea", minutes: 4))
        try repository.write(Self.path(Self.coffee), Self.timer(Self.coffee, name: "Coffee", minutes: 10))
        try repository.write("notes.txt", Array("not a record\n".utf8))
        try repository.commitAll("first")
        try repository.remove(Self.path(Self.tea))
        try repository.write(Self.path(Self.tea, day: 2), Self.timer(Self.tea, name: "Tea", minutes: 5))
        try repository.write(
            Self.path(Self.coffee), Self.timer(Self.coffee, name: "Coffee", minutes: 10, deleted: true))
        try repository.write(Self.path(Self.nap, day: 3), Self.timer(Self.nap, name: "Nap", minutes: 20))
        try repository.write("notes.txt", Array("still not a record\n".utf8))
        try repository.commitAll("second")

        let diff = try StoreDiff(inStoreAt: repository.path, from: "HEAD~1", to: "HEAD")
        #expect(diff.from.count == 40)
        #expect(diff.to?.count == 40)
        #expect(diff.records.map(\.id) == [Self.coffee, Self.tea, Self.nap])
        #expect(diff.records.map(\.kind) == [.deleted, .moved, .created])
        let moved = diff.records[1]
        #expect(moved.pathBefore == Self.path(Self.tea))
        #expect(moved.pathAfter == Self.path(Self.tea, day: 2))
        #expect(moved.properties == [PropertyChange(name: "minutes", old: 4, new: 5)])
        #expect(moved.entity == "Timer")
        #expect(diff.records[0].properties.isEmpty, "a soft delete is its kind, not a member")
        #expect(
            diff.counts == [StoreDiff.EntityCount(entity: "Timer", records: [.deleted: 1, .moved: 1, .created: 1])])
        #expect(diff.counts.first?.total == 3)

        // Backwards: the move back, a restore, a purge.
        let back = try StoreDiff(inStoreAt: repository.path, from: "HEAD", to: "HEAD~1")
        #expect(back.records.map(\.kind) == [.moved, .restored, .purged])
        #expect(back.records.last?.properties.map(\.name) == ["$entity", "$version", "id", "name", "minutes"])
    }

    @Test func theWorkingTreeIsReadWithoutFollowingALinkAndAFileThatDoesNotParseIsAFinding() throws {
        let repository = try GitScratchRepository()
        try repository.write(Self.path(Self.tea), Self.timer(Self.tea, name: "Tea", minutes: 4))
        try repository.write(Self.path(Self.coffee), Self.timer(Self.coffee, name: "Coffee", minutes: 10))
        try repository.commitAll("first")
        let index = try Data(contentsOf: URL(fileURLWithPath: repository.path + "/.git/index"))

        // Unchanged: no difference, even though the files' stat data is new.
        try repository.write(Self.path(Self.tea), Self.timer(Self.tea, name: "Tea", minutes: 4))
        #expect(try StoreDiff(inStoreAt: repository.path).records.isEmpty)

        // A link in place of a record is not followed; a broken record is named, not compared.
        let secret = repository.path + "/../secret.json"
        try Data(Self.timer(Self.tea, name: "Secret", minutes: 1)).write(to: URL(fileURLWithPath: secret))
        try repository.remove(Self.path(Self.tea))
        try FileManager.default.createSymbolicLink(
            atPath: repository.path + "/" + Self.path(Self.tea), withDestinationPath: secret)
        try repository.write(Self.path(Self.coffee), Array("{ \"name\": ".utf8))
        try repository.write(Self.path(Self.nap), Self.timer(Self.nap, name: "Nap", minutes: 20))
        let diff = try StoreDiff(inStoreAt: repository.path)
        #expect(diff.records.map(\.id) == [Self.tea, Self.coffee, Self.nap])
        let link = diff.records[0]
        #expect(link.unreadable?.contains("cannot be read") == true, "\(link.unreadable ?? "")")
        #expect(link.after == nil)
        #expect(!link.properties.contains { $0.new == .string("Secret") })
        #expect(diff.records[1].unreadable?.contains("does not parse") == true)
        #expect(diff.records[1].before?["name"] == .string("Coffee"))
        #expect(diff.records[2].kind == .created)
        #expect(try Data(contentsOf: URL(fileURLWithPath: repository.path + "/.git/index")) == index)
    }

    @Test func theCommitsAreTheOnesGitNamesForAStoreInASubfolderAndARangeIsNoCommit() throws {
        let repository = try GitScratchRepository()
        try repository.write("Timers/" + Self.path(Self.tea), Self.timer(Self.tea, name: "Tea", minutes: 4))
        try repository.write("notes.txt", Array("not the store\n".utf8))
        try repository.commitAll("first")
        try repository.git("tag", "-a", "v1", "-m", "an annotated tag names a tag object, not the commit")
        try repository.write("Timers/" + Self.path(Self.tea), Self.timer(Self.tea, name: "Tea", minutes: 5))
        try repository.write("Timers/" + Self.path(Self.coffee), Self.timer(Self.coffee, name: "Coffee", minutes: 10))
        try repository.write("notes.txt", Array("still not the store\n".utf8))
        try repository.commitAll("second")
        func commit(_ revision: String) throws -> String {
            String(decoding: try repository.git("rev-parse", "--verify", revision + "^{commit}"), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let head = try commit("HEAD")

        let diff = try StoreDiff(inStoreAt: repository.path + "/Timers", from: "v1", to: String(head.prefix(7)))
        #expect(diff.from == (try commit("v1")))
        #expect(diff.to == head)
        #expect(diff.records.map(\.path) == [Self.path(Self.tea), Self.path(Self.coffee)])
        #expect(diff.records.map(\.kind) == [.changed, .created])
        #expect(diff.records.first?.properties == [PropertyChange(name: "minutes", old: 4, new: 5)])

        // Git would read a range as two commits; it names none. Of two bad revisions, the first is the one named.
        let bad: [(old: String, new: String?, named: String)] = [
            ("HEAD~1..HEAD", nil, "HEAD~1..HEAD"), ("HEAD~1", "HEAD~1..HEAD", "HEAD~1..HEAD"),
            ("no-such-branch", "-x", "no-such-branch"),
        ]
        for (old, new, named) in bad {
            do {
                _ = try StoreDiff(inStoreAt: repository.path + "/Timers", from: old, to: new)
                Issue.record("\(old) to \(new ?? "the working tree") is no pair of commits")
            } catch {
                #expect(error.kind == .notFound, "\(error)")
                #expect(error.reason.contains("has no commit \(named)"), "\(error)")
            }
        }
    }

    @Test func aRevisionThatIsNoCommitOrReadsAsAnOptionIsAnErrorAndAStoreOutsideGitToo() throws {
        let repository = try GitScratchRepository()
        try repository.write(Self.path(Self.tea), Self.timer(Self.tea, name: "Tea", minutes: 4))
        try repository.commitAll("first")
        #expect(throws: FolioError.self) { try StoreDiff(inStoreAt: repository.path, from: "--output=x") }
        do {
            _ = try StoreDiff(inStoreAt: repository.path, from: "HEAD", to: "nothing-here")
            Issue.record("a revision that names no commit")
        } catch {
            #expect(error.kind == .notFound)
        }
        let plain = try TemporaryDirectory()
        do {
            _ = try StoreDiff(inStoreAt: plain.path)
            Issue.record("a folder in no repository")
        } catch {
            #expect(error.kind == .invalidStore)
        }
    }
}
