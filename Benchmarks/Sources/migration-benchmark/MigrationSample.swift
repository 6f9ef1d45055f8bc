import BenchmarkSupport
import Folio
import FolioJSON
import Foundation

/// The store a migration rewrites: `count` Timer documents at schema 1.0.0 (about 330
/// bytes each), their days spread over 2025, and the lightweight stage every one of
/// them goes through: `colorHex` renamed `color`, `category` added with "General".
struct MigrationSample {
    /// Days are cut in UTC, so each document's folder follows from its partition date alone.
    static let manifest = StoreManifest(
        schemaVersion: "1.0.0", timeZone: TimeZone(identifier: "UTC")!,
        schema: [
            "entities": [
                "Timer": [
                    "properties": [
                        ["name": "id", "type": "UUID"], ["name": "name", "type": "String"],
                        ["name": "durationInSeconds", "type": "Int"],
                        ["name": "icon", "type": "String"], ["name": "colorHex", "type": "String"],
                        ["name": "createdAt", "type": "Date"],
                        ["name": "updatedAt", "type": "Date"], ["name": "notes", "type": "String", "optional": true],
                    ]
                ]
            ]
        ])
    /// The stage measured, as a lightweight stage is inferred from two schemas.
    static let step = MigrationStep(
        from: Schema.Version(1, 0, 0), to: Schema.Version(2, 0, 0),
        operations: [
            .renameProperty(entity: "Timer", from: "colorHex", to: "color"),
            .addProperty(
                entity: "Timer", property: ["name": "category", "type": "String"], value: .constant("General")),
        ])
    /// 2025-01-01T00:00:00Z, in seconds since Foundation's reference date.
    private static let firstDay = 757_382_400.0

    /// One put of every document, as one transaction.
    let changes: [DocumentChange]
    /// Each document's path relative to the store, as Folio files it.
    let paths: [String]

    init(count: Int) throws {
        var random = SplitMix64(seed: 6)
        let icons = ["timer", "figure.run", "book.fill", "cup.and.saucer.fill", "sparkles"]
        let colors = ["#FF3B30", "#007AFF", "#8E8E93", "#5856D6", "#34C759"]
        let calendar = Self.manifest.calendar
        var changes: [DocumentChange] = []
        var paths: [String] = []
        for index in 0..<count {
            var bytes = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            bytes[6] = bytes[6] & 0x0F | 0x40
            bytes[8] = bytes[8] & 0x3F | 0x80
            let id = UUID(
                uuid: (
                    bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                    bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                ))
            let created = Date(timeIntervalSinceReferenceDate: Self.firstDay + Double(random.next() % (365 * 86_400)))
            let content: JSONObject = [
                "$entity": "Timer", "$version": "1.0.0", "id": .string(id.uuidString),
                "name": .string("Timer \(index)"),
                "durationInSeconds": .integer(Int64(60 + random.next() % 3_600)),
                "icon": .string(icons[index % icons.count]),
                "colorHex": .string(colors[index % colors.count]),
                "createdAt": ISO8601Timestamp.jsonValue(for: created),
                "updatedAt": ISO8601Timestamp.jsonValue(for: created.addingTimeInterval(3_600)),
                "notes": index % 3 == 0 ? .string("Remember to hydrate and to stretch before the next round.") : .null,
            ]
            changes.append(
                .put(Document(entity: "Timer", id: id, partitionDate: created, content: content), basedOn: nil))
            paths.append(try DocumentPath(entity: "Timer", day: Day(created, in: calendar), id: id).relativePath)
        }
        self.changes = changes
        self.paths = paths
    }

    /// Writes the store, untimed and without syncs, and closes it so its cache is written.
    func write(at root: String) throws {
        let store = try DocumentStore.create(at: root, manifest: Self.manifest, durability: .none)
        let summary = try store.commit(changes)
        guard summary.written == changes.count else {
            throw BenchmarkFailure("wrote \(summary.written) documents, not \(changes.count)")
        }
        try store.close()
    }
}
