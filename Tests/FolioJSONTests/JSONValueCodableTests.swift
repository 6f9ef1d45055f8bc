import Foundation
import Testing

@testable import FolioJSON

/// `Codable` values as nested JSON: Folio's stored forms at the leaves, declaration
/// order for members, and errors that say where.
struct JSONValueCodableTests {
    struct Shelf: Codable, Hashable {
        var label: String
        var bins: [String: Bin]
        var tags: Set<Bin>
        var slots: [Int: String]
    }

    struct Bin: Codable, Hashable {
        var size: Int
    }

    @Test func dictionariesAndSetsOfCodableValuesEncodeInOneOrder() throws {
        // The same contents, built in different orders and capacities: their iteration orders differ.
        var bins: [String: Bin] = [:]
        for size in 0..<40 { bins["bin\(size)"] = Bin(size: size) }
        var reversed: [String: Bin] = Dictionary(minimumCapacity: 400)
        for size in (0..<40).reversed() { reversed["bin\(size)"] = Bin(size: size) }
        let one = Shelf(label: "A", bins: bins, tags: Set((0..<30).map(Bin.init)), slots: [10: "x", 2: "y", 33: "z"])
        var other = Shelf(label: "A", bins: reversed, tags: [], slots: [:])
        other.tags.reserveCapacity(500)
        for size in (0..<30).reversed() { other.tags.insert(Bin(size: size)) }
        other.slots = [33: "z", 10: "x", 2: "y"]
        let encoded = try JSONValueEncoder().encode(one)
        #expect(try JSONValueEncoder().encode(other) == encoded)
        #expect(encoded["bins"]?.objectValue?.keys == (0..<40).map { "bin\($0)" }.sorted())
        #expect(encoded["slots"]?.objectValue?.keys == ["2", "10", "33"])
        #expect(try JSONValueDecoder().decode(Shelf.self, from: encoded) == one)
    }

    struct Route: Codable, Equatable {
        enum Surface: String, Codable { case water, land }
        struct Leg: Codable, Equatable {
            var start: Date
            var meters: Double
            var surface: Surface
        }
        var name: String
        var id: UUID
        var legs: [Leg]
        var tags: [String: Int]
        var note: String?
        var payload: Data
        var price: Decimal
    }

    let route = Route(
        name: "Lake loop", id: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
        legs: [
            .init(start: Date(timeIntervalSinceReferenceDate: 817_032_600.25), meters: 0.1, surface: .water),
            .init(start: Date(timeIntervalSinceReferenceDate: 817_036_200), meters: 2_000, surface: .land),
        ],
        tags: ["b": 2, "a": 1], note: nil, payload: Data([1, 2, 3]), price: Decimal(string: "12.30")!)

    @Test func nestedValuesUseFolioStoredFormsInDeclarationOrder() throws {
        let json = try JSONValueEncoder().encode(route)
        #expect(
            json.objectValue?.keys == ["name", "id", "legs", "tags", "payload", "price"],
            "nil optionals are left out, as Codable does")
        #expect(json["id"] == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        #expect(json["legs"]?.arrayValue?.first?["start"] == "2026-11-22T09:30:00.25Z")
        #expect(json["legs"]?.arrayValue?.first?["meters"] == .double(0.1))
        #expect(json["legs"]?.arrayValue?.last?["surface"] == "land")
        #expect(json["payload"] == "AQID")
        #expect(json["price"] == .double(12.3))
    }

    @Test func decodingReadsBackExactlyWhatEncodingWrote() throws {
        let json = try JSONValueEncoder().encode(route)
        #expect(try JSONValueDecoder().decode(Route.self, from: json) == route)
        let text = try JSONWriter().write(json)
        #expect(try JSONValueDecoder().decode(Route.self, from: JSONReader().read(text)) == route)
    }

    @Test func aWrongValueIsReportedWithItsPath() throws {
        var json = try JSONValueEncoder().encode(route).objectValue!
        var legs = json["legs"]!.arrayValue!
        var second = legs[1].objectValue!
        second["meters"] = "far"
        legs[1] = .object(second)
        json["legs"] = .array(legs)
        let error = try #require(throws: JSONError.self) {
            try JSONValueDecoder().decode(Route.self, from: .object(json))
        }
        #expect(error.message.contains("legs[1].meters"), "\(error.message)")
        json["legs"] = nil
        let missing = try #require(throws: JSONError.self) {
            try JSONValueDecoder().decode(Route.self, from: .object(json))
        }
        #expect(missing.message.contains("\"legs\" is missing"), "\(missing.message)")
    }
}
