import BenchmarkSupport
import FolioJSON
import Foundation
import YajlFloor

/// FolioJSON's `JSONReader`: canonical bytes to `JSONValue`.
struct FolioRead: BenchmarkRow {
    static let name = "FolioJSON JSONReader"
    static let operation = Operation.read

    private let workload: Workload
    /// Raised to the largest limit, since the default (16 MiB) refuses the large document.
    private let reader = JSONReader(maximumSize: JSONReader.absoluteMaximumSize)

    init(workload: Workload) {
        self.workload = workload
    }

    func pass(_ stopwatch: inout Stopwatch) throws -> Int {
        var bytes = 0
        try stopwatch.each(workload.documents, { try reader.read($0) }) { document, value in
            if case .object = value { bytes += document.count }
        }
        return bytes
    }

    func validate() throws {
        for (document, value) in zip(workload.documents, workload.values) where try reader.read(document) != value {
            throw BenchmarkFailure("\(Self.name) read a document differently from the value it was written from")
        }
    }
}

/// FolioJSON's `JSONReader` again, each tree released inside the clock: the cost of
/// freeing what was read, shown beside the reading (no goal is measured on it).
struct FolioReadReleasing: BenchmarkRow {
    static let name = "FolioJSON JSONReader, each tree freed inside the clock"
    static let operation = Operation.read

    private let read: FolioRead
    private let workload: Workload
    private let reader = JSONReader(maximumSize: JSONReader.absoluteMaximumSize)

    init(workload: Workload) {
        self.workload = workload
        read = FolioRead(workload: workload)
    }

    func pass(_ stopwatch: inout Stopwatch) throws -> Int {
        var bytes = 0
        // The tree goes when the closure returns, on the clock; only whether it was an object leaves it.
        try stopwatch.each(
            workload.documents,
            { document -> Bool in
                if case .object = try reader.read(document) { true } else { false }
            }
        ) { document, isObject in
            if isObject { bytes += document.count }
        }
        return bytes
    }

    func validate() throws { try read.validate() }
}

/// Foundation's `JSONSerialization.jsonObject(with:)`: bytes to a tree of Foundation objects.
struct SerializationRead: BenchmarkRow {
    static let name = "JSONSerialization.jsonObject"
    static let operation = Operation.read

    private let workload: Workload

    init(workload: Workload) {
        self.workload = workload
    }

    func pass(_ stopwatch: inout Stopwatch) throws -> Int {
        var bytes = 0
        try stopwatch.each(workload.data, { try JSONSerialization.jsonObject(with: $0) }) { data, object in
            if object is [String: Any] { bytes += data.count }
        }
        return bytes
    }

    func validate() throws {
        for (data, expected) in zip(workload.data, workload.valueCounts)
        where ValueCount.of(foundationObject: try JSONSerialization.jsonObject(with: data)) != expected {
            throw BenchmarkFailure("\(Self.name) read a document with the wrong number of values")
        }
    }
}

/// Foundation's `JSONDecoder`: bytes to the concrete `Codable` structs of each shape,
/// which keep dates and UUIDs as `String` (as FolioJSON reads them).
struct DecoderRead: BenchmarkRow {
    static let name = "JSONDecoder (string fields)"
    static let operation = Operation.read

    private let workload: Workload
    private let decoder = JSONDecoder()

    init(workload: Workload) {
        self.workload = workload
    }

    func pass(_ stopwatch: inout Stopwatch) throws -> Int {
        switch workload.contents {
        case .records(let records):
            var bytes = 0
            try stopwatch.each(
                records.indices, { try records[$0].decodeSameShape(from: workload.data[$0], by: decoder) }
            ) { index, _ in
                bytes += workload.data[index].count
            }
            return bytes
        case .archive:
            _ = try stopwatch.time { try decoder.decode(Archive.self, from: workload.data[0]) }
            return workload.totalBytes
        }
    }

    func validate() throws {
        switch workload.contents {
        case .records(let records):
            for (record, data) in zip(records, workload.data)
            where try record.decodeSameShape(from: data, by: decoder) != record {
                throw BenchmarkFailure("\(Self.name) decoded a record differently from the one it was written from")
            }
        case .archive(let archive):
            guard try decoder.decode(Archive.self, from: workload.data[0]) == archive else {
                throw BenchmarkFailure("\(Self.name) decoded the archive differently from the one it was written from")
            }
        }
    }
}

/// Foundation's `JSONDecoder` with `.iso8601` dates: bytes to the typed twins, whose
/// dates are `Date` and identities `UUID`, as an app's models declare them.
struct TypedDecoderRead: BenchmarkRow {
    static let name = "JSONDecoder (typed models)"
    static let operation = Operation.read

    private let workload: Workload
    /// What the documents must decode to.
    private let expected: TypedContents
    private let decoder = TypedCoding.decoder()

    init(workload: Workload) throws {
        self.workload = workload
        expected = try TypedContents(workload.contents)
    }

    func pass(_ stopwatch: inout Stopwatch) throws -> Int {
        switch expected {
        case .records(let records):
            var bytes = 0
            try stopwatch.each(
                records.indices, { try records[$0].decodeSameShape(from: workload.data[$0], by: decoder) }
            ) { index, _ in
                bytes += workload.data[index].count
            }
            return bytes
        case .archive:
            _ = try stopwatch.time { try decoder.decode(TypedArchive.self, from: workload.data[0]) }
            return workload.totalBytes
        }
    }

    /// The canonical text keeps fractions of seconds, and `.iso8601` reads them, so the
    /// decoded models must equal their twins exactly.
    func validate() throws {
        switch expected {
        case .records(let records):
            for (record, data) in zip(records, workload.data)
            where try record.decodeSameShape(from: data, by: decoder) != record {
                throw BenchmarkFailure("\(Self.name) decoded a record differently from its typed twin")
            }
        case .archive(let archive):
            guard try decoder.decode(TypedArchive.self, from: workload.data[0]) == archive else {
                throw BenchmarkFailure("\(Self.name) decoded the archive differently from its typed twin")
            }
        }
    }
}

/// The parse floor: YAJL configured as FolioJSON configures it, with callbacks
/// that only return 1, called from C.
struct YajlFloorRead: BenchmarkRow {
    static let name = "YAJL no-op callbacks (C floor)"
    static let operation = Operation.read

    private let workload: Workload

    init(workload: Workload) {
        self.workload = workload
    }

    func pass(_ stopwatch: inout Stopwatch) throws -> Int {
        var bytes = 0
        stopwatch.each(workload.documents, { yajl_floor_parse($0, $0.count) }) { document, parsed in
            if parsed == 1 { bytes += document.count }
        }
        return bytes
    }

    /// The floor keeps nothing to check, so this checks that YAJL's callbacks see
    /// exactly the values of the document FolioJSON wrote.
    func validate() throws {
        for (value, expected) in zip(workload.values, workload.valueCounts) where ValueCount.of(value) != expected {
            throw BenchmarkFailure("YAJL's callbacks saw a different number of values than the document holds")
        }
    }
}
