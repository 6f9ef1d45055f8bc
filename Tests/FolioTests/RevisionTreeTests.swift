import FolioJSON
import FolioTestSupport
import Foundation
import Testing

@testable import FolioCore

/// A store read as a past revision: its documents taken from git's objects, never written out.
struct RevisionTreeTests {
    /// A Timer document's file as Folio writes it.
    static func timer(_ id: UUID, name: String, minutes: Int) -> [UInt8] {
        Array(
            """
            {
              "$entity": "Timer",
              "$id": "\(id.uuidString)",
              "$version": "1.0.0",
              "minutes": \(minutes),
              "name": "\(name)"
            }

            """.utf8)
    }

    static func path(_ id: UUID, day: Int = 1) -> String { "Timer/2026/11/0\(day)/\(id.uuidString).json" }

    /// A repository whose work tree is a store of `count` timers, committed.
    static func repository(timers count: Int) throws -> (GitScratchRepository, [UUID]) {
        let repository = try GitScratchRepository()
        _ = try DocumentStore.create(
            at: repository.path, manifest: StoreManifest(timeZone: TimeZone(identifier: "UTC")!), durability: .none)
        let ids = (0..<count).map { _ in UUID() }
        for (number, id) in ids.enumerated() {
            try repository.write(path(id), timer(id, name: "Timer \(number)", minutes: number))
        }
        try repository.commitAll("timers")
        return (repository, ids)
    }

    /// The names in a folder, sorted.
    static func names(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    @Test func aRevisionsDocumentsAreReadFromGitAndTheNextRevisionReadsOnlyWhatDiffers() throws {
        let (repository, ids) = try Self.repository(timers: 20)
        try repository.write(Self.path(ids[0]), Self.timer(ids[0], name: "Tea", minutes: 4))
        try repository.write(Self.path(ids[1]), Self.timer(ids[1], name: "Coffee", minutes: 10))
        try repository.remove(Self.path(ids[2]))
        let nap = UUID()
        try repository.write(Self.path(nap, day: 2), Self.timer(nap, name: "Nap", minutes: 20))
        try repository.commitAll("three changes")
        let status = try repository.git("status", "--porcelain")

        var copy: RevisionCopy? = try RevisionCopy.make(of: repository.path, at: "HEAD~1")
        var store: DocumentStore? = try DocumentStore.open(copy!)
        #expect(store?.documents(entity: "Timer").count == 20)
        #expect(store?.statistics.filesRead == 20)
        #expect(try Self.names(in: copy!.root) == [".folio", StoreManifest.fileName], "no document is written out")
        (copy, store) = (nil, nil)  // read no more, so the next revision may take the copy over

        let next = try RevisionCopy.make(of: repository.path, at: "HEAD")
        let now = try DocumentStore.open(next)
        let names = now.documents(entity: "Timer").compactMap { $0.content["name"]?.stringValue }
        #expect(names.count == 20)
        #expect(Set(names).isSuperset(of: ["Tea", "Coffee", "Nap"]))
        #expect(!names.contains("Timer 2"))
        #expect(now.statistics.filesRead == 3, "the cache file vouches for the 17 files both revisions share")
        #expect(try Self.names(in: repository.path + "/.folio/revisions") == [next.tree])

        // The revision is read-only, and the repository is as it was.
        let write = try #require(throws: FolioError.self) {
            try now.commit([.put(Document(entity: "Timer", id: UUID(), content: [:]), basedOn: nil)])
        }
        #expect(write.kind == .misuse)
        #expect(try repository.git("status", "--porcelain") == status)
    }

    @Test func aRevisionsListingFindsWhatAWalkOfTheSameFilesFinds() throws {
        let (repository, ids) = try Self.repository(timers: 3)
        let id = UUID()
        for (path, text) in [
            ("Timer/2026/11/01/not-a-uuid.json", "{}"),
            ("Timer/2026/11/01/\(id.uuidString.lowercased()).json", "{}"),
            ("Timer/2026/13/01/\(id.uuidString).json", "{}"),
            ("Timer/someday/11/01/\(id.uuidString).json", "{}"),
            ("Timer/2026/11/01/inner/\(id.uuidString).json", "{}"),
            ("Timer/2026/11/02/\(id.uuidString).json", "{ \"name\": "),
            ("Timer/README.md", "timers"),
            ("Timer/2026/11/01/.\(id.uuidString).json.staged", "{}"),
            (".hidden/Timer.json", "{}"),
            ("my-notes/\(id.uuidString).json", "{}"),
            (
                "Timer/2026/11/03/\(ids[0].uuidString).json",
                String(decoding: Self.timer(ids[0], name: "Twin", minutes: 1), as: UTF8.self)
            ),
        ] {
            try repository.write(path, Array(text.utf8))
        }
        try FileManager.default.createSymbolicLink(
            atPath: repository.path + "/Timer/2026/11/01/\(UUID().uuidString).json",
            withDestinationPath: Self.path(ids[1]))
        try repository.commitAll("odd files")
        // The staged file is hidden: git holds it, and neither listing names it.
        try FileManager.default.removeItem(atPath: repository.path + "/Timer/2026/11/01/.\(id.uuidString).json.staged")

        func described(_ store: DocumentStore) -> [String] {
            store.issues.map { "\($0.path): \($0.error.kind) \($0.error.description)" }.sorted()
        }
        let walked = described(try DocumentStore.open(at: repository.path, durability: .none))
        let listed = described(try DocumentStore.open(try RevisionCopy.make(of: repository.path, at: "HEAD")))
        #expect(walked.count == 9, "\(walked)")
        #expect(listed == walked)
    }

    @Test func aDocumentWhoseObjectIsMissingIsNamedAndTheOthersAreRead() throws {
        let (repository, ids) = try Self.repository(timers: 4)
        let blob = String(decoding: try repository.git("rev-parse", "HEAD:" + Self.path(ids[3])), as: UTF8.self)
            .trimmingCharacters(in: .newlines)
        try FileManager.default.removeItem(
            atPath: repository.path + "/.git/objects/\(blob.prefix(2))/\(blob.dropFirst(2))")

        let past = try DocumentStore.open(try RevisionCopy.make(of: repository.path, at: "HEAD"))
        #expect(past.documents(entity: "Timer").count == 3)
        let issue = try #require(past.unreadableDocuments(of: "Timer").first)
        #expect(issue.path == Self.path(ids[3]))
        #expect(issue.error.kind == .notFound)
        #expect(issue.error.description.contains("lacks the content of \(Self.path(ids[3]))"), "\(issue.error)")
    }
}
