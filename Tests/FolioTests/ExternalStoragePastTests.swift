import Folio
import FolioJSON
import FolioTestSupport
import Foundation
import Testing

/// A model whose `.externalStorage` image is a file beside its document.
@Model
final class FramedPhoto {
    var id: UUID
    var title: String
    @Attribute(.externalStorage) var image: Data?

    init(id: UUID = UUID(), title: String, image: Data?) {
        self.id = id
        self.title = title
        self.image = image
    }
}

/// The past of an `.externalStorage` property, whose value is a `<UUID>.<property>.bin` file
/// rather than a member of the document: a change to the file alone is a change of the
/// record in `StoreDiff`, `RecordHistory` and its blame, and a restore brings the file back.
struct ExternalStoragePastTests {
    static let first = Array("the first picture".utf8)
    static let second = Array("a second, longer picture".utf8)

    /// A store with one photo, committed four times: made with the first image, given the
    /// second (title unchanged), retitled, and its image removed.
    static func photoStore() throws -> (GitScratchRepository, ModelContainer, UUID) {
        let repository = try GitScratchRepository()
        let container = try container(at: repository)
        let context = ModelContext(container)
        let photo = FramedPhoto(title: "Beach", image: Data(first))
        context.insert(photo)
        try context.save()
        try repository.commitAll("a photo")
        photo.image = Data(second)
        try context.save()
        try repository.commitAll("a new image")
        photo.title = "Dunes"
        try context.save()
        try repository.commitAll("retitled")
        photo.image = nil
        try context.save()
        try repository.commitAll("no image")
        return (repository, container, photo.id)
    }

    /// The app's container on the store, as a launch opens it.
    static func container(at repository: GitScratchRepository) throws -> ModelContainer {
        try ModelContainer(
            for: FramedPhoto.self, configurations: ModelConfiguration(url: URL(fileURLWithPath: repository.path)))
    }

    /// Git's id and size of `bytes`, as `git hash-object` (which writes nothing without `-w`) gives them.
    static func blob(_ bytes: [UInt8], in repository: GitScratchRepository) throws -> StoredBlob {
        try repository.write("scratch.bin", bytes)
        defer { try? repository.remove("scratch.bin") }
        let id = String(decoding: try repository.git("hash-object", "scratch.bin"), as: UTF8.self)
        return StoredBlob(object: id.trimmingCharacters(in: .whitespacesAndNewlines), size: bytes.count)
    }

    /// The photo's image files in the work tree (one, or none), relative to the store.
    static func imageFiles(of id: UUID, in repository: GitScratchRepository) -> [String] {
        let found = FileManager.default.enumerator(atPath: repository.path + "/FramedPhoto")?.compactMap {
            ($0 as? String)?.hasSuffix(id.uuidString + ".image.bin") == true ? $0 as? String : nil
        }
        return (found ?? []).map { "FramedPhoto/" + $0 }
    }

    /// The photo's one image file in the work tree, relative to the store.
    static func imageFile(of id: UUID, in repository: GitScratchRepository) throws -> String {
        try #require(imageFiles(of: id, in: repository).first)
    }

    @Test func aChangeToAnExternalStorageFileAloneIsAChangeOfItsPropertyInDiffLogAndBlame() throws {
        let (repository, _, id) = try Self.photoStore()
        let first = try Self.blob(Self.first, in: repository)
        let second = try Self.blob(Self.second, in: repository)

        // Between two commits: the image alone changed, and the record is one change of it.
        let diff = try StoreDiff(inStoreAt: repository.path, from: "HEAD~3", to: "HEAD~2")
        #expect(diff.records.map(\.id) == [id])
        #expect(diff.records.first?.kind == .changed)
        #expect(diff.records.first?.entity == "FramedPhoto")
        #expect(diff.records.first?.properties == [PropertyChange(name: "image", oldBlob: first, newBlob: second)])
        #expect(diff.records.first?.properties.first?.isBlob == true)
        // The title and the image's removal, each with its own property.
        let later = try StoreDiff(inStoreAt: repository.path, from: "HEAD~2", to: "HEAD")
        #expect(later.records.first?.properties.map(\.name) == ["title", "image"])
        #expect(later.records.first?.properties.last == PropertyChange(name: "image", oldBlob: second, newBlob: nil))

        // The history lists the commit that changed only the image, with the record's members as they were.
        let history = try RecordHistory(of: id, inStoreAt: repository.path)
        #expect(history.changes.map(\.subject) == ["no image", "retitled", "a new image", "a photo"])
        #expect(history.changes.map(\.kind) == [.changed, .changed, .changed, .created])
        #expect(history.changes[2].properties == [PropertyChange(name: "image", oldBlob: first, newBlob: second)])
        #expect(history.changes[2].content?["title"] == "Beach")
        #expect(history.changes[3].properties.last == PropertyChange(name: "image", oldBlob: nil, newBlob: first))
        #expect(history.changes(touching: "image").map(\.subject) == ["no image", "a new image", "a photo"])

        // Blame names the commit that set the current image; with no image now, it has no row.
        let before = try RecordHistory(of: id, inStoreAt: repository.path, from: "HEAD~1").blame()
        let image = try #require(before.first { $0.name == "image" })
        #expect(image.blob == second)
        #expect(image.change?.subject == "a new image")
        #expect(before.first { $0.name == "title" }?.change?.subject == "retitled")
        #expect(!history.blame().contains { $0.name == "image" })
    }

    @Test func theWorkingTreesExternalStorageFileIsComparedByItsBytes() throws {
        let (repository, container, id) = try Self.photoStore()
        let context = ModelContext(container)
        let photo = try #require(try context.fetch(FetchDescriptor<FramedPhoto>()).first)
        photo.image = Data(Self.first)
        try context.save()
        let diff = try StoreDiff(inStoreAt: repository.path)
        #expect(diff.records.map(\.id) == [id])
        #expect(
            diff.records.first?.properties
                == [PropertyChange(name: "image", oldBlob: nil, newBlob: try Self.blob(Self.first, in: repository))])
        try repository.commitAll("the first image again")

        // The same bytes written anew (new stat data, same content) are no change.
        let file = try Self.imageFile(of: id, in: repository)
        try repository.write(file, Self.first)
        #expect(try StoreDiff(inStoreAt: repository.path).records.isEmpty)
        try repository.write(file, Self.second)
        #expect(
            try StoreDiff(inStoreAt: repository.path).records.first?.properties.map(\.name) == ["image"])
    }

    @Test func aRestoreBringsAnExternalStorageFileBackByNameWholeAndWithAPurgedRecord() throws {
        let (repository, _, id) = try Self.photoStore()
        let store = try DocumentStore.open(at: repository.path)
        let second = try Self.blob(Self.second, in: repository)

        // By name: only the image, from the commit that had the second one.
        let image = try RecordRestore(of: id, in: store, from: "HEAD~1", properties: ["image"])
        #expect(image.properties == [PropertyChange(name: "image", oldBlob: nil, newBlob: second)])
        try image.commit(author: "undo")
        let file = try Self.imageFile(of: id, in: repository)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: repository.path + "/" + file))) == Self.second)
        #expect(try RecordRestore(of: id, in: store, from: "HEAD~1", properties: ["image"]).isUnchanged)

        // Whole, from the first commit: the title and the first image.
        let whole = try RecordRestore(of: id, in: store, from: "HEAD~3")
        #expect(whole.properties.map(\.name) == ["title", "image"])
        try whole.commit(author: "undo")
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: repository.path + "/" + file))) == Self.first)
        // Whole, from a commit with no image: the file is removed.
        try RecordRestore(of: id, in: store, from: "HEAD").commit(author: "undo")
        #expect(!FileManager.default.fileExists(atPath: repository.path + "/" + file))

        // A purged record comes back with its image.
        try RecordRestore(of: id, in: store, from: "HEAD~1").commit(author: "undo")
        try repository.commitAll("the second image back")
        // The app, launched again, deletes the photo and purges it.
        let context = ModelContext(try Self.container(at: repository))
        context.delete(try #require(try context.fetch(FetchDescriptor<FramedPhoto>()).first))
        try context.save()
        #expect(try context.purge(deletedBefore: .distantFuture) == 1)
        try repository.commitAll("purged")
        #expect(!FileManager.default.fileExists(atPath: repository.path + "/" + file))
        try RecordRestore(of: id, in: store, from: "HEAD~1").commit(author: "undo")
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: repository.path + "/" + file))) == Self.second)
        // As the app reads it at its next launch.
        let back = try #require(
            try ModelContext(Self.container(at: repository)).fetch(FetchDescriptor<FramedPhoto>()).first)
        #expect(back.image == Data(Self.second))
        #expect(back.title == "Dunes")
    }

    @Test func aContextRestoreOfAnExternalStoragePropertyIsAPendingChangeTheNextSaveWrites() throws {
        let (repository, container, id) = try Self.photoStore()
        let context = ModelContext(container)
        let photo = try #require(try context.fetch(FetchDescriptor<FramedPhoto>()).first)
        let changes = try context.restore(photo, from: "HEAD~2", properties: ["image"])
        #expect(changes.map(\.name) == ["image"])
        #expect(photo.image == Data(Self.second))
        #expect(context.hasChanges)
        #expect(Self.imageFiles(of: id, in: repository).isEmpty, "not written yet")
        try context.save()
        let file = try Self.imageFile(of: id, in: repository)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: repository.path + "/" + file))) == Self.second)
        #expect(try ModelContext(container).fetch(FetchDescriptor<FramedPhoto>()).first?.image == Data(Self.second))
    }
}
