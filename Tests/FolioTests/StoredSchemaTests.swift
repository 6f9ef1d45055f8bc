import FolioJSON
import Foundation
import Testing

@testable import FolioCore

/// `StoredSchema`, the manifest's schema read into types: every key the format has, and
/// leniency, where a malformed member is absent and nothing throws.
struct StoredSchemaTests {
    /// The example schema of `docs/format.md`.
    static let example = """
        {"entities": {
          "Habit": {
            "properties": [
              {"name": "id", "type": "UUID", "options": ["unique"]},
              {"name": "name", "type": "String", "originalName": "title"},
              {"name": "kind", "type": "Kind", "cases": ["daily", "weekly"], "default": "daily"},
              {"name": "createdAt", "type": "Date", "options": ["indexed"], "generated": "now"},
              {"name": "note", "type": "String", "optional": true},
              {"name": "tint", "type": "Color", "optional": true, "transformer": "ColorTransformer"},
              {"name": "checks", "destination": "Check", "toMany": true, "deleteRule": "cascade", "inverse": "habit",
               "maximumModelCount": 400}
            ],
            "unique": [["id"]], "indices": [["createdAt"]]
          },
          "Check": {"superentity": "Habit", "properties": [
            {"name": "habit", "destination": "Habit", "toMany": false, "deleteRule": "nullify", "inverse": "checks"}]}
        }}
        """

    @Test func readsEveryKeyTheFormatHas() throws {
        let schema = StoredSchema(try JSONReader().read(Array(Self.example.utf8)))
        #expect(schema.entityNames == ["Habit", "Check"])
        let habit = try #require(schema.entity(named: "Habit"))
        #expect(habit.superentity == nil && !habit.hasSuperentity)
        #expect(habit.properties.map(\.name) == ["id", "name", "kind", "createdAt", "note", "tint", "checks"])
        #expect(habit.uniquenessConstraints == [["id"]] && habit.indices == [["createdAt"]])

        let id = try #require(habit.property(named: "id"))
        #expect(id.typeName == "UUID" && !id.isOptional && id.has(.unique) && !id.isRelationship)
        #expect(habit.property(named: "name")?.originalName == "title")
        let kind = try #require(habit.property(named: "kind"))
        #expect(kind.cases == ["daily", "weekly"] && kind.defaultValue == "daily" && kind.generated == nil)
        #expect(habit.property(named: "createdAt")?.generated == .now)
        #expect(habit.property(named: "note")?.isOptional == true)
        #expect(habit.property(named: "tint")?.transformer == "ColorTransformer")

        let checks = try #require(habit.property(named: "checks"))
        #expect(checks.isRelationship && checks.destination == "Check" && checks.isToMany)
        #expect(checks.deleteRule == "cascade" && checks.inverse == "habit")
        #expect(checks.minimumModelCount == nil && checks.maximumModelCount == 400)

        let check = try #require(schema.entity(named: "Check"))
        #expect(check.superentity == "Habit" && check.hasSuperentity)
        #expect(check.property(named: "habit")?.isToMany == false)
    }

    @Test func aMalformedMemberIsAbsent() throws {
        let json: JSONValue = [
            "entities": [
                "Odd": [
                    "superentity": 5,
                    "properties": [
                        7,
                        [
                            "name": 3, "type": ["String"], "optional": "yes", "options": ["unique", 1, "uniqe"],
                            "cases": "a", "default": nil, "generated": "later", "minimumModelCount": -1,
                            "maximumModelCount": 2.5,
                        ],
                        ["name": "a", "destination": 1, "toMany": true],
                    ],
                    "unique": ["id", [], [1, "a"]],
                    "indices": "a",
                ],
                "Bare": "not an object",
            ]
        ]
        let schema = StoredSchema(json)
        #expect(schema.entityNames == ["Odd", "Bare"])
        let odd = try #require(schema.entity(named: "Odd"))
        #expect(odd.superentity == nil && odd.hasSuperentity)
        #expect(odd.properties.count == 3 && odd.properties[0].name == nil)
        let property = odd.properties[1]
        #expect(property.name == nil && property.typeName == nil && !property.isOptional)
        #expect(property.options == ["unique", "uniqe"] && property.has(.unique) && !property.has(.indexed))
        #expect(property.cases == nil && property.defaultValue == .null && property.generated == nil)
        #expect(property.minimumModelCount == nil && property.maximumModelCount == nil)
        let named = try #require(odd.property(named: "a"))
        #expect(!named.isRelationship && named.isToMany)
        #expect(odd.uniquenessConstraints == [[], ["a"]] && odd.indices.isEmpty)
        let bare = try #require(schema.entity(named: "Bare"))
        #expect(bare.properties.isEmpty && !bare.hasSuperentity)

        for notASchema: JSONValue in [[:], [1], ["entities": [1]], "schema"] {
            #expect(StoredSchema(notASchema).entities.isEmpty)
        }
    }

    @Test func theManifestReadsItsSchemaAgainWhenItIsSet() throws {
        var manifest = StoreManifest(
            timeZone: try #require(TimeZone(identifier: "Europe/Berlin")), schema: ["entities": ["Note": [:]]])
        #expect(manifest.storedSchema.entityNames == ["Note"])
        manifest.schema = ["entities": ["Tag": [:], "Note": [:]]]
        #expect(manifest.storedSchema.entityNames == ["Tag", "Note"])
        let read = try StoreManifest(json: manifest.json, path: StoreManifest.fileName)
        #expect(read == manifest && read.storedSchema == manifest.storedSchema)
    }

    @Test func theOptionsAreThoseSchemaCheckAllows() {
        #expect(StoredSchema.Property.Option.allCases.map(\.rawValue) == SchemaCheck.options)
    }
}
