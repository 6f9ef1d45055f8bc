import BenchmarkSupport
import FolioJSON
import Foundation
import YajlFloor

/// One benchmark input: the documents as canonical bytes, which every parser
/// reads, and every form a writer starts from, all built before anything is timed.
struct Workload {
    /// What the documents hold, as Codable models.
    enum Contents {
        /// One record per document.
        case records([Record])
        /// One document holding all records.
        case archive(Archive)
    }

    let contents: Contents
    /// The documents as values: what the FolioJSON writer starts from.
    let values: [JSONValue]
    /// The documents as FolioJSON's canonical text, one buffer each: what every parser reads.
    let documents: [[UInt8]]
    /// The same bytes as `Data`, for Foundation.
    let data: [Data]
    /// How many values (scalars and containers, not keys) each document holds, as YAJL counts them.
    let valueCounts: [Int]
    /// The size of all documents together.
    let totalBytes: Int

    private init(contents: Contents, values: [JSONValue]) throws {
        self.contents = contents
        self.values = values
        let writer = JSONWriter()
        documents = try values.map { try writer.write($0) }
        data = documents.map { Data($0) }
        valueCounts = try documents.map { document in
            let count = yajl_floor_count_values(document, document.count)
            guard count >= 0 else { throw BenchmarkFailure("YAJL rejects a document FolioJSON wrote") }
            return Int(count)
        }
        totalBytes = documents.reduce(0) { $0 + $1.count }
    }

    var documentCount: Int { documents.count }

    /// The workload's heading in the table.
    var title: String {
        switch contents {
        case .records(let records): "\(Format.grouped(records.count)) small docs"
        case .archive: "1 doc of \(Format.decimal(Double(totalBytes) / 1e6, places: 1)) MB"
        }
    }

    /// The documents' sizes, for the report.
    var summary: String {
        let megabytes = Format.decimal(Double(totalBytes) / 1e6, places: 1)
        switch contents {
        case .records:
            let sizes = documents.map(\.count)
            return "\(Format.grouped(documentCount)) documents of \(sizes.min() ?? 0)-\(sizes.max() ?? 0) bytes "
                + "(mean \(totalBytes / max(documentCount, 1))), \(megabytes) MB in all"
        case .archive(let archive):
            return "1 document of \(megabytes) MB holding \(Format.grouped(archive.recordCount)) records in 5 arrays"
        }
    }

    /// `count` documents of one record each, the shapes taking turns, each of
    /// `Record.smallDocumentSizes` bytes.
    static func smallDocuments(count: Int, seed: UInt64) throws -> Workload {
        let records = try Record.smallSamples(count: count, seed: seed)
        return try Workload(contents: .records(records), values: records.map(\.json))
    }

    /// One document of about `targetBytes` bytes holding records of every shape.
    static func largeDocument(targetBytes: Int, seed: UInt64) throws -> Workload {
        var values = SampleValues(seed: seed)
        let writer = JSONWriter()
        var records: [Record] = []
        var estimatedBytes = 0
        while estimatedBytes < targetBytes {
            let record = Record.sample(records.count, &values)
            // Inside the archive each of the record's lines is indented by two more levels.
            let text = try writer.write(record.json)
            estimatedBytes += text.count + 4 * text.lazy.filter { $0 == UInt8(ascii: "\n") }.count
            records.append(record)
        }
        let archive = Archive(records)
        return try Workload(contents: .archive(archive), values: [archive.json])
    }
}
