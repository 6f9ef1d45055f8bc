import Folio
import FolioJSON
import FolioTestSupport
import Foundation
import Testing

enum Stroke: String, Codable, CaseIterable { case free, back, fly }
enum Lane: Int, Codable, CaseIterable { case one = 1, two = 2 }
/// Not `CaseIterable`: its cases cannot be listed at run time.
enum Pool: String, Codable { case short, long }

@Model
final class Swim {
    var stroke: Stroke
    var lane: Lane?
    var drills: [Stroke] = []
    var pool: Pool = Pool.short

    init(stroke: Stroke) { self.stroke = stroke }
}

/// `folio.json` records the cases of a model's `CaseIterable` enums, so the tool and
/// `check` can refuse a value the app could not read.
struct EnumCaseRecordTests {
    @Test func theManifestListsTheCasesOfCaseIterableEnumsThroughOptionalsAndArrays() throws {
        let folder = try TemporaryDirectory()
        let context = ModelContext(
            try ModelContainer(for: Swim.self, configurations: ModelConfiguration(url: folder.url, durability: .none)))
        context.insert(Swim(stroke: .fly))
        try context.save()

        let store = try DocumentStore.open(at: folder.path, durability: .none)
        let properties = store.manifest.schema["entities"]?["Swim"]?["properties"]?.arrayValue ?? []
        func cases(_ name: String) -> JSONValue? { properties.first { $0["name"] == .string(name) }?["cases"] }
        #expect(cases("stroke") == ["free", "back", "fly"])
        #expect(cases("lane") == [1, 2])
        #expect(cases("drills") == ["free", "back", "fly"])
        #expect(cases("pool") == nil)
        #expect(store.check().isEmpty)

        // A hand edit to a stroke the app does not have is an error `check` names, with the cases.
        let swim = try #require(store.documents(entity: "Swim").first)
        var content = swim.content
        content["drills"] = ["free", "butterfly"]
        try store.commit([.put(Document(entity: "Swim", id: swim.id, content: content), basedOn: swim.version)])
        #expect(
            store.check().map(\.message) == [
                #""drills" is not a valid Array<Stroke>: element 1: "butterfly" is not one of its cases: "free", "back", "fly""#
            ])
    }
}
