@_exported import FolioTestSupport
import Foundation

@testable import FolioCore

let utc = TimeZone(identifier: "UTC")!

/// A store with a Timer and a TodoItem entity, in UTC, without syncs (tests need no power-loss safety).
func makeStore(in directory: TemporaryDirectory, durability: Durability = .none) throws -> DocumentStore {
    let manifest = StoreManifest(timeZone: utc, schema: ["entities": ["Timer": [:], "TodoItem": [:]]])
    return try DocumentStore.create(at: directory("store"), manifest: manifest, durability: durability)
}

/// 2026-11-22 at the given UTC hour.
func november22(hour: Int = 9) -> Date {
    Date(timeIntervalSinceReferenceDate: 817_032_600 - 9.5 * 3600 + Double(hour) * 3600)
}

func timer(_ name: String, id: UUID = UUID(), date: Date = november22(), minutes: Int = 25) -> Document {
    Document(
        entity: "Timer", id: id, partitionDate: date,
        content: ["name": .string(name), "minutes": .integer(Int64(minutes))])
}

func text(at path: String) throws -> String {
    try String(contentsOfFile: path, encoding: .utf8)
}

func write(_ text: String, to path: String) throws {
    try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try text.write(toFile: path, atomically: false, encoding: .utf8)
}
