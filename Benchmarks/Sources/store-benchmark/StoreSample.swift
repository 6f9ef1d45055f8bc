import BenchmarkSupport
import Folio
import FolioJSON
import Foundation

/// The documents of one store size: the seed-shaped sample records as Folio
/// documents, with the paths and canonical bytes Folio gives them, all built
/// before anything is timed.
struct StoreSample {
    /// Days are cut in UTC, so each document's folder follows from its partition date alone.
    static let manifest = StoreManifest(
        timeZone: TimeZone(identifier: "UTC")!,
        schema: [
            "entities": [
                "Timer": [:], "FocusSession": [:], "RowingSession": [:], "PerformanceMetric": [:],
                "AuditEventRecord": [:],
            ]
        ])
    /// 2025-01-01T00:00:00Z, in seconds since Foundation's reference date.
    private static let firstDay = 757_382_400.0

    let documents: [Document]
    /// One put of every document, as one transaction.
    let changes: [DocumentChange]
    /// Each document's path relative to the store, as Folio files it.
    let paths: [String]
    /// Each document's canonical bytes, as Folio writes them.
    let bytes: [[UInt8]]
    /// The same paths and bytes, laid out for the C floor.
    let floorInput: FloorInput

    var count: Int { documents.count }
    var totalBytes: Int { bytes.reduce(0) { $0 + $1.count } }

    /// `count` documents of the json-benchmark's small records (300-800 bytes, the
    /// shapes taking turns), each entity's partition days spread evenly over the 365
    /// days of 2025 (up to 1,825 day folders in all).
    init(count: Int) throws {
        let records = try Record.smallSamples(count: count, seed: 1)
        let calendar = Self.manifest.calendar
        let writer = JSONWriter()
        var documents: [Document] = []
        var paths: [String] = []
        var bytes: [[UInt8]] = []
        for (index, record) in records.enumerated() {
            guard let id = UUID(uuidString: record.identity), let content = record.json.objectValue else {
                throw BenchmarkFailure("sample record \(index) has no UUID or is not an object")
            }
            // The shapes take turns, so `index / 5` counts the documents of one entity;
            // 7,919 is prime, so they visit every day of the year in turn.
            let day = Double(index / 5 * 7_919 % 365)
            let partitionDate = Date(
                timeIntervalSinceReferenceDate: Self.firstDay + day * 86_400 + Double(index % 86_400))
            let document = Document(entity: record.entity, id: id, partitionDate: partitionDate, content: content)
            documents.append(document)
            paths.append(
                try DocumentPath(entity: record.entity, day: Day(partitionDate, in: calendar), id: id).relativePath)
            bytes.append(try writer.write(.object(content)))
        }
        self.documents = documents
        changes = documents.map { .put($0, basedOn: nil) }
        self.paths = paths
        self.bytes = bytes
        floorInput = FloorInput(paths: paths, bytes: bytes)
    }

    /// How many day folders the documents fill.
    var dayFolderCount: Int {
        Set(paths.map { $0.split(separator: "/").dropLast().joined(separator: "/") }).count
    }

    /// New canonical bytes for a document, as an outside edit leaves it: the same
    /// document with another `"$version"`.
    func editedBytes(of index: Int, version: Int) throws -> [UInt8] {
        var content = documents[index].content
        content["$version"] = .integer(Int64(version))
        let edited = try JSONWriter().write(.object(content))
        guard edited != bytes[index] else { throw BenchmarkFailure("an edit left \(paths[index]) unchanged") }
        return edited
    }
}
