import Foundation

/// The Swift code samples of the project's Markdown docs, turned into a Swift file.
///
/// A block fenced as ```` ```swift ```` is a sequence of statements and becomes the
/// body of a throwing function; ```` ```swift declarations ```` is placed at file
/// scope (types, `@Model` classes). `import` lines move to the top of the file.
/// The generated file is compiled with this target, so a sample that stops
/// compiling fails the build, and `docSamplesAreCurrent` fails when a doc changed
/// without the file being regenerated.
enum DocSampleExtractor {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The docs whose samples are compiled, relative to the repository root.
    static func documents() throws -> [String] {
        let docs = repositoryRoot.appendingPathComponent("docs")
        let extra =
            FileManager.default.fileExists(atPath: docs.path)
            ? try FileManager.default.contentsOfDirectory(atPath: docs.path) : []
        return ["README.md"] + extra.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }

    /// The Swift source holding every sample of these documents.
    static func generatedSource(for documents: [String]) throws -> String {
        var imports: Set<String> = []
        var body = ""
        var functions: [String] = []
        for document in documents {
            let text = try String(contentsOf: repositoryRoot.appendingPathComponent(document), encoding: .utf8)
            for (index, sample) in samples(in: text).enumerated() {
                let code = sample.lines.filter { line in
                    guard line.hasPrefix("import ") else { return true }
                    imports.insert(line)
                    return false
                }
                body += "\n// \(document), line \(sample.line)\n"
                if sample.isDeclarations {
                    body += code.joined(separator: "\n") + "\n"
                } else {
                    let name = document.replacingOccurrences(of: "[^A-Za-z0-9]", with: "_", options: .regularExpression)
                    functions.append("sample_\(name)_\(index + 1)")
                    body += "func \(functions.last!)() throws {\n"
                    body += code.map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n") + "\n}\n"
                }
            }
        }
        return """
            // swift-format-ignore-file
            // Generated from the docs' Swift samples; do not edit.
            // Regenerate: bash scripts/update-doc-samples.sh

            """ + imports.sorted().joined(separator: "\n") + "\n" + body + """

                /// Every statement sample, so a test can run them all.
                func allDocSamples() -> [(name: String, run: () throws -> Void)] {
                    [\(functions.map { "(\"\($0)\", \($0))" }.joined(separator: ", "))]
                }

                """
    }

    struct Sample {
        var line: Int
        var isDeclarations: Bool
        var lines: [String]
    }

    static func samples(in markdown: String) -> [Sample] {
        var result: [Sample] = []
        var current: Sample?
        for (number, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if var sample = current {
                if trimmed == "```" {
                    result.append(sample)
                    current = nil
                } else {
                    sample.lines.append(String(line))
                    current = sample
                }
            } else if trimmed == "```swift" || trimmed == "```swift declarations" {
                current = Sample(line: number + 1, isDeclarations: trimmed.hasSuffix("declarations"), lines: [])
            }
        }
        return result
    }
}
