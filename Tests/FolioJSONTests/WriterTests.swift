import Testing

@testable import FolioJSON

struct WriterTests {
    @Test func aLineIsCompactAsJqWritesItAndReadsBackTheSame() throws {
        let value: JSONValue = [
            "name": "Tea  time", "quote": "say \"hi\", then: go", "n": 1.5, "list": [1, [true, nil]], "empty": [:],
        ]
        let line = try JSONWriter().line(for: value)
        #expect(
            line == #"{"name":"Tea  time","quote":"say \"hi\", then: go","n":1.5,"list":[1,[true,null]],"empty":{}}"#)
        #expect(try JSONReader().read(Array(line.utf8)) == value)
    }

    @Test func documentIsWrittenInCanonicalLayout() throws {
        let value: JSONValue = [
            "$entity": "Timer", "$version": 1, "name": "Tea", "minutes": 4.5,
            "tags": ["green", "hot"], "notes": nil, "done": false, "empty": [:], "none": [],
        ]
        #expect(
            try canonical(value) == """
                {
                  "$entity": "Timer",
                  "$version": 1,
                  "name": "Tea",
                  "minutes": 4.5,
                  "tags": [
                    "green",
                    "hot"
                  ],
                  "notes": null,
                  "done": false,
                  "empty": {},
                  "none": []
                }

                """)
    }

    @Test func topLevelEmptyContainersAndScalarsEndWithANewline() throws {
        #expect(try canonical([:]) == "{}\n")
        #expect(try canonical([]) == "[]\n")
        #expect(try canonical("x") == "\"x\"\n")
        #expect(try canonical(nil) == "null\n")
    }

    @Test func membersKeepTheOrderGiven() throws {
        let object = JSONObject([("z", 1), ("a", 2), ("m", 3)])
        #expect(try canonical(.object(object)) == "{\n  \"z\": 1,\n  \"a\": 2,\n  \"m\": 3\n}\n")
    }

    /// YAJL's generator stops at 128 levels; deeper values are spliced from a second generator.
    @Test(arguments: [119, 120, 121, 128, 129, 200, 256])
    func nestingPastYAJLsOwnLimitWritesTheSameLayout(depth: Int) throws {
        var value: JSONValue = ["leaf": 1]
        for level in 1..<depth { value = level.isMultiple(of: 2) ? [value] : ["k": value] }
        let bytes = try JSONWriter().write(value)
        #expect(try JSONReader().read(bytes) == value)
        #expect(String(decoding: bytes, as: UTF8.self) == Self.expectedText(value, indent: 0) + "\n")
    }

    /// A line is the canonical text without its layout's whitespace, past YAJL's limit too,
    /// where a spliced container must come in without the layout either.
    @Test(arguments: [1, 120, 121, 129, 255])
    func aLineIsTheLaidOutTextWithoutItsLayoutAtAnyDepth(depth: Int) throws {
        var value: JSONValue = ["leaf": 1, "text": " a \"spaced\"\n string ", "n": 2.5, "none": [], "nil": nil]
        for level in 1..<depth { value = level.isMultiple(of: 2) ? [value, "x y"] : ["k": value, "k 2": [:]] }
        var compact: [UInt8] = []
        var inString = false
        var escaped = false
        for byte in try JSONWriter().write(value) {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") {
                continue
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            }
            compact.append(byte)
        }
        let line = try JSONWriter().line(for: value)
        #expect(line == String(decoding: compact, as: UTF8.self))
        #expect(!line.contains("\n"))
        #expect(try JSONReader().read(Array(line.utf8)) == value)
    }

    /// The canonical layout, computed independently of YAJL.
    static func expectedText(_ value: JSONValue, indent: Int) -> String {
        let pad = String(repeating: "  ", count: indent + 1)
        let close = String(repeating: "  ", count: indent)
        switch value {
        case .array(let elements) where !elements.isEmpty:
            return "[\n" + elements.map { pad + expectedText($0, indent: indent + 1) }.joined(separator: ",\n") + "\n"
                + close + "]"
        case .object(let object) where !object.isEmpty:
            return "{\n"
                + object.map { pad + "\"\($0.key)\": " + expectedText($0.value, indent: indent + 1) }.joined(
                    separator: ",\n") + "\n" + close + "}"
        case .array: return "[]"
        case .object: return "{}"
        case .integer(let integer): return "\(integer)"
        default: return "?"
        }
    }

    @Test func nestingPastTheWritersLimitIsAnError() {
        var value: JSONValue = 1
        for _ in 0..<257 { value = [value] }
        #expect(throws: JSONError(.tooDeep(limit: 256))) { try JSONWriter().write(value) }
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteDoubleValueIsAnError(_ double: Double) {
        let error = try? #require(throws: JSONError.self) { try JSONWriter().write(.double(double)) }
        #expect(error.map { caseName($0.kind) } == "notRepresentable")
    }

    @Test(arguments: ["", "abc", "01", "1.", "+1", "1e", "NaN", "0x10", " 1"])
    func numberTextThatIsNotJSONIsAnError(_ text: String) {
        #expect(throws: JSONError.self) { try JSONWriter().write(.number(text)) }
    }

    @Test func sameValueAlwaysWritesTheSameBytes() throws {
        var random = RandomJSON(seed: 7)
        for _ in 0..<200 {
            let value = random.value()
            #expect(try JSONWriter().write(value) == JSONWriter().write(value))
        }
    }

    /// A document far larger than the writer's internal buffer is written through it in
    /// pieces; the pieces must join into exactly the text of each part written alone.
    @Test func largeDocumentIsWrittenWholeThroughTheBuffer() throws {
        let record: JSONValue = [
            "name": "Tea \u{1F375}", "minutes": 4, "strength": 0.75, "tags": ["green", "loose"], "notes": .null,
        ]
        let records = JSONValue.array(Array(repeating: record, count: 5_000))
        let bytes = try JSONWriter().write(["records": records, "count": 5_000])
        #expect(bytes.count > 1 << 18, "large enough to pass through the buffer several times")
        let recordText = try JSONWriter().string(for: record).dropLast()  // no final newline
        let indented = recordText.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(
            separator: "\n")
        let expected =
            "{\n  \"records\": [\n" + Array(repeating: indented, count: 5_000).joined(separator: ",\n")
            + "\n  ],\n  \"count\": 5000\n}\n"
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
        #expect(
            try JSONReader(maximumSize: JSONReader.absoluteMaximumSize).read(bytes) == [
                "records": records, "count": 5_000,
            ])
    }
}
