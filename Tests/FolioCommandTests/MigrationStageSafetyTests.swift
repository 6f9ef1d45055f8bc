import FolioTestSupport
import Foundation
import Testing

/// Stage files that would destroy data or break the format: each is refused, naming the
/// stage file and its operation, by a dry run and by a migration alike, and nothing in the
/// store changes.
struct MigrationStageSafetyTests {
    /// A stage's operation, and what it would have done.
    struct Stage: CustomTestStringConvertible, Sendable {
        var what: String
        var operation: String
        var to = "1.1.0"
        var testDescription: String { what }
    }

    static let stages: [Stage] = [
        Stage(
            what: "a rename onto an existing property",
            operation: #"{"op": "renameProperty", "entity": "Timer", "from": "name", "to": "notes"}"#),
        Stage(
            what: "a rename onto $deleted",
            operation: #"{"op": "renameProperty", "entity": "Timer", "from": "name", "to": "$deleted"}"#),
        Stage(
            what: "a rename onto $id",
            operation: #"{"op": "renameProperty", "entity": "Timer", "from": "name", "to": "$id"}"#),
        Stage(
            what: "a rename onto $entity",
            operation: #"{"op": "renameProperty", "entity": "Timer", "from": "name", "to": "$entity"}"#),
        Stage(
            what: "a rename of $version",
            operation: #"{"op": "renameProperty", "entity": "Timer", "from": "$version", "to": "version"}"#),
        Stage(
            what: "an entity renamed onto another",
            operation: #"{"op": "renameEntity", "from": "TodoItem", "to": "Timer"}"#),
        Stage(
            what: "an entity added over another",
            operation: #"{"op": "addEntity", "entity": "Timer", "properties": []}"#),
        Stage(
            what: "setValue of $entity",
            operation: #"{"op": "setValue", "entity": "Timer", "property": "$entity", "default": "TodoItem"}"#),
        Stage(
            what: "setValue of $version",
            operation: #"{"op": "setValue", "entity": "Timer", "property": "$version", "default": "9.9.9"}"#),
        Stage(
            what: "a property named ../x",
            operation: #"{"op": "addProperty", "entity": "Timer", "property": "../x", "type": "String", "default": ""}"#
        ),
        Stage(
            what: "a property named a b",
            operation: #"{"op": "addProperty", "entity": "Timer", "property": "a b", "type": "String", "default": ""}"#),
        Stage(what: "an entity named ../up", operation: #"{"op": "addEntity", "entity": "../up", "properties": []}"#),
        Stage(
            what: "a type 20,000 levels deep",
            operation: #"{"op": "addProperty", "entity": "Timer", "property": "deep", "type": ""#
                + String(repeating: "Array<", count: 20_000) + "Int" + String(repeating: ">", count: 20_000)
                + #"", "default": []}"#),
        Stage(
            what: "a version no counter holds",
            operation: #"{"op": "addProperty", "entity": "Timer", "property": "x", "type": "Int", "default": 0}"#,
            to: "1.9223372036854775807.0"),
    ]

    @Test(arguments: stages)
    func aStageThatWouldDestroyDataOrBreakTheFormatIsRefusedAndChangesNothing(stage: Stage) throws {
        let store = try TimerStore()
        let plan = store.folder("plan")
        try FileManager.default.createDirectory(atPath: plan, withIntermediateDirectories: true)
        let file = plan + "/001-to-1.1.0.json"
        try Data(#"{"from": "1.0.0", "to": "\#(stage.to)", "operations": [\#(stage.operation)]}"#.utf8)
            .write(to: URL(fileURLWithPath: file))
        let before = try Snapshot(of: store.root, excluding: ".folio")
        for arguments in [["migrate", "--plan", "../plan", "--dry-run"], ["migrate", "--plan", "../plan"]] {
            let run = try store.folio.run(arguments, timeout: 120)
            #expect(run.status == 65, "\(arguments): \(run.status) \(run.errors)")
            #expect(run.errors.contains("001-to-1.1.0.json"), "\(arguments) does not name the stage: \(run.errors)")
            #expect(!run.output.contains("diff --git"), "\(arguments) showed a diff of a refused stage")
            #expect(try Snapshot(of: store.root, excluding: ".folio") == before)
        }
        let check = try store.folio.run(["check"], timeout: 120)
        #expect(check.status == 0, "\(check.output) \(check.errors)")
    }
}

/// A manifest whose schema a hostile hand made: a type nested 20,000 levels deep is an
/// error `check` reports, never a crash of it or of any command after.
struct DeepTypeManifestTests {
    @Test func aTypeNestedTwentyThousandDeepIsReportedNotACrash() throws {
        let store = try TimerStore()
        let manifest = store.root + "/folio.json"
        let deep = String(repeating: "Array<", count: 20_000) + "Int" + String(repeating: ">", count: 20_000)
        let text = try String(contentsOfFile: manifest, encoding: .utf8)
            .replacingOccurrences(of: #""type": "Int""#, with: #""type": "\#(deep)""#)
        try text.write(toFile: manifest, atomically: true, encoding: .utf8)
        for command in [["check"], ["info"], ["count", "Timer"], ["schema"]] {
            let run = try store.folio.run(command, timeout: 120)
            #expect(run.status < 64 || run.status == 65, "\(command) ended with \(run.status): \(run.errors)")
            #expect(!run.errors.contains("Fatal error"), "\(command): \(run.errors)")
        }
        let check = try store.folio.run(["check"], timeout: 120)
        #expect(check.status != 0, "check took a 20,000-deep type: \(check.output)")
        #expect((check.output + check.errors).contains("nests more than 32 collections"))
        #expect((check.output + check.errors).split(separator: "\n").allSatisfy { $0.count < 1_000 })
    }
}
