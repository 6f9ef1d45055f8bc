import Foundation
import Glibc
import Testing

@testable import FolioCore

/// A store on a tiny file system that fills up: the failing commit must cost no data.
@Suite(.serialized) struct FullDiskTests {
    /// Mounting needs root, as on CI; elsewhere the suite is skipped, and says so.
    static let canMount: Bool = {
        guard geteuid() == 0, let directory = try? TemporaryDirectory() else { return false }
        defer { umount(directory.path) }
        return mount("tmpfs", directory.path, "tmpfs", 0, "size=64k") == 0
    }()

    @Test(.enabled(if: canMount, "mounting a tmpfs needs root"))
    func commitThatRunsOutOfSpaceWritesNothingAndTheStoreStaysUsable() throws {
        let directory = try TemporaryDirectory()
        try #require(mount("tmpfs", directory.path, "tmpfs", 0, "size=512k") == 0)
        defer { umount2(directory.path, Int32(MNT_DETACH)) }
        let store = try makeStore(in: directory)

        var saved: [UUID] = []
        var failure: FolioError?
        for batch in 0..<200 where failure == nil {
            var document = timer("Batch \(batch)")
            document.blobs = ["photo": [UInt8](repeating: UInt8(batch % 256), count: 24_000)]
            let more = (0..<5).map { timer("Batch \(batch) item \($0)") }
            do {
                try store.commit(([document] + more).map { .put($0, basedOn: nil) })
                saved += [document.id] + more.map(\.id)
            } catch {
                failure = error
            }
        }
        let error = try #require(failure, "the file system never filled up")
        #expect(error.description.contains("No space left on device"), "\(error)")
        #expect(error.description.contains("hint: check free space"))

        let reopened = try DocumentStore.open(at: directory("store"), durability: .none)
        #expect(
            Set(reopened.documents(entity: "Timer").map(\.id)) == Set(saved),
            "every earlier commit is intact, the failed one absent")
        #expect(reopened.issues.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory("store/.folio/journal")).isEmpty)
    }

    @Test(.enabled(if: canMount, "mounting a tmpfs needs root"))
    func openingAStoreOnAFullDiskStillReadsItWithoutACache() throws {
        let directory = try TemporaryDirectory()
        try #require(mount("tmpfs", directory.path, "tmpfs", 0, "size=256k") == 0)
        defer { umount2(directory.path, Int32(MNT_DETACH)) }
        let store = try makeStore(in: directory)
        try store.commit((0..<20).map { .put(timer("Timer \($0)"), basedOn: nil) })
        #expect(!FileManager.default.fileExists(atPath: directory("store/.folio/cache")), "never closed: no cache yet")
        // Fill what is left of the disk.
        let filler = directory("filler")
        #expect(FileManager.default.createFile(atPath: filler, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: filler))
        let chunk = Data(repeating: 0, count: 4096)
        while (try? handle.write(contentsOf: chunk)) != nil {}
        try handle.close()

        let reopened = try DocumentStore.open(at: directory("store"), durability: .none)
        #expect(reopened.documents(entity: "Timer").count == 20)
        #expect(reopened.statistics.cacheWriteFailure?.description.contains("No space left on device") == true)
        #expect(!FileManager.default.fileExists(atPath: directory("store/.folio/cache/Timer")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory("store/.folio/cache")).isEmpty)
    }
}
