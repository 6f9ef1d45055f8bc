import FolioTestSupport
import Foundation
import Testing

/// The README's `folio` examples, run as written against copies of the example stores
/// in `Data/`: a newcomer's first commands must work.
struct ReadmeExampleTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Each `folio …` line of the README's shell blocks, without its comment.
    static func examples() throws -> [String] {
        let readme = try String(contentsOf: repository.appending(path: "README.md"), encoding: .utf8)
        var inShell = false
        var lines: [String] = []
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inShell = line == "```sh"
                continue
            }
            guard inShell, line.hasPrefix("folio ") else { continue }
            lines.append(String(line).replacing(/\s{2,}#.*$/, with: ""))
        }
        return lines
    }

    /// The example store an example works on: named by `--store Data/X` or `Migrations/X`, else the
    /// one whose schema has the entity the example names, else (`folio check`) the timer app's.
    static func store(for example: String, schemas: [String: String]) -> String {
        if let named = example.firstMatch(of: /(?:Data|Migrations)\/([A-Za-z]+)/) { return String(named.1) }
        let words = example.split(separator: " ").map(String.init)
        for word in words.dropFirst(2).prefix(1) + words.dropFirst(1).prefix(2) {
            if let store = schemas.first(where: { $0.value.contains("\"\(word)\": {") })?.key { return store }
        }
        return "TimerApp"
    }

    @Test func everyToolExampleOfTheReadmeRunsOnTheExampleStores() throws {
        let examples = try Self.examples()
        #expect(examples.count >= 10)
        let data = Self.repository.appending(path: "Data")
        let names = ["TimerApp", "OneThing", "ForestFocus", "HealthSync", "Rowing"]
        let schemas = try Dictionary(
            uniqueKeysWithValues: names.map {
                ($0, try String(contentsOf: data.appending(path: "\($0)/folio.json"), encoding: .utf8))
            })
        for example in examples {
            // Placeholders a reader fills in, the tour, the editor, and git's commands (which need a
            // repository and a remote: GitSyncTests runs them) are not run here.
            let elsewhere = ["folio tour", "folio edit", "folio git", "folio sync"]
            guard !example.contains("<"), !elsewhere.contains(where: example.hasPrefix) else { continue }
            let name = Self.store(for: example, schemas: schemas)
            let folder = try TemporaryDirectory()
            try FileManager.default.copyItem(at: data.appending(path: name), to: folder.url.appending(path: name))
            let command = example.replacingOccurrences(of: "--store Data/\(name)", with: "--store .")
                .replacingOccurrences(of: "Migrations/", with: Self.repository.appending(path: "Migrations").path + "/")
                .replacingOccurrences(of: "folio ", with: "exec '\(FolioTool.path)' ", options: .anchored)
            // `exec`: the shell becomes the tool, so a command that never ends (a `folio watch`
            // put in a shell block) is killed itself, and fails the test instead of hanging it.
            let run = try ProcessRun(
                "/bin/sh", ["-c", command], in: folder("\(name)"), environment: ProcessInfo.processInfo.environment,
                input: nil, timeout: 120)
            #expect(!run.timedOut, "\(example) in \(name) ran for two minutes; a README example must end")
            #expect(run.status == 0, "\(example) in \(name): exit \(run.status)\n\(run.errors)")
        }
    }
}
