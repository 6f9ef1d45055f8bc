import FolioJSON
import FolioTestSupport
import Foundation
import Testing

@testable import FolioCore

/// `RecordHistory` on real git repositories whose work tree is the store itself.
struct RecordHistoryTests {
    static let id = UUID(uuidString: "0F6C1E2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B")!

    /// A Timer document as Folio writes it.
    static func timer(name: String, minutes: Int) -> [UInt8] {
        Array(
            """
            {
              "$entity": "Timer",
              "$version": "1.0.0",
              "id": "\(id.uuidString)",
              "name": "\(name)",
              "minutes": \(minutes)
            }

            """.utf8)
    }

    @Test func aRecordIsFollowedAcrossADayFolderMoveAndItsPurgeInAStoreThatIsTheWholeWorkTree() throws {
        let repository = try GitScratchRepository()
        let first = "Timer/2026/11/01/\(Self.id.uuidString).json"
        let second = "Timer/2026/11/02/\(Self.id.uuidString).json"
        try repository.write(first, Self.timer(name: "Tea", minutes: 4))
        try repository.commitAll("Tee ☕️ \"first\"\tcup")
        try repository.write(first, Self.timer(name: "Green tea", minutes: 4))
        try repository.commitAll("greener")
        try repository.remove(first)
        try repository.write(second, Self.timer(name: "Green tea", minutes: 5))
        try repository.commitAll("a day later, longer")
        try repository.remove(second)
        try repository.commitAll("purge")

        let history = try RecordHistory(of: Self.id, inStoreAt: repository.path)
        #expect(history.changes.map(\.kind) == [.purged, .moved, .changed, .created])
        #expect(history.changes.map(\.subject) == ["purge", "a day later, longer", "greener", "Tee ☕️ \"first\"\tcup"])
        let moved = history.changes[1]
        #expect(moved.pathBefore == first)
        #expect(moved.pathAfter == second)
        #expect(moved.properties == [PropertyChange(name: "minutes", old: 4, new: 5)])
        #expect(history.changes[2].properties == [PropertyChange(name: "name", old: "Tea", new: "Green tea")])
        #expect(history.changes[0].content == nil)
        #expect(history.changes[0].properties.allSatisfy { $0.new == nil })
        #expect(history.changes.allSatisfy { $0.commit.count == 40 && $0.authorName == "Folio Tests" })
        #expect(history.endsAtShallowBoundary == nil)
        #expect(history.blame().isEmpty, "a purged record has no current values")
    }

    @Test func aVersionThatDoesNotParseIsAFindingAndBlameNamesNoCommitPastIt() throws {
        let repository = try GitScratchRepository()
        let path = "Timer/2026/11/01/\(Self.id.uuidString).json"
        try repository.write(path, Self.timer(name: "Tea", minutes: 4))
        try repository.commitAll("tea")
        try repository.write(path, Array("{ \"$entity\": \"Timer\",\n".utf8))
        try repository.commitAll("broken by hand")
        try repository.write(path, Self.timer(name: "Tea", minutes: 6))
        try repository.commitAll("mended")

        let history = try RecordHistory(of: Self.id, inStoreAt: repository.path)
        #expect(history.changes.map(\.subject) == ["mended", "broken by hand", "tea"])
        #expect(history.changes[0].unreadable?.contains("before commit") == true, "\(history.changes[0])")
        #expect(history.changes[1].unreadable?.contains("does not parse") == true)
        #expect(history.changes[0].content?["minutes"] == 6)
        #expect(history.changes[2].unreadable == nil)
        let blame = history.blame()
        #expect(blame.map(\.name) == ["$entity", "$version", "id", "name", "minutes"])
        #expect(blame.allSatisfy { $0.change == nil })
    }

    @Test func aFileOfTheRecordsNameOutsideTheDocumentLayoutIsNotTheRecord() throws {
        let repository = try GitScratchRepository()
        try repository.write("notes/\(Self.id.uuidString).json", Self.timer(name: "Tea", minutes: 4))
        try repository.write("Timer/2026/11/01/\(Self.id.uuidString).json", Self.timer(name: "Tea", minutes: 4))
        try repository.commitAll("tea")
        try repository.write("notes/\(Self.id.uuidString).json", Self.timer(name: "Not tea", minutes: 1))
        try repository.commitAll("notes only")

        let history = try RecordHistory(of: Self.id, inStoreAt: repository.path)
        #expect(history.changes.map(\.subject) == ["tea"])
        #expect(history.blame().first { $0.name == "name" }?.change?.subject == "tea")
    }

    @Test func aRevisionThatReadsAsAnOptionAndAFolderOutsideGitAreRefused() throws {
        let repository = try GitScratchRepository()
        try repository.write("Timer/2026/11/01/\(Self.id.uuidString).json", Self.timer(name: "Tea", minutes: 4))
        try repository.commitAll("tea")
        for revision in ["--output=x", "-p", "", "HEAD\nmain"] {
            let refused = #expect(throws: FolioError.self) {
                try RecordHistory(of: Self.id, inStoreAt: repository.path, from: revision)
            }
            #expect(refused?.kind == .invalidInput, "\(revision)")
        }
        let missing = #expect(throws: FolioError.self) {
            try RecordHistory(of: Self.id, inStoreAt: repository.path, from: "no-such-branch")
        }
        #expect(missing?.kind == .notFound)
        #expect(!FileManager.default.fileExists(atPath: repository.path + "/x"))
        #expect(try RecordHistory(of: Self.id, inStoreAt: repository.path, from: "HEAD").changes.count == 1)

        let outside = try TemporaryDirectory()
        let notInGit = #expect(throws: FolioError.self) { try RecordHistory(of: Self.id, inStoreAt: outside.path) }
        #expect(notInGit?.kind == .invalidStore)
        #expect(notInGit?.description.contains("is not in a git repository") == true)
    }
}
