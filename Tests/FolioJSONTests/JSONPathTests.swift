import FolioJSON
import Testing

/// Finding a member or element in JSON text, for findings that name a line and column.
struct JSONPathTests {
    let text = Array(
        """
        {
          "a\\"b": {"x": [1, {"deep": "]"}, [2]]},
          "entities": {"Note": {"properties": [{"name": "t", "type": "Strin"}]}}
        }
        """.utf8)

    @Test func aPathLeadsToItsKeyOrElementThroughEscapesBracketsInStringsAndNesting() throws {
        let type = try #require(
            JSONPath([.key("entities"), .key("Note"), .key("properties"), .index(0), .key("type")]).location(in: text))
        #expect((type.line, type.column) == (3, 54))
        let deep = try #require(JSONPath([.key("a\"b"), .key("x"), .index(2)]).location(in: text))
        #expect((deep.line, deep.column) == (2, 36))
        let top = try #require(JSONPath().location(in: text))
        #expect((top.line, top.column) == (1, 1))
        #expect(JSONPath([.key("a\"b"), .key("x"), .index(3)]).location(in: text) == nil)
        #expect(JSONPath([.key("missing")]).location(in: text) == nil)
        #expect(JSONPath([.key("entities"), .index(0)]).location(in: text) == nil)
        #expect(JSONPath([.key("entities"), .key("Note")]).description == "entities.Note")
    }
}
