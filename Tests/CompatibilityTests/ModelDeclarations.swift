import Folio
import FolioTestSupport
import Foundation
import Testing

enum ModelProvider: String, Codable, CaseIterable { case ollama, openAI }

@Model
final class Animal {
    var name: String
    init(name: String) { self.name = name }
}

/// Stored properties whose types Swift infers from their initial values.
@Model
final class Shelter {
    var title = ""
    var count = 0
    var rating = 4.5
    var provider = ModelProvider.ollama
    var opened = Date(timeIntervalSince1970: 0)
    var tags = [String]()
    var animals = [Animal]()

    init(title: String) { self.title = title }
}

/// Declarations SwiftData accepts, stored and read back as it does.
struct ModelDeclarationTests {
    @Test func propertiesWithoutATypeAnnotationAreStoredWithTheirInferredTypes() throws {
        let folder = try TemporaryDirectory()
        let configuration = ModelConfiguration(url: folder.url, durability: .none)
        do {
            let context = ModelContext(try ModelContainer(for: Shelter.self, configurations: configuration))
            let shelter = Shelter(title: "Paws")
            shelter.count = 3
            shelter.provider = .openAI
            shelter.tags = ["dogs"]
            shelter.animals = [Animal(name: "Rex")]
            context.insert(shelter)
            try context.save()
        }
        let container = try ModelContainer(for: Shelter.self, configurations: configuration)
        let entity = try #require(container.schema.entity(named: "Shelter"))
        #expect(
            entity.attributes.map(\.valueType) == ["String", "Int", "Double", "ModelProvider", "Date", "Array<String>"])
        #expect(entity.relationship(named: "animals")?.isToMany == true)
        let shelter = try #require(try ModelContext(container).fetch(FetchDescriptor<Shelter>()).first)
        #expect(shelter.title == "Paws" && shelter.count == 3 && shelter.rating == 4.5 && shelter.provider == .openAI)
        #expect(shelter.tags == ["dogs"] && shelter.animals.map(\.name) == ["Rex"])
    }
}

@Model
final class Playlist {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \Song.playlist) var songs: [Song]? = []
    var favourites: [Song]?
    init(name: String) { self.name = name }
}

@Model
final class Song {
    var title: String
    var playlist: Playlist?
    init(title: String) { self.title = title }
}

struct OptionalToManyTests {
    @Test func anOptionalToManyIsARelationshipThatHoldsItsModels() throws {
        let folder = try TemporaryDirectory()
        let configuration = ModelConfiguration(url: folder.url, durability: .none)
        do {
            let context = ModelContext(try ModelContainer(for: Playlist.self, configurations: configuration))
            let playlist = Playlist(name: "Road")
            context.insert(playlist)
            playlist.songs?.append(Song(title: "Drive"))
            let song = Song(title: "Home")
            song.playlist = playlist
            playlist.favourites = [song]
            try context.save()
            #expect(playlist.songs?.map(\.title).sorted() == ["Drive", "Home"])
        }
        let container = try ModelContainer(for: Playlist.self, configurations: configuration)
        let entity = try #require(container.schema.entity(named: "Playlist"))
        #expect(
            entity.relationship(named: "songs")?.isToMany == true
                && entity.relationship(named: "songs")?.deleteRule == .cascade)
        #expect(entity.relationship(named: "favourites")?.isToMany == true)
        let context = ModelContext(container)
        let playlist = try #require(try context.fetch(FetchDescriptor<Playlist>()).first)
        #expect(playlist.songs?.map(\.title).sorted() == ["Drive", "Home"])
        #expect(playlist.favourites?.map(\.title) == ["Home"])
        context.delete(playlist)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Song>()) == 0, "the cascade follows the optional to-many")
    }
}

@Model
final class Badge {
    @Attribute(.unique) public let uuid: UUID
    let issued: Date
    var label: String
    init(label: String) {
        uuid = UUID()
        issued = Date(timeIntervalSince1970: 1_790_000_000)
        self.label = label
    }
}

struct ConstantPropertyTests {
    @Test func aLetIsWrittenOnInsertAndReadOnFetch() throws {
        let folder = try TemporaryDirectory()
        let configuration = ModelConfiguration(url: folder.url, durability: .none)
        let badge = Badge(label: "Gold")
        do {
            let context = ModelContext(try ModelContainer(for: Badge.self, configurations: configuration))
            context.insert(badge)
            try context.save()
        }
        let container = try ModelContainer(for: Badge.self, configurations: configuration)
        #expect(container.schema.entity(named: "Badge")?.attribute(named: "uuid")?.isUnique == true)
        let context = ModelContext(container)
        let fetched = try #require(try context.fetch(FetchDescriptor<Badge>()).first)
        #expect(fetched.uuid == badge.uuid && fetched.issued == badge.issued && fetched.label == "Gold")
        let uuid = badge.uuid
        #expect(try context.fetchCount(FetchDescriptor<Badge>(predicate: #Predicate { $0.uuid == uuid })) == 1)
        // Its vars still change and save; the lets stay as they were.
        fetched.label = "Silver"
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Badge>()).map(\.label) == ["Silver"])
    }
}

@Model
final class Gadget {
    var name: String
    #if os(Linux)
        var platformNote: String = "linux"
        var serial: Int?
    #else
        var platformNote: Int = 0
    #endif
    #if FOLIO_NEVER_DEFINED
        var ghost: String = ""
    #endif
    var price: Double = 0
    init(name: String) { self.name = name }
}

struct ConditionalPropertyTests {
    @Test func propertiesInsideIfConfigAreStoredAsTheBuildCompilesThem() throws {
        let folder = try TemporaryDirectory()
        let configuration = ModelConfiguration(url: folder.url, durability: .none)
        do {
            let context = ModelContext(try ModelContainer(for: Gadget.self, configurations: configuration))
            let gadget = Gadget(name: "Lamp")
            gadget.serial = 42
            gadget.price = 9.5
            context.insert(gadget)
            try context.save()
        }
        let container = try ModelContainer(for: Gadget.self, configurations: configuration)
        #expect(
            container.schema.entity(named: "Gadget")?.properties.map(\.name) == [
                "name", "platformNote", "serial", "price",
            ])
        let gadget = try #require(try ModelContext(container).fetch(FetchDescriptor<Gadget>()).first)
        #expect(gadget.name == "Lamp" && gadget.platformNote == "linux" && gadget.serial == 42 && gadget.price == 9.5)
    }
}
