import BenchmarkSupport
import FolioJSON
import Foundation
import YajlFloor

/// FolioJSON's `JSONWriter`: `JSONValue` to canonical bytes.
struct FolioWrite: BenchmarkRow {
    static let name = "FolioJSON JSONWriter"
    static let operation = Operation.write

    private let workload: Workload
    private let writer = JSONWriter()

    init(workload: Workload) {
        self.workload = workload
    }

    func pass(_ stopwatch: inout Stopwatch) throws -> Int {
        var bytes = 0
        try stopwatch.each(workload.values, { try writer.write($0) }) { _, written in bytes += written.count }
        return bytes
    }

    func validate() throws {
        for (value, document) in zip(workload.values, workload.documents) where try writer.write(value) != document {
            throw BenchmarkFailure("\(Self.name) wrote different bytes for the same value")
        }
    }
}

/// Foundation's `JSONEncoder` with `[.prettyPrinted, .sortedKeys]`: `Codable` structs
/// that keep dates and UUIDs as `String` to bytes.
struct EncoderWrite: BenchmarkRow {
    static let name = "JSONEncoder (string fields)"
    static let operation = Operation.write

    private let workload: Workload
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return encoder
    }()

    init(workload: Workload) {
        self.workload = workload
    }

    func pass(_ stopwatch: inout Stopwatch) throws -> Int {
        switch workload.contents {
        case .records(let records):
            var bytes = 0
            try stopwatch.each(records, { try $0.encoded(by: encoder) }) { _, data in bytes += data.count }
            return bytes
        case .archive(let archive):
            return try stopwatch.time { try encoder.encode(archive) }.count
        }
    }

    /// Decodes what the encoder wrote, which must give back the same records.
    func validate() throws {
        let decoder = JSONDecoder()
        switch workload.contents {
        case .records(let records):
            for record in records
            where try record.decodeSameShape(from: record.encoded(by: encoder), by: decoder) != record {
                throw BenchmarkFailure("\(Self.name) wrote a record that does not decode back to itself")
            }
        case .archive(let archive):
            guard try decoder.decode(Archive.self, from: encoder.encode(archive)) == archive else {
                throw BenchmarkFailure("\(Self.name) wrote an archive that does not decode back to itself")
            }
        }
    }
}

/// Foundation's `JSONEncoder` with `[.prettyPrinted, .sortedKeys]` and `.iso8601` dates:
/// the typed twins (`Date`, `UUID`, numbers, optionals) to bytes, as an app saves its models.
struct TypedEncoderWrite: BenchmarkRow {
    static let name = "JSONEncoder (typed models: Date .iso8601, UUID, Double)"
    static let operation = Operation.write

    private let contents: TypedContents
    private let encoder = TypedCoding.encoder()

    init(workload: Workload) throws {
        contents = try TypedContents(workload.contents)
    }

    func pass(_ stopwatch: inout Stopwatch) throws -> Int {
        switch contents {
        case .records(let records):
            var bytes = 0
            try stopwatch.each(records, { try $0.encoded(by: encoder) }) { _, data in bytes += data.count }
            return bytes
        case .archive(let archive):
            return try stopwatch.time { try encoder.encode(archive) }.count
        }
    }

    /// Decodes what the encoder wrote, which must give back the same models, their
    /// dates cut to the whole seconds `.iso8601` writes.
    func validate() throws {
        let decoder = TypedCoding.decoder()
        switch contents {
        case .records(let records):
            for record in records
            where try record.decodeSameShape(from: record.encoded(by: encoder), by: decoder) != record.atWholeSeconds {
                throw BenchmarkFailure("\(Self.name) wrote a record that does not decode back to itself")
            }
        case .archive(let archive):
            guard try decoder.decode(TypedArchive.self, from: encoder.encode(archive)) == archive.atWholeSeconds else {
                throw BenchmarkFailure("\(Self.name) wrote an archive that does not decode back to itself")
            }
        }
    }
}

/// Foundation's `JSONSerialization.data(withJSONObject:options:)` with
/// `[.prettyPrinted, .sortedKeys]`: a tree of Foundation objects to bytes.
struct SerializationWrite: BenchmarkRow {
    static let name = "JSONSerialization.data"
    static let operation = Operation.write
    private static let options: JSONSerialization.WritingOptions = [.prettyPrinted, .sortedKeys]

    private let workload: Workload
    /// Each document as `JSONSerialization` reads it.
    private let objects: [Any]

    init(workload: Workload) throws {
        self.workload = workload
        objects = try workload.data.map { try JSONSerialization.jsonObject(with: $0) }
    }

    func pass(_ stopwatch: inout Stopwatch) throws -> Int {
        var bytes = 0
        try stopwatch.each(objects, { try JSONSerialization.data(withJSONObject: $0, options: Self.options) }) {
            _, data in
            bytes += data.count
        }
        return bytes
    }

    /// Counts the values in what was written, which must match the document's.
    func validate() throws {
        for (object, expected) in zip(objects, workload.valueCounts) {
            let output = [UInt8](try JSONSerialization.data(withJSONObject: object, options: Self.options))
            guard yajl_floor_count_values(output, output.count) == expected else {
                throw BenchmarkFailure("\(Self.name) wrote a document with the wrong number of values")
            }
        }
    }
}

/// The write floor: yajl_gen configured as FolioJSON configures it, replaying
/// each document's pre-recorded generator calls from C (numbers pre-formatted),
/// and copying the text out.
final class YajlGenFloorWrite: BenchmarkRow {
    static let name = "yajl_gen from a tape (C floor)"
    static let operation = Operation.write

    private let workload: Workload
    private let tapes: [YajlTape]
    /// Where each document's text is copied; as large as the largest document.
    private var output: [UInt8]

    init(workload: Workload) throws {
        self.workload = workload
        tapes = try workload.documents.map { try YajlTape(document: $0) }
        output = [UInt8](repeating: 0, count: workload.documents.map(\.count).max() ?? 0)
    }

    func pass(_ stopwatch: inout Stopwatch) throws -> Int {
        try output.withUnsafeMutableBufferPointer { output in
            var bytes = 0
            try stopwatch.each(tapes, { try Self.generate($0, into: output) }) { _, length in bytes += length }
            return bytes
        }
    }

    /// The floor must write exactly FolioJSON's canonical bytes.
    func validate() throws {
        try output.withUnsafeMutableBufferPointer { output in
            for (tape, document) in zip(tapes, workload.documents) {
                let length = try Self.generate(tape, into: output)
                guard output[..<length].elementsEqual(document) else {
                    throw BenchmarkFailure("\(Self.name) wrote different bytes than FolioJSON")
                }
            }
        }
    }

    /// Writes one document into `output`; returns its length.
    private static func generate(_ tape: YajlTape, into output: UnsafeMutableBufferPointer<UInt8>) throws -> Int {
        let length = yajl_floor_generate(tape.pointer, output.baseAddress, output.count)
        guard length >= 0 else { throw BenchmarkFailure("yajl_gen refused a tape") }
        return Int(length)
    }
}
