import Folio
import FolioTestSupport
import Foundation
import Testing

@Model
final class Household {
    var name: String
    @Relationship(deleteRule: .nullify, inverse: \Chore.household) var chores: [Chore] = []
    init(name: String) { self.name = name }
}

@Model
final class Housemate {
    var name: String
    init(name: String) { self.name = name }
}

/// Non-optional to-ones, as apps declare them: one inferred from the type, one with
/// `@Relationship`, both set in `init`.
@Model
final class Chore {
    var title: String
    var household: Household
    @Relationship(deleteRule: .nullify) var assignee: Housemate

    init(title: String, household: Household, assignee: Housemate) {
        self.title = title
        self.household = household
        self.assignee = assignee
    }
}

struct RequiredToOneTests {
    let folder: TemporaryDirectory
    var configuration: ModelConfiguration { ModelConfiguration(url: folder.url, durability: .none) }

    init() throws { folder = try TemporaryDirectory() }

    func container() throws -> ModelContainer {
        try ModelContainer(for: Chore.self, Household.self, Housemate.self, configurations: configuration)
    }

    /// Saves a chore of the household "Flat" assigned to "Ana".
    func saveChore() throws {
        let context = ModelContext(try container())
        let chore = Chore(title: "Dishes", household: Household(name: "Flat"), assignee: Housemate(name: "Ana"))
        context.insert(chore)
        try context.save()
    }

    /// The chore's document file, wherever its day folder is.
    func choreFile() throws -> URL {
        let files = FileManager.default.enumerator(
            at: folder.url.appending(path: "Chore"), includingPropertiesForKeys: nil)
        return try #require(files?.compactMap { $0 as? URL }.first { $0.pathExtension == "json" })
    }

    /// Rewrites one member of the chore's document, as a hand edit or a merge would.
    func editChore(_ member: String, to value: String) throws {
        let file = try choreFile()
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        object[member] = value == "null" ? NSNull() : value
        try JSONSerialization.data(withJSONObject: object).write(to: file)
    }

    @Test func aRequiredToOneIsStoredAndReadBackWithItsInverse() throws {
        try saveChore()
        let context = ModelContext(try container())
        let chore = try #require(try context.fetch(FetchDescriptor<Chore>()).first)
        #expect(chore.household.name == "Flat" && chore.assignee.name == "Ana")
        #expect(chore.household.chores.map(\.title) == ["Dishes"])
        let relationships = try container().schema.entity(named: "Chore")?.relationships
        #expect(relationships?.map { "\($0.name) \($0.isOptional)" } == ["household false", "assignee false"])
    }

    @Test func aDocumentWhoseRequiredToOneIsNullIsAnErrorNamingItsFile() throws {
        try saveChore()
        try editChore("household", to: "null")
        let path = try choreFile().lastPathComponent
        #expect {
            try ModelContext(try container()).fetch(FetchDescriptor<Chore>())
        } throws: { error in
            let error = try #require(error as? FolioError)
            return error.path?.hasSuffix(path) == true && error.description.contains("\"household\"")
        }
    }

    @Test func aDocumentWhoseRequiredToOneNamesNothingIsAnErrorNamingItsFile() throws {
        try saveChore()
        try editChore("assignee", to: UUID().uuidString)
        let path = try choreFile().lastPathComponent
        #expect {
            try ModelContext(try container()).fetch(FetchDescriptor<Chore>())
        } throws: { error in
            let error = try #require(error as? FolioError)
            return error.path?.hasSuffix(path) == true && error.description.contains("\"assignee\"")
        }
    }

    @Test func deletingTheModelARequiredToOneHoldsFailsTheSaveAndChangesNothing() throws {
        try saveChore()
        let context = ModelContext(try container())
        let household = try #require(try context.fetch(FetchDescriptor<Household>()).first)
        context.delete(household)
        #expect(throws: SwiftDataError.modelValidationFailure) { try context.save() }
        #expect(try ModelContext(try container()).fetch(FetchDescriptor<Chore>()).first?.household.name == "Flat")
    }
}
