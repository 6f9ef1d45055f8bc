import Folio
import FolioTestSupport
import Foundation
import Testing

/// A value type Folio cannot encode by itself: not `Codable`.
final class Palette {
    let colors: [String]
    init(colors: [String]) { self.colors = colors }
}

final class PaletteTransformer: ValueTransformer {
    override class func allowsReverseTransformation() -> Bool { true }

    override func transformedValue(_ value: Any?) -> Any? {
        (value as? Palette).map { Data($0.colors.joined(separator: ",").utf8) }
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        (value as? Data).map {
            Palette(colors: String(decoding: $0, as: UTF8.self).split(separator: ",").map(String.init))
        }
    }
}

@Model
final class Artwork {
    var title: String
    @Attribute(.transformable(by: PaletteTransformer.self)) var palette: Palette
    @Attribute(.transformable(by: "PaletteByName")) var alternate: Palette?

    init(title: String, palette: Palette) {
        self.title = title
        self.palette = palette
    }
}

/// `@Attribute(.transformable(by:))`, by the transformer's class and by its registered name.
struct TransformableTests {
    @Test func aTransformableValueIsStoredAsItsTransformersDataAndReadBack() throws {
        ValueTransformer.setValueTransformer(PaletteTransformer(), forName: NSValueTransformerName("PaletteByName"))
        let folder = try TemporaryDirectory()
        let configuration = ModelConfiguration(url: folder.url, durability: .none)
        do {
            let context = ModelContext(try ModelContainer(for: Artwork.self, configurations: configuration))
            let artwork = Artwork(title: "Dawn", palette: Palette(colors: ["red", "gold"]))
            artwork.alternate = Palette(colors: ["blue"])
            context.insert(artwork)
            context.insert(Artwork(title: "Plain", palette: Palette(colors: [])))
            try context.save()
        }
        let manifest = try String(contentsOf: folder.url.appending(path: "folio.json"), encoding: .utf8)
        #expect(
            manifest.contains(#""transformer": "PaletteTransformer""#)
                && manifest.contains(#""transformer": "PaletteByName""#))
        let context = ModelContext(try ModelContainer(for: Artwork.self, configurations: configuration))
        let artworks = try context.fetch(FetchDescriptor<Artwork>(sortBy: [SortDescriptor(\.title)]))
        #expect(artworks.map(\.palette.colors) == [["red", "gold"], []])
        #expect(artworks.map { $0.alternate?.colors } == [["blue"], nil])
    }
}
