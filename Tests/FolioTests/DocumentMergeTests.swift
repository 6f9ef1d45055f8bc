import Folio
import FolioJSON
import Testing

/// `DocumentMerge`: one rule per test, on small documents as git hands them to the driver.
struct DocumentMergeTests {
    let base: JSONObject = [
        "$entity": "Timer", "$version": "1.0.0", "id": "0F6C1E2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B",
        "name": "Workout", "durationInSeconds": 1500, "notes": .null,
    ]

    func with(_ object: JSONObject, _ changes: (String, JSONValue?)...) -> JSONObject {
        var result = object
        for (key, value) in changes { result[key] = value }
        return result
    }

    @Test func changesToDifferentPropertiesMergeCleanly() {
        let result = DocumentMerge().merge(
            base: base, ours: with(base, ("name", "Run")), theirs: with(base, ("durationInSeconds", 600)))
        #expect(result.conflicts.isEmpty)
        #expect(result.content == with(base, ("name", "Run"), ("durationInSeconds", 600)))
    }

    @Test func bothSidesMakingTheSameChangeIsNoConflict() {
        let changed = with(base, ("name", "Run"), ("notes", nil))
        let result = DocumentMerge().merge(base: base, ours: changed, theirs: changed)
        #expect(result.conflicts.isEmpty)
        #expect(result.content == changed)
    }

    @Test func aRealConflictKeepsOursAndRecordsAllThreeValues() {
        let result = DocumentMerge().merge(
            base: base, ours: with(base, ("name", "Run")), theirs: with(base, ("name", "Swim")))
        #expect(result.conflicts == [MergeConflict(property: "name", base: "Workout", ours: "Run", theirs: "Swim")])
        #expect(result.content["name"] == "Run")
        #expect(
            result.content.keys == ["$entity", "$version", "$conflicts", "id", "name", "durationInSeconds", "notes"])
        #expect(result.content["$conflicts"] == ["name": ["base": "Workout", "ours": "Run", "theirs": "Swim"]])
        #expect(MergeConflict.recorded(in: result.content) == result.conflicts)
    }

    @Test func aPropertyRemovedOnOneSideAndChangedOnTheOtherIsAConflictWithoutThatSide() {
        let result = DocumentMerge().merge(
            base: base, ours: with(base, ("notes", nil)), theirs: with(base, ("notes", "x")))
        #expect(result.conflicts == [MergeConflict(property: "notes", base: .null, ours: nil, theirs: "x")])
        #expect(result.content["$conflicts"] == ["notes": ["base": .null, "theirs": "x"]])
        #expect(result.content["notes"] == nil)
    }

    @Test func newestPolicyTakesTheSideWithTheLaterTimestamp() {
        let stamped = with(base, ("updatedAt", "2026-11-01T10:00:00Z"))
        let ours = with(stamped, ("name", "Run"), ("updatedAt", "2026-11-02T10:00:00Z"))
        let theirs = with(stamped, ("name", "Swim"), ("updatedAt", "2026-11-03T10:00:00Z"))
        let result = DocumentMerge(policy: MergePolicy(conflicts: .newest)).merge(
            base: stamped, ours: ours, theirs: theirs)
        #expect(result.conflicts.isEmpty)
        #expect(result.settledByPolicy == ["name", "updatedAt"])
        #expect(result.content == theirs)
    }

    @Test func newestPolicyWithoutATimestampKeepsBoth() {
        let result = DocumentMerge(policy: MergePolicy(conflicts: .newest)).merge(
            base: base, ours: with(base, ("name", "Run")), theirs: with(base, ("name", "Swim")))
        #expect(result.conflicts.map(\.property) == ["name"])
        #expect(result.settledByPolicy.isEmpty)
    }

    @Test func aSoftDeleteAgainstAnEditKeepsTheEditAndTheTombstone() {
        var deleted = base
        deleted.insert("2026-11-05T08:00:00Z", forKey: "$deleted", at: 2)
        let result = DocumentMerge().merge(base: base, ours: with(base, ("name", "Run")), theirs: deleted)
        #expect(result.conflicts.isEmpty)
        #expect(result.content.keys == ["$entity", "$version", "$deleted", "id", "name", "durationInSeconds", "notes"])
        #expect(result.content["name"] == "Run")
        #expect(result.content["$deleted"] == "2026-11-05T08:00:00Z")
    }

    @Test func twoDeletionsKeepTheEarlierStamp() {
        let ours = with(base, ("$deleted", "2026-11-05T08:00:00Z"))
        let theirs = with(base, ("$deleted", "2026-11-04T08:00:00Z"))
        let result = DocumentMerge().merge(base: base, ours: ours, theirs: theirs)
        #expect(result.conflicts.isEmpty)
        #expect(result.content["$deleted"] == "2026-11-04T08:00:00Z")
    }

    @Test func differentSchemaVersionsKeepTheNewer() {
        let result = DocumentMerge().merge(
            base: base, ours: with(base, ("$version", "1.1.0")), theirs: with(base, ("$version", "2.0.0")))
        #expect(result.conflicts.isEmpty)
        #expect(result.content["$version"] == "2.0.0")
    }

    @Test func bothSidesAddingTheDocumentMergeAgainstAnEmptyBase() {
        let ours = with(base, ("name", "Run"))
        let result = DocumentMerge().merge(base: nil, ours: ours, theirs: with(base, ("name", "Swim")))
        #expect(result.conflicts == [MergeConflict(property: "name", base: nil, ours: "Run", theirs: "Swim")])
        #expect(result.content["$conflicts"] == ["name": ["ours": "Run", "theirs": "Swim"]])
    }

    @Test func aMemberOnlyTheirsAddedGoesAfterItsPredecessorThere() {
        var theirs = base
        theirs.insert("high", forKey: "priority", at: theirs.index(forKey: "name")! + 1)
        let result = DocumentMerge().merge(base: base, ours: with(base, ("extra", true)), theirs: theirs)
        #expect(
            result.content.keys == [
                "$entity", "$version", "id", "name", "priority", "durationInSeconds", "notes", "extra",
            ])
    }

    @Test func storedToManyRelationshipsMergeAsSets() {
        let (a, b, c, d) = (
            "A0000000-0000-0000-0000-000000000000", "B0000000-0000-0000-0000-000000000000",
            "C0000000-0000-0000-0000-000000000000", "D0000000-0000-0000-0000-000000000000"
        )
        let tagged = with(base, ("tags", [.string(a), .string(b)]))
        let ours = with(tagged, ("tags", [.string(a), .string(c)]))
        let theirs = with(tagged, ("tags", [.string(a), .string(b), .string(d)]))
        let result = DocumentMerge(setProperties: ["tags"]).merge(base: tagged, ours: ours, theirs: theirs)
        #expect(result.conflicts.isEmpty)
        #expect(result.content["tags"] == [.string(a), .string(c), .string(d)])
    }

    @Test func conflictsRecordedOnEitherSideAreCarriedUnlessSettled() {
        let conflicted = DocumentMerge().merge(
            base: base, ours: with(base, ("name", "Run")), theirs: with(base, ("name", "Swim"))
        ).content
        let later = DocumentMerge().merge(base: base, ours: with(base, ("durationInSeconds", 1)), theirs: conflicted)
        #expect(later.conflicts.map(\.property) == ["name"])
        let settled = try? MergeConflict.resolving(conflicted, choice: .theirs, values: [:], path: "x.json")
        let afterSettling = DocumentMerge().merge(
            base: conflicted, ours: settled ?? [:], theirs: with(conflicted, ("durationInSeconds", 1)))
        #expect(afterSettling.conflicts.isEmpty)
        #expect(afterSettling.content["name"] == "Swim")
        #expect(afterSettling.content["durationInSeconds"] == 1)
    }

    @Test func resolvingTakesASideOrAValueAndRemovesTheRecord() throws {
        let ours = with(base, ("name", "Run"), ("durationInSeconds", 1))
        let theirs = with(base, ("name", "Swim"), ("durationInSeconds", 2))
        let conflicted = DocumentMerge().merge(base: base, ours: ours, theirs: theirs).content
        #expect(try MergeConflict.resolving(conflicted, choice: .theirs, values: [:], path: "x.json") == theirs)
        #expect(try MergeConflict.resolving(conflicted, choice: .base, values: [:], path: "x.json") == base)
        let partly = try MergeConflict.resolving(conflicted, choice: nil, values: ["name": "Row"], path: "x.json")
        #expect(partly["name"] == "Row")
        #expect(MergeConflict.recorded(in: partly).map(\.property) == ["durationInSeconds"])
        #expect(throws: FolioError.self) {
            try MergeConflict.resolving(conflicted, choice: nil, values: ["notes": "x"], path: "x.json")
        }
        #expect(throws: FolioError.self) {
            try MergeConflict.resolving(base, choice: .ours, values: [:], path: "x.json")
        }
    }

    @Test func theManifestKeepsANonDefaultPolicyAndLeavesTheDefaultOut() throws {
        var manifest = StoreManifest(timeZone: .gmt)
        #expect(manifest.json["merge"] == nil)
        manifest.merge = MergePolicy(conflicts: .newest, timestampProperties: ["editedAt"])
        let read = try StoreManifest(json: manifest.json, path: "folio.json")
        #expect(read.merge == manifest.merge)
        var bad = manifest.json.objectValue!
        bad["merge"] = ["conflicts": "coin-toss"]
        #expect(throws: FolioError.self) { try StoreManifest(json: .object(bad), path: "folio.json") }
    }
}
