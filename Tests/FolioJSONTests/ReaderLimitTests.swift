import FolioTestSupport
import Foundation
import Testing

@testable import FolioJSON

struct ReaderLimitTests {
    @Test func nestingTenThousandDeepIsRejectedAtTheFirstLevelPastTheLimit() {
        let text = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let error = readError(text)
        #expect(error?.kind == .tooDeep(limit: 256))
        #expect(error?.location?.column == 257)
    }

    @Test func nestingExactlyAtTheLimitIsAccepted() throws {
        let reader = JSONReader(maximumDepth: 5)
        #expect(throws: Never.self) { try reader.read("[[[[[1]]]]]") }
        #expect(readError("[[[[[[1]]]]]]", reader: reader)?.kind == .tooDeep(limit: 5))
        #expect(readError(#"{"a":{"b":{"c":{"d":{"e":{}}}}}}"#, reader: reader)?.kind == .tooDeep(limit: 5))
    }

    @Test func twentyMebibyteStringIsRejectedByDefaultAndReadWithARaisedLimit() throws {
        let body = String(repeating: "x", count: 20 << 20)
        let text = "[\"" + body + "\"]"
        #expect(readError(text)?.kind == .tooLarge(size: text.utf8.count, limit: 16 << 20))
        let value = try JSONReader(maximumSize: 32 << 20).read(text)
        #expect(value == .array([.string(body)]))
    }

    @Test func sizeLimitCannotBeRaisedPastTheAbsoluteCap() {
        #expect(JSONReader(maximumSize: .max).maximumSize == JSONReader.absoluteMaximumSize)
    }

    @Test func oversizedFileIsRefusedBeforeItIsRead() throws {
        let directory = try TemporaryDirectory()
        let path = directory("big.json")
        let handle = try #require(FileHandle(forWritingAtPath: try directory.create("big.json")))
        try handle.truncate(atOffset: 64 << 20)  // a sparse 64 MiB file: nothing to read but zeros
        try handle.close()
        let error = try #require(throws: JSONError.self) { try JSONReader().read(contentsOfFile: path) }
        #expect(error.kind == .tooLarge(size: 64 << 20, limit: 16 << 20))
        #expect(error.file == path)
    }

    @Test func missingFileAndDirectoryAreUnreadableWithTheirPath() throws {
        let directory = try TemporaryDirectory()
        let missing = directory("missing.json")
        let error = try #require(throws: JSONError.self) { try JSONReader().read(contentsOfFile: missing) }
        #expect(caseName(error.kind) == "unreadable")
        #expect(error.description.hasPrefix(missing + ": error: cannot read the file: No such file"))
        let folder = try #require(throws: JSONError.self) { try JSONReader().read(contentsOfFile: directory.path) }
        #expect(folder.kind == .unreadable("is a folder, not a regular file"))
    }

    /// A FIFO in a file's place is refused at once, saying what it is, rather than waited on for ever.
    @Test func aFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let directory = try TemporaryDirectory()
        let fifo = directory("pipe.json")
        #expect(mkfifo(fifo, 0o644) == 0)
        let error = try #require(throws: JSONError.self) { try JSONReader().read(contentsOfFile: fifo) }
        #expect(error.kind == .unreadable("is a FIFO (named pipe), not a regular file"))
    }

    @Test func wideObjectDetectsDuplicatesPastTheLinearScan() {
        let members = (0..<1000).map { "\"key\($0)\": \($0)" }.joined(separator: ",\n")
        let error = readError("{\n" + members + ",\n\"key500\": 0\n}")
        #expect(error?.kind == .duplicateKey("key500", firstLine: 502))
        #expect(error?.location?.line == 1002)
    }

    @Test func keysRepeatedAcrossNestingLevelsAreNotDuplicates() throws {
        let text = #"{"a": {"a": 1, "b": {"a": 2, "b": [{"a": 3}]}}, "b": {"a": 4}, "c": [{"a": 5, "c": 6}]}"#
        let value = try JSONReader().read(text)
        #expect(value["a"]?["b"]?["b"] == [["a": 3]])
        #expect(value["c"] == [["a": 5, "c": 6]])
        #expect(try canonical(value) == canonical(JSONReader().read(canonical(value))))
    }

    @Test func duplicateAfterANestedValueIsCaughtAtItsOwnLevel() {
        #expect(readError(#"{"a": {"x": 1, "y": {"z": 2}}, "a": 2}"#)?.kind == .duplicateKey("a", firstLine: 1))
        #expect(readError(#"{"o": {"a": [1, {"a": 1}], "a": 2}}"#)?.kind == .duplicateKey("a", firstLine: 1))
        let wide = (0..<100).map { "\"k\($0)\": {\"k\($0)\": 1}" }.joined(separator: ", ")
        #expect(readError("{" + wide + "}") == nil)
        #expect(readError("{" + wide + ", \"k99\": 0}")?.kind == .duplicateKey("k99", firstLine: 1))
    }

    @Test func wideObjectWithoutDuplicatesKeepsEveryMemberInOrder() throws {
        let members = (0..<1000).map { "\"key\($0)\": \($0)" }.joined(separator: ", ")
        let object = try #require(try JSONReader().read("{" + members + "}").objectValue)
        #expect(object.keys == (0..<1000).map { "key\($0)" })
    }
}
