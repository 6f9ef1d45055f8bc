import Folio
import FolioTestSupport
import Foundation
import Testing

@testable import FolioCore

@Model
final class Bookmark {
    var title: String
    var visits: Int
    var addedAt: Date

    init(title: String, visits: Int, addedAt: Date) {
        self.title = title
        self.visits = visits
        self.addedAt = addedAt
    }
}

/// Models fetched from a folder loaded from its cache file keep their documents compact
/// (`StoredDocument.Body.compact`): values, later reads and saves are those of a parsed one.
struct CompactFetchTests {
    func open(_ folder: TemporaryDirectory) throws -> ModelContainer {
        var configuration = ModelConfiguration(url: folder.url, durability: .none)
        configuration.watchesFiles = false
        return try ModelContainer(for: Bookmark.self, configurations: configuration)
    }

    /// Every document file stamped a minute ago, so the cache file written at the next close
    /// vouches for all of them (a file stamped within the clock's tick is read again instead).
    func backdateDocuments(in folder: TemporaryDirectory) throws {
        let root = folder.url.path
        let past = Date(timeIntervalSinceNow: -60)
        for case let path as String in FileManager.default.enumerator(atPath: root + "/Bookmark")!
        where path.hasSuffix(".json") {
            try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: root + "/Bookmark/" + path)
        }
    }

    @Test func modelsFetchedFromTheCacheFileReadAndSaveAsThoseFromTheFiles() throws {
        let folder = try TemporaryDirectory()
        let added = Date(timeIntervalSince1970: 1_790_000_000)
        do {
            let context = ModelContext(try open(folder))
            for number in 1...3 {
                context.insert(Bookmark(title: "page \(number)", visits: number, addedAt: added))
            }
            try context.save()
        }
        // A member the model does not know, added by hand to the first page's file.
        let first = try #require(
            FileManager.default.subpaths(atPath: folder.url.path + "/Bookmark")?.first { path in
                path.hasSuffix(".json")
                    && (try? text(at: folder.url.path + "/Bookmark/" + path))?.contains("\"page 1\"") == true
            })
        let firstPath = folder.url.path + "/Bookmark/" + first
        try write(
            try text(at: firstPath).replacingOccurrences(
                of: "\"title\": \"page 1\",", with: "\"title\": \"page 1\",\n  \"note\": \"kept by hand\","),
            to: firstPath)
        try backdateDocuments(in: folder)
        // Read from the files once, so that the close writes a cache file holding all three.
        do { _ = try ModelContext(try open(folder)).fetch(FetchDescriptor<Bookmark>()) }

        let container = try open(folder)
        let context = ModelContext(container)
        // Unsorted: a sort would decode the documents for its keys, and hand them on parsed.
        let bookmarks = try context.fetch(FetchDescriptor<Bookmark>()).sorted { $0.visits < $1.visits }
        #expect(container.store(of: "Bookmark").statistics.filesRead == 0, "answered from the cache file")
        #expect(bookmarks.map(\.title) == ["page 1", "page 2", "page 3"])
        #expect(bookmarks.map(\.visits) == [1, 2, 3])
        #expect(bookmarks.allSatisfy { $0.addedAt == added })

        // A second fetch leaves members to be decoded when first read, from the same compact bytes.
        let again = try ModelContext(container).fetch(FetchDescriptor<Bookmark>())
        #expect(Set(again.map(\.title)) == ["page 1", "page 2", "page 3"])
        #expect(again.map(\.visits).sorted() == [1, 2, 3])

        bookmarks[0].visits = 10
        try context.save()
        let saved = try text(at: firstPath)
        #expect(saved.contains("\"note\": \"kept by hand\""), "\(saved)")
        #expect(saved.contains("\"visits\": 10"), "\(saved)")
    }
}
