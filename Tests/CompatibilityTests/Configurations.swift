import Folio
import FolioTestSupport
import Foundation
import Testing

@Model final class Recipe {
    var title: String
    @Relationship(deleteRule: .cascade) var steps: [RecipeStep] = []
    init(title: String) { self.title = title }
}

@Model final class RecipeStep {
    var text: String
    var recipe: Recipe?
    init(text: String) { self.text = text }
}

@Model final class CachedImage {
    var key: String
    var bytes: Int
    init(key: String, bytes: Int) {
        self.key = key
        self.bytes = bytes
    }
}

/// A container with several configurations, as SwiftData apps split user data from caches:
/// each configuration's models in their own store folder.
struct ConfigurationsTests {
    let folder: TemporaryDirectory
    var recipes: URL { folder.url.appending(path: "Recipes") }
    var cache: URL { folder.url.appending(path: "Cache") }

    init() throws { folder = try TemporaryDirectory() }

    func container(cacheAllowsSave: Bool = true) throws -> ModelContainer {
        try ModelContainer(
            for: Recipe.self, CachedImage.self,
            configurations: ModelConfiguration(
                "Recipes", schema: Schema([Recipe.self]), url: recipes, durability: .none),
            ModelConfiguration(
                "Cache", schema: Schema([CachedImage.self]), url: cache, allowsSave: cacheAllowsSave, durability: .none)
        )
    }

    @Test func eachConfigurationKeepsItsModelsInItsOwnStore() throws {
        do {
            let context = ModelContext(try container())
            let soup = Recipe(title: "Soup")
            soup.steps = [RecipeStep(text: "Boil")]
            context.insert(soup)
            context.insert(CachedImage(key: "soup.png", bytes: 2048))
            try context.save()
        }
        let recipeStore = try DocumentStore.open(at: recipes.path)
        let cacheStore = try DocumentStore.open(at: cache.path)
        #expect(recipeStore.documentCounts == ["Recipe": 1, "RecipeStep": 1])
        #expect(cacheStore.documentCounts == ["CachedImage": 1])
        #expect(recipeStore.manifest.schema["entities"]?["CachedImage"] == nil)
        #expect(cacheStore.manifest.schema["entities"]?["Recipe"] == nil)
        #expect(!FileManager.default.fileExists(atPath: cache.appending(path: "Recipe").path))

        let container = try container()
        #expect(container.configurations.map(\.name) == ["Recipes", "Cache"])
        let context = ModelContext(container)
        #expect(try context.fetch(FetchDescriptor<Recipe>()).first?.steps.map(\.text) == ["Boil"])
        #expect(
            try context.fetch(FetchDescriptor<CachedImage>(predicate: #Predicate { $0.bytes > 1000 })).map(\.key) == [
                "soup.png"
            ])
        try container.erase()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<CachedImage>()) == 0)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Recipe>()) == 0)
    }

    @Test func anInMemoryConfigurationBesideAnOnDiskOneForgetsItsModels() throws {
        func container() throws -> ModelContainer {
            try ModelContainer(
                for: Recipe.self, CachedImage.self,
                configurations: ModelConfiguration(schema: Schema([Recipe.self]), url: recipes, durability: .none),
                ModelConfiguration(schema: Schema([CachedImage.self]), isStoredInMemoryOnly: true))
        }
        do {
            let context = ModelContext(try container())
            context.insert(Recipe(title: "Bread"))
            context.insert(CachedImage(key: "bread.png", bytes: 10))
            try context.save()
            #expect(try context.fetchCount(FetchDescriptor<CachedImage>()) == 1)
        }
        let context = ModelContext(try container())
        #expect(try context.fetch(FetchDescriptor<Recipe>()).map(\.title) == ["Bread"])
        #expect(try context.fetchCount(FetchDescriptor<CachedImage>()) == 0)
    }

    @Test func aReadOnlyConfigurationRefusesTheSaveBeforeAnythingIsWritten() throws {
        _ = try container()  // creates both stores
        let context = ModelContext(try container(cacheAllowsSave: false))
        context.insert(Recipe(title: "Tea"))
        context.insert(CachedImage(key: "tea.png", bytes: 1))
        #expect(throws: FolioError.self) { try context.save() }
        #expect(
            try DocumentStore.open(at: recipes.path).documentCounts.isEmpty, "nothing written to the other store either"
        )
    }

    @Test func aSaveAcrossStoresKeepsWhatOneStoreSavedWhenTheOtherFails() throws {
        do {
            let context = ModelContext(try container())
            context.insert(Recipe(title: "Salad"))
            context.insert(CachedImage(key: "salad.png", bytes: 5))
            try context.save()
        }
        let context = ModelContext(try container())
        let salad = try #require(try context.fetch(FetchDescriptor<Recipe>()).first)
        let image = try #require(try context.fetch(FetchDescriptor<CachedImage>()).first)
        // Someone edits the image's file after it was read: its save is a conflict.
        let store = try DocumentStore.open(at: cache.path)
        let file = try #require(store.documents(entity: "CachedImage").first).path.relativePath
        let text = try String(contentsOf: cache.appending(path: file), encoding: .utf8)
        try text.replacingOccurrences(of: "\"bytes\": 5", with: "\"bytes\": 6").write(
            to: cache.appending(path: file), atomically: true, encoding: .utf8)
        salad.title = "Green salad"
        image.bytes = 7
        #expect(throws: FolioError.self) { try context.save() }
        #expect(!salad.hasChanges, "the recipes store saved its change")
        #expect(image.hasChanges, "the cache store's change is still unsaved")
        #expect(try ModelContext(try container()).fetch(FetchDescriptor<Recipe>()).map(\.title) == ["Green salad"])
    }

    /// Related models always share a configuration: a schema holds the models its models'
    /// relationships reach, and each model goes to the first configuration that holds it.
    @Test func aModelInNoConfigurationIsRefusedAtOpen() throws {
        #expect(throws: FolioError.self) {
            try ModelContainer(
                for: Recipe.self, CachedImage.self,
                configurations: ModelConfiguration(schema: Schema([Recipe.self]), url: recipes),
                ModelConfiguration(schema: Schema([Recipe.self]), url: cache))
        }
        #expect(!FileManager.default.fileExists(atPath: recipes.path), "a refused open writes nothing")
    }
}
