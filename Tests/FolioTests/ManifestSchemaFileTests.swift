import FolioJSON
import Foundation
import Testing

@testable import FolioCore

/// `docs/manifest.schema.json`, the JSON Schema of `folio.json`: it allows exactly the keys
/// and values `SchemaCheck` does, and every example store's manifest in `Data/` is one it
/// describes.
struct ManifestSchemaFileTests {
    /// The repository's root, found from this file's path.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func schema() throws -> JSONValue {
        try JSONReader().read(
            contentsOfFile: repository.appending(path: "docs").appending(path: "manifest.schema.json").path)
    }

    /// The member names of an object, in order.
    static func keys(_ value: JSONValue?) -> [String] { value?.objectValue?.keys.map { $0 } ?? [] }

    /// The strings of an array.
    static func strings(_ value: JSONValue?) -> [String] { value?.arrayValue?.compactMap(\.stringValue) ?? [] }

    @Test func theSchemaFileAllowsExactlyTheKeysAndValuesSchemaCheckDoes() throws {
        let schema = try Self.schema()
        let definitions = try #require(schema["$defs"]?.objectValue)
        let attribute = try #require(definitions["attribute"])
        let relationship = try #require(definitions["relationship"])
        let entity = try #require(definitions["entity"])

        #expect(Set(Self.keys(attribute["properties"])) == Set(SchemaCheck.attributeKeys))
        #expect(Set(Self.keys(relationship["properties"])) == Set(SchemaCheck.relationshipKeys))
        #expect(Set(Self.keys(entity["properties"])) == Set(SchemaCheck.entityKeys))
        #expect(Set(Self.keys(schema["properties"]?["schema"]?["properties"])) == Set(SchemaCheck.schemaKeys))
        #expect(Self.strings(attribute["properties"]?["options"]?["items"]?["enum"]) == SchemaCheck.options)
        #expect(Self.strings(relationship["properties"]?["deleteRule"]?["enum"]) == SchemaCheck.deleteRules)
        #expect(Self.strings(attribute["properties"]?["generated"]?["enum"]) == ["now", "uuid"])
        #expect(Self.strings(attribute["required"]) == ["name", "type"])
        #expect(Self.strings(relationship["required"]) == ["name", "destination"])
        for definition in [attribute, relationship, entity] { #expect(definition["additionalProperties"] == false) }
    }

    @Test func everyExampleStoresManifestIsOneTheSchemaFileDescribes() throws {
        let schema = try Self.schema()
        let definitions = try #require(schema["$defs"]?.objectValue)
        let topLevel = Set(Self.keys(schema["properties"]))
        let required = Set(Self.strings(schema["required"]))
        let entityKeys = Set(Self.keys(definitions["entity"]?["properties"]))

        let data = Self.repository.appending(path: "Data")
        let stores = try FileManager.default.contentsOfDirectory(atPath: data.path).sorted().filter {
            FileManager.default.fileExists(
                atPath: data.appending(path: $0).appending(path: StoreManifest.fileName).path)
        }
        #expect(!stores.isEmpty, "Data/ holds no store with a folio.json")
        for store in stores {
            let place = "Data/\(store)/\(StoreManifest.fileName)"
            let manifest = try JSONReader().read(
                contentsOfFile: data.appending(path: store).appending(path: StoreManifest.fileName).path)
            let members = Set(Self.keys(manifest))
            #expect(
                members.isSubset(of: topLevel),
                "\(place) has members \(members.subtracting(topLevel).sorted()) the schema does not describe")
            #expect(required.isSubset(of: members), "\(place) lacks \(required.subtracting(members).sorted())")

            for entity in manifest["schema"]?["entities"]?.objectValue ?? [:] {
                let keys = Set(Self.keys(entity.value))
                #expect(
                    keys.isSubset(of: entityKeys),
                    "\(place): entity \(entity.key) has members \(keys.subtracting(entityKeys).sorted()) the schema does not describe"
                )
                for (index, property) in (entity.value["properties"]?.arrayValue ?? []).enumerated() {
                    let label = "\(place): \(entity.key).properties[\(index)]"
                    let kind =
                        property["type"] != nil ? "attribute" : property["destination"] != nil ? "relationship" : nil
                    let definition = try #require(
                        kind.flatMap { definitions[$0] }, "\(label) is neither an attribute nor a relationship")
                    let allowed = Set(Self.keys(definition["properties"]))
                    let needed = Set(Self.strings(definition["required"]))
                    let keys = Set(Self.keys(property))
                    #expect(
                        keys.isSubset(of: allowed),
                        "\(label) has members \(keys.subtracting(allowed).sorted()) that the \(kind ?? "") definition does not allow"
                    )
                    #expect(needed.isSubset(of: keys), "\(label) lacks \(needed.subtracting(keys).sorted())")
                }
            }
        }
    }
}
