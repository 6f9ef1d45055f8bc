import Folio
import FolioJSON
import FolioTestSupport
import Foundation
import Testing

func initialLabel() -> String { "computed" }

@Model
final class Ticket {
    var title: String
    var priority: Int = 3
    var tags: [String] = ["new"]
    var state = TicketState.open
    var opened: Date = Date()
    var token: UUID = UUID()
    var note: String = initialLabel()

    init(title: String) { self.title = title }
}

enum TicketState: String, Codable { case open, closed }

/// `folio.json` records the declarations' initial values that mean the same every time (or
/// the moment, or a new UUID), so a document added without the app (`folio insert`,
/// `import`) gets what the app's initializer would have given it.
struct InitialValueRecordTests {
    @Test func constantInitialValuesAreRecordedAndNewDocumentsTakeThem() throws {
        let folder = try TemporaryDirectory()
        let context = ModelContext(
            try ModelContainer(for: Ticket.self, configurations: ModelConfiguration(url: folder.url, durability: .none))
        )
        context.insert(Ticket(title: "First"))
        try context.save()

        let store = try DocumentStore.open(at: folder.path, durability: .none)
        let properties = store.manifest.schema["entities"]?["Ticket"]?["properties"]?.arrayValue ?? []
        func described(_ name: String) -> JSONValue? { properties.first { $0["name"] == .string(name) } }
        #expect(described("priority")?["default"] == 3)
        #expect(described("tags")?["default"] == ["new"])
        #expect(described("state")?["default"] == "open")
        #expect(described("opened")?["generated"] == "now" && described("opened")?["default"] == nil)
        #expect(described("token")?["generated"] == "uuid")
        #expect(
            described("note")?["default"] == nil && described("note")?["generated"] == nil,
            "a call's value may differ each time")
        #expect(described("title")?["default"] == nil)

        let before = Date()
        let document = try store.newDocument(entity: "Ticket", values: ["title": "Second", "note": "typed"])
        #expect(
            document.content["priority"] == 3 && document.content["tags"] == ["new"]
                && document.content["state"] == "open")
        let opened = try #require(document.content["opened"].flatMap { try? Date(json: $0) })
        #expect(opened >= before.addingTimeInterval(-1) && opened <= Date().addingTimeInterval(1))
        #expect(document.content["token"]?.stringValue.flatMap(UUID.init(uuidString:)) != nil)
        #expect(throws: FolioError.self) { _ = try store.newDocument(entity: "Ticket", values: ["title": "No note"]) }
    }
}
