import FolioJSON
import FolioTestSupport
import Foundation
import Testing

@testable import FolioCore
@testable import SeedApps

/// The plans committed in `Migrations/`: each loads, each stage file is one that
/// `Migrations/stage.schema.json` describes, and the Timer app's plan takes a store its V1
/// models wrote to the V2 shape.
struct MigrationPlanFileTests {
    /// The repository's `Migrations/` folder, found from this file's path.
    static let migrations = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appending(path: "Migrations")
    static let utc = TimeZone(identifier: "UTC")!

    @Test func theTimerAppsPlanTakesAV1StoreToTheV2Shape() throws {
        let folder = try TemporaryDirectory()
        let root = try TimerMigrationTests().v1Store(folder)
        let before = try DocumentStore.open(at: root).documents(entity: "Timer").map(\.content)
        let steps = try MigrationStep.plan(in: Self.migrations.appending(path: "TimerApp"), timeZone: Self.utc)
        #expect(steps.map(\.fromVersion) == [TimerMigrationTests.v1])
        #expect(steps.last?.toVersion == TimerMigrationTests.v2)
        let report = try DocumentStore.open(at: root).migrate(steps)
        #expect(report.applied && report.failures.isEmpty)

        let store = try DocumentStore.open(at: root)
        #expect(store.manifest.schemaVersion == "2.0.0")
        let entities = try #require(store.manifest.schema["entities"]?.objectValue)
        #expect(Set(entities.keys) == ["Timer", "TodoItem", "Category"])
        let timerProperties = entities["Timer"]?["properties"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        #expect(
            timerProperties.contains("color") && timerProperties.contains("category")
                && !timerProperties.contains("colorHex"))
        let categoryProperties = entities["Category"]?["properties"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
        #expect(categoryProperties == ["id", "name", "color"])

        let timers = store.documents(entity: "Timer").map(\.content)
        #expect(timers.count == before.count)
        for timer in timers {
            let old = try #require(before.first { $0["id"] == timer["id"] })
            #expect(timer["$version"] == "2.0.0")
            #expect(timer["category"] == "General")
            #expect(timer["color"] == old["colorHex"] && timer["colorHex"] == nil)
            // The rename keeps the member where it was; the new one comes last.
            #expect(Array(timer.keys) == Array(old.keys).map { $0 == "colorHex" ? "color" : $0 } + ["category"])
        }
        // The to-dos are untouched and still point at their timers.
        #expect(
            store.documents(entity: "TodoItem").allSatisfy {
                $0.content["$version"] == "1.0.0" && $0.content["timer"] != nil
            })
    }

    @Test func everyStageFileIsAcceptedByTheLoaderAndDescribedByTheStageSchema() throws {
        let schema = try JSONReader().read(contentsOfFile: Self.migrations.appending(path: "stage.schema.json").path)
        let definitions = try #require(schema["$defs"]?.objectValue)
        // The schema describes exactly the operations the loader knows.
        #expect(Array(definitions.keys) == MigrationStep.operationNames)
        let topLevel = Set(schema["properties"]?.objectValue?.keys.map { $0 } ?? [])

        let plans = try FileManager.default.contentsOfDirectory(atPath: Self.migrations.path).sorted().filter {
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(
                atPath: Self.migrations.appending(path: $0).path, isDirectory: &isFolder) && isFolder.boolValue
        }
        #expect(plans.contains("TimerApp"))
        for plan in plans {
            let folder = Self.migrations.appending(path: plan)
            let steps = try MigrationStep.plan(in: folder, timeZone: Self.utc)
            #expect(!steps.isEmpty, "\(plan) has no stages")
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".json") {
                let stage = try JSONReader().read(contentsOfFile: folder.appending(path: name).path)
                let place = "\(plan)/\(name)"
                let members: Set<String> = Set(stage.objectValue?.keys.map { $0 } ?? [])
                #expect(members.isSubset(of: topLevel), "\(place) has a member the schema does not describe")
                for (index, operation) in (stage["operations"]?.arrayValue ?? []).enumerated() {
                    let op = operation["op"]?.stringValue ?? ""
                    let definition = try #require(
                        definitions[op], "\(place): operations[\(index)] names no known operation")
                    let allowed: Set<String> = Set(definition["properties"]?.objectValue?.keys.map { $0 } ?? [])
                    let required = definition["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
                    let keys: Set<String> = Set(operation.objectValue?.keys.map { $0 } ?? [])
                    #expect(
                        keys.isSubset(of: allowed),
                        "\(place): operations[\(index)] has members \(keys.subtracting(allowed).sorted()) that \(op) does not take"
                    )
                    #expect(
                        Set(required).isSubset(of: keys),
                        "\(place): operations[\(index)] lacks \(Set(required).subtracting(keys).sorted())")
                }
            }
        }
    }
}
