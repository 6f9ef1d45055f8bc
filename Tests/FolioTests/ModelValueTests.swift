import Folio
import Foundation
import Testing

/// A model with every kind of value Folio stores, to pin each one's stored form.
@Model
final class Specimen {
    enum Grade: Int, Codable { case low = 1, high = 2 }
    struct Location: Codable, Equatable {
        var latitude: Double
        var longitude: Double
        var label: String?
    }

    var id: UUID
    var tiny: Int8
    var huge: UInt64
    var ratio: Float
    var price: Decimal
    var link: URL
    var names: [String]
    var weights: [String: Double]
    var grade: Grade
    var lastGrade: Grade?
    var location: Location
    var history: [Location]
    @Attribute(.externalStorage) var photo: Data?
    @Attribute(.ephemeral) var draft: String = "none"
    @Transient var cache = 0
    var addedLater: String = "default"

    init(id: UUID = UUID()) {
        self.id = id
        tiny = -8
        huge = .max
        ratio = 0.1
        price = Decimal(string: "19.99")!
        link = URL(string: "https://example.com/a?b=c")!
        names = ["Ada", "Grace"]
        weights = ["b": 2.5, "a": 1]
        grade = .high
        location = Location(latitude: 52.5, longitude: 13.4, label: nil)
        history = [Location(latitude: 1, longitude: 2, label: "start")]
    }
}

struct ModelValueTests {
    func container(_ folder: TemporaryDirectory) throws -> ModelContainer {
        try ModelContainer(for: Specimen.self, configurations: ModelConfiguration(url: folder.url, durability: .none))
    }

    /// Saves a new specimen and returns the path of its document.
    func savedSpecimen(in folder: TemporaryDirectory) throws -> String {
        let specimen = Specimen()
        let context = ModelContext(try container(folder))
        context.insert(specimen)
        try context.save()
        return try documentPath(in: folder, id: specimen.id)
    }

    func documentPath(in folder: TemporaryDirectory, id: UUID) throws -> String {
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder("Specimen")))
        let file = try #require(enumerator.compactMap { $0 as? String }.first { $0.hasSuffix(id.uuidString + ".json") })
        return folder("Specimen/" + file)
    }

    @Test func everyStoredTypeHasItsDocumentedFormAndReadsBack() throws {
        let folder = try TemporaryDirectory()
        let specimen = Specimen()
        do {
            let context = ModelContext(try container(folder))
            context.insert(specimen)
            specimen.photo = Data(repeating: 7, count: 3000)
            specimen.draft = "not stored"
            try context.save()
        }
        let path = try documentPath(in: folder, id: specimen.id)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for line in [
            "\"tiny\": -8,", "\"huge\": 18446744073709551615,", "\"ratio\": 0.1,", "\"price\": 19.99,",
            "\"link\": \"https://example.com/a?b=c\",", "\"grade\": 2,", "\"lastGrade\": null,", "\"latitude\": 52.5,",
            "\"a\": 1.0,\n    \"b\": 2.5",
        ] {
            #expect(text.contains(line), "\(line) in \(text)")
        }
        #expect(!text.contains("photo") && !text.contains("draft") && !text.contains("cache"))
        let blob = path.replacingOccurrences(of: ".json", with: ".photo.bin")
        #expect(FileManager.default.contents(atPath: blob) == Data(repeating: 7, count: 3000))

        let reread = try #require(try ModelContext(try container(folder)).fetch(FetchDescriptor<Specimen>()).first)
        #expect(
            reread.tiny == -8 && reread.huge == .max && reread.ratio == 0.1 && reread.price == Decimal(string: "19.99")!
        )
        #expect(
            reread.link == specimen.link && reread.names == ["Ada", "Grace"] && reread.weights == ["a": 1, "b": 2.5])
        #expect(
            reread.grade == .high && reread.lastGrade == nil && reread.location == specimen.location
                && reread.history == specimen.history)
        #expect(reread.photo == Data(repeating: 7, count: 3000))
        #expect(reread.draft == "none", "an ephemeral property starts at its default")
    }

    @Test func aPropertyAddedLaterTakesItsDefaultInOlderDocuments() throws {
        let folder = try TemporaryDirectory()
        let path = try savedSpecimen(in: folder)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: ",\n  \"addedLater\": \"default\"", with: "").write(
            toFile: path, atomically: false, encoding: .utf8)
        #expect(try !String(contentsOfFile: path, encoding: .utf8).contains("addedLater"))
        let reread = try #require(try ModelContext(try container(folder)).fetch(FetchDescriptor<Specimen>()).first)
        #expect(reread.addedLater == "default")
    }

    @Test func aMissingRequiredValueIsReportedWithPathAndRemedy() throws {
        let folder = try TemporaryDirectory()
        let path = try savedSpecimen(in: folder)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "  \"tiny\": -8,\n", with: "").write(
            toFile: path, atomically: false, encoding: .utf8)
        let error = try #require(throws: FolioError.self) {
            try ModelContext(try container(folder)).fetch(FetchDescriptor<Specimen>())
        }
        #expect(error.path.map { path.hasSuffix($0) } == true)
        #expect(error.description.contains("no \"tiny\""))
    }

    /// A document a model was made from before is made into models again without decoding
    /// its members up front (they are decoded when first read): what they read must not change.
    @Test func modelsMadeAgainFromAFetchedDocumentReadEveryValueAsTheFirstDid() throws {
        let folder = try TemporaryDirectory()
        let specimen = Specimen()
        specimen.photo = Data(repeating: 7, count: 30)
        do {
            let context = ModelContext(try container(folder))
            context.insert(specimen)
            try context.save()
        }
        let path = try documentPath(in: folder, id: specimen.id)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: ",\n  \"addedLater\": \"default\"", with: "").write(
            toFile: path, atomically: false, encoding: .utf8)

        let container = try container(folder)
        let first = try #require(try ModelContext(container).fetch(FetchDescriptor<Specimen>()).first)
        #expect(first.tiny == -8)
        let sorted = FetchDescriptor<Specimen>(sortBy: [SortDescriptor(\.ratio)], fetchLimit: 1)
        for again in [
            try ModelContext(container).fetch(FetchDescriptor<Specimen>()), try ModelContext(container).fetch(sorted),
        ] {
            let reread = try #require(again.first)
            #expect(reread !== first)
            #expect(
                reread.id == specimen.id && reread.tiny == -8 && reread.huge == .max && reread.ratio == 0.1
                    && reread.price == Decimal(string: "19.99")!)
            #expect(
                reread.link == specimen.link && reread.names == ["Ada", "Grace"]
                    && reread.weights == ["a": 1, "b": 2.5])
            #expect(
                reread.grade == .high && reread.lastGrade == nil && reread.location == specimen.location
                    && reread.history == specimen.history)
            #expect(
                reread.photo == Data(repeating: 7, count: 30) && reread.draft == "none"
                    && reread.addedLater == "default")
        }
        var seen = 0
        try ModelContext(container).enumerate(FetchDescriptor<Specimen>()) { reread in
            #expect(reread.names == ["Ada", "Grace"] && reread.location == specimen.location)
            seen += 1
        }
        #expect(seen == 1)
    }

    @Test func aModelMadeAgainFromAFetchedDocumentSavesOnlyWhatChanged() throws {
        let folder = try TemporaryDirectory()
        let path = try savedSpecimen(in: folder)
        let container = try container(folder)
        _ = try ModelContext(container).fetch(FetchDescriptor<Specimen>())
        let before = try String(contentsOfFile: path, encoding: .utf8)
        let context = ModelContext(container)
        let reread = try #require(try context.fetch(FetchDescriptor<Specimen>()).first)
        reread.tiny = 9
        let elsewhere = try #require(try ModelContext(container).fetch(FetchDescriptor<Specimen>()).first)
        #expect(elsewhere.tiny == -8 && reread.tiny == 9, "an unsaved change stays in its model")
        try context.save()
        let after = try String(contentsOfFile: path, encoding: .utf8)
        #expect(after == before.replacingOccurrences(of: "\"tiny\": -8,", with: "\"tiny\": 9,"))
    }

    @Test func aDocumentEditedAfterItWasFetchedIsDecodedAndCheckedAgain() throws {
        let folder = try TemporaryDirectory()
        let path = try savedSpecimen(in: folder)
        let container = try container(folder)
        _ = try ModelContext(container).fetch(FetchDescriptor<Specimen>())
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "\"tiny\": -8,", with: "\"tiny\": \"eight\",").write(
            toFile: path, atomically: false, encoding: .utf8)
        // The container says what it found changed.
        let changes = try container.refresh()
        #expect(changes.modified.map(\.relativePath).map { path.hasSuffix($0) } == [true])
        #expect(changes.added.isEmpty && changes.removed.isEmpty)
        let error = try #require(throws: FolioError.self) {
            try ModelContext(container).fetch(FetchDescriptor<Specimen>())
        }
        #expect(error.path.map { path.hasSuffix($0) } == true)
        #expect(error.description.contains("\"tiny\""))
    }

    @Test func anIdThatDisagreesWithTheFileNameReadsTheSameInEveryFetch() throws {
        let folder = try TemporaryDirectory()
        let path = try savedSpecimen(in: folder)
        let name = URL(filePath: path).deletingPathExtension().lastPathComponent
        let edited = UUID()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "\"id\": \"\(name)\"", with: "\"id\": \"\(edited.uuidString)\"").write(
            toFile: path, atomically: false, encoding: .utf8)
        let container = try container(folder)
        for _ in 0..<3 {
            let reread = try #require(try ModelContext(container).fetch(FetchDescriptor<Specimen>()).first)
            #expect(reread.id == edited)
            #expect(reread.persistentModelID.id.uuidString == name)
        }
    }

    /// A specimen saved, then soft-deleted and saved again, in a context of its own.
    func softDeletedSpecimen(in folder: TemporaryDirectory) throws -> (ModelContainer, ModelContext, Specimen) {
        let container = try container(folder)
        let specimen = Specimen()
        let context = ModelContext(container)
        context.insert(specimen)
        try context.save()
        context.delete(specimen)
        try context.save()
        return (container, context, specimen)
    }

    /// Fetches that include soft-deleted models.
    static var withDeleted: FetchDescriptor<Specimen> {
        var descriptor = FetchDescriptor<Specimen>()
        descriptor.includeDeleted = true
        return descriptor
    }

    @Test func aSoftDeletedDocumentKeepsItsDeletionInEveryFetch() throws {
        let folder = try TemporaryDirectory()
        let (container, _, _) = try softDeletedSpecimen(in: folder)
        let withDeleted = Self.withDeleted
        for _ in 0..<3 {
            let reread = try #require(try ModelContext(container).fetch(withDeleted).first)
            #expect(reread.deletedAt != nil && reread.tiny == -8)
            #expect(try ModelContext(container).fetch(FetchDescriptor<Specimen>()).isEmpty)
        }
        let restoring = ModelContext(container)
        restoring.restore(try #require(try restoring.fetch(withDeleted).first))
        try restoring.save()
        for _ in 0..<3 {
            let reread = try #require(try ModelContext(container).fetch(FetchDescriptor<Specimen>()).first)
            #expect(reread.deletedAt == nil && reread.tiny == -8)
        }
    }

    @Test func aSoftDeletedModelFetchedAgainInItsContextIsTheSameObject() throws {
        let folder = try TemporaryDirectory()
        let (container, context, specimen) = try softDeletedSpecimen(in: folder)
        let withDeleted = Self.withDeleted
        let fetched = try #require(try context.fetch(withDeleted).first)
        // One identity is one model per context: a second copy made a restore through it and
        // a later save of the first conflict with each other.
        #expect(fetched === specimen)
        #expect(
            !specimen.isDeleted && specimen.deletedAt != nil,
            "saved: SwiftData's isDeleted is false again, deletedAt tells")
        #expect(try context.fetch(FetchDescriptor<Specimen>()).isEmpty)
        context.restore(fetched)
        try context.save()
        #expect(!specimen.isDeleted && specimen.deletedAt == nil)
        specimen.tiny = 5
        try context.save()
        let reread = try #require(try ModelContext(container).fetch(FetchDescriptor<Specimen>()).first)
        #expect(reread.tiny == 5 && reread.deletedAt == nil)
    }
}
