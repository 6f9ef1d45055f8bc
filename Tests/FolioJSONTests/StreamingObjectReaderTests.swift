import FolioTestSupport
import Foundation
import Testing

@testable import FolioJSON

/// `StreamingObjectReader`: an object read in pieces of any size gives what `JSONReader` gives,
/// its streamed member's elements handed over one at a time, and refuses what it refuses.
struct StreamingObjectReaderTests {
    /// Reads `text` cut into pieces of `size` bytes; returns the object and the elements streamed.
    func stream(_ text: [UInt8], member: String = "changes", pieces size: Int) throws(JSONError) -> (
        JSONObject, [JSONValue]
    ) {
        var elements: [JSONValue] = []
        let reader = try StreamingObjectReader(streaming: member) { elements.append($0) }
        var start = 0
        while start < text.count {
            try reader.feed(Array(text[start..<min(start + size, text.count)]))
            start += size
        }
        return (try reader.finish(), elements)
    }

    @Test func randomRecordsReadInPiecesOfEverySizeGiveWhatTheWholeReaderGives() throws {
        var random = RandomJSON(seed: 38)
        for round in 0..<40 {
            let changes = (0..<(round % 7) * 3).map { _ in random.value(depth: 3) }
            let object: JSONObject = [
                "token": .integer(Int64(round)), "note": .string(random.string()), "changes": .array(changes),
                "after": random.value(depth: 2),
            ]
            let text = try JSONWriter().write(.object(object))
            for size in [1, 2, 5, 13, 64, text.count] {
                let (head, elements) = try stream(text, pieces: size)
                #expect(elements == changes, "round \(round), pieces of \(size)")
                var expected = object
                expected["changes"] = .array([])
                #expect(head == expected, "round \(round), pieces of \(size)")
            }
        }
    }

    @Test func onlyTheTopLevelMembersArrayIsStreamed() throws {
        let text = Array(#"{"inner":{"changes":[1,2]},"changes":[[3],{"changes":[4]}],"other":[5]}"#.utf8)
        let (head, elements) = try stream(text, pieces: 3)
        #expect(elements == [.array([3]), .object(["changes": .array([4])])])
        #expect(head["inner"] == .object(["changes": .array([1, 2])]))
        #expect(head["changes"] == .array([]))
        #expect(head["other"] == .array([5]))
    }

    @Test func aSurrogatePairCutBetweenPiecesIsAcceptedAndALoneHalfIsNot() throws {
        let pair = Array(#"{"changes":["\uD83D\uDE00"]}"#.utf8)
        for size in 1...pair.count {
            #expect(try stream(pair, pieces: size).1 == [.string("😀")], "pieces of \(size)")
        }
        let lone = Array(#"{"changes":["a\uD83Db"]}"#.utf8)
        for size in [1, 7, 16, lone.count] {
            #expect(throws: JSONError.self, "pieces of \(size)") { try stream(lone, pieces: size) }
        }
    }

    @Test func malformedTextIsRefusedWithWhereItStopped() {
        for text in [
            #"{"changes":[1,]}"#, #"{"changes":[1] "a":2}"#, #"{"a":1,"a":2,"changes":[]}"#, #"[1,2]"#,
            #"{"changes":["\#u{1}"]}"#, #"{"changes":[1]"#, #"{"changes":[1]} {}"#,
        ] {
            #expect(throws: JSONError.self, "\(text)") { try stream(Array(text.utf8), pieces: 4) }
        }
        do {
            _ = try stream(Array(#"{"changes":[1,,2]}"#.utf8), pieces: 100)
            Issue.record("a double comma was read")
        } catch {
            #expect(error.message.contains("near byte"), "\(error.message)")
        }
    }

    @Test func nestingPastTheLimitIsRefused() {
        let deep = #"{"changes":["# + String(repeating: "[", count: 10) + String(repeating: "]", count: 10) + "]}"
        #expect(throws: JSONError.self) {
            let reader = try StreamingObjectReader(maximumDepth: 8, streaming: "changes") { _ in }
            try reader.feed(Array(deep.utf8))
            _ = try reader.finish()
        }
    }
}
