import FolioJSON
import Foundation
import Testing

/// The checked-in corpus of broken documents: each must fail with its expected kind, line and column.
struct MalformedCorpusTests {
    struct Expectation: Sendable, CustomTestStringConvertible {
        var file: String
        var kind: String
        var line: Int
        var column: Int
        var testDescription: String { file }
    }

    /// The manifest `Fixtures/malformed-expectations.json`, read with FolioJSON itself.
    static let expectations: [Expectation] = {
        let manifest = fixturesURL.appendingPathComponent("malformed-expectations.json").path
        guard let object = try? JSONReader().read(contentsOfFile: manifest).objectValue else { return [] }
        return object.compactMap { member in
            guard let kind = member.value["kind"]?.stringValue,
                case .integer(let line)? = member.value["line"],
                case .integer(let column)? = member.value["column"]
            else { return nil }
            return Expectation(file: member.key, kind: kind, line: Int(line), column: Int(column))
        }
    }()

    @Test func corpusHasAtLeastFiftyDocumentsAndEveryFileHasAnExpectation() throws {
        let files = try FileManager.default.contentsOfDirectory(
            atPath: fixturesURL.appendingPathComponent("Malformed").path)
        #expect(Self.expectations.count >= 50)
        #expect(Set(files) == Set(Self.expectations.map(\.file)))
    }

    @Test(arguments: expectations)
    func malformedDocumentIsRejectedAtItsPlace(_ expected: Expectation) throws {
        let path = fixturesURL.appendingPathComponent("Malformed").appendingPathComponent(expected.file).path
        let error = try #require(throws: JSONError.self) { try JSONReader().read(contentsOfFile: path) }
        #expect(caseName(error.kind) == expected.kind)
        #expect(error.location?.line == expected.line)
        #expect(error.location?.column == expected.column)
        #expect(error.file == path)
        #expect(error.description.hasPrefix("\(path):\(expected.line):\(expected.column): error: "))
    }
}
