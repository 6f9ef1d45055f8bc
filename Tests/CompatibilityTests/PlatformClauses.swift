import Folio
import FolioTestSupport
import Foundation
import Testing

/// A model shared with an iOS app: lines inside `#if os(iOS)`, which Linux never compiles,
/// hold what `@Model` would refuse if they were compiled here.
@Model
final class Sticker {
    var label: String
    #if os(iOS)
        var onTap: () -> Void = {}
        let madeOn = "iPhone"
    #endif
    init(label: String) { self.label = label }
}

struct PlatformClauseTests {
    @Test func linesInAClauseThisBuildLeavesOutDoNotStopTheModel() throws {
        let folder = try TemporaryDirectory()
        let configuration = ModelConfiguration(url: folder.url, durability: .none)
        let context = ModelContext(try ModelContainer(for: Sticker.self, configurations: configuration))
        context.insert(Sticker(label: "Star"))
        try context.save()
        let container = try ModelContainer(for: Sticker.self, configurations: configuration)
        #expect(container.schema.entity(named: "Sticker")?.properties.map(\.name) == ["label"])
        #expect(try ModelContext(container).fetch(FetchDescriptor<Sticker>()).map(\.label) == ["Star"])
    }
}
