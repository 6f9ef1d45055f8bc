import Foundation
import Testing

struct DocSamplesTests {
    static let generatedFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("GeneratedDocSamples.swift")

    /// The samples compile because the generated file is part of this target; this
    /// test keeps that file identical to what the docs say today.
    @Test func docSamplesAreCurrent() throws {
        let expected = try DocSampleExtractor.generatedSource(for: DocSampleExtractor.documents())
        if ProcessInfo.processInfo.environment["FOLIO_UPDATE_DOC_SAMPLES"] == "1" {
            try expected.write(to: Self.generatedFile, atomically: true, encoding: .utf8)
        }
        let actual = try String(contentsOf: Self.generatedFile, encoding: .utf8)
        #expect(actual == expected, "the docs' samples changed: run bash scripts/update-doc-samples.sh")
    }

    @Test func everyStatementSampleRunsWithoutThrowing() throws {
        #expect(!allDocSamples().isEmpty)
        for sample in allDocSamples() {
            #expect(throws: Never.self, "\(sample.name)") { try sample.run() }
        }
    }

    @Test func docsHaveSwiftSamples() throws {
        let readme = try String(
            contentsOf: DocSampleExtractor.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(!DocSampleExtractor.samples(in: readme).isEmpty)
    }
}
