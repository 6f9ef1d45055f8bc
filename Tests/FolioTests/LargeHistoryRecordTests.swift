import Foundation
import Testing

@testable import FolioCore

/// Folio reads back every history record it writes, whatever its size or the depth of the
/// values a tombstone keeps.
struct LargeHistoryRecordTests {
    @Test func aRecordOfMoreThanSixteenMebibytesIsReadBack() throws {
        let directory = try TemporaryDirectory()
        _ = try makeStore(in: directory)
        let root = try OpenFolder(root: directory("store"))
        // An import's record: one change per document, 120,000 of them (about 20 MB).
        let changes = (0..<120_000).map { number in
            let id = UUID(uuidString: String(format: "00000000-0000-4000-8000-%012X", number))!
            return HistoryRecord.Change(
                kind: .insert, entity: "Timer", id: id, path: "Timer/2026/11/22/\(id.uuidString).json",
                contentHash: UInt64(number))
        }
        let record = HistoryRecord(token: 1, timestamp: Date(), author: "folio", changes: changes)
        _ = try HistoryLog.append(record, to: try HistoryLog.tail(in: root), in: root)
        let read = try HistoryLog.records(after: 0, in: root).records
        #expect(read.count == 1)
        #expect(read.first?.changes.count == 120_000)
        #expect(try HistoryLog.tail(in: root).lastToken == 1)
    }

    @Test func aTombstoneOfADocumentAsDeepAsTheReaderAllowsIsReadBack() throws {
        let directory = try TemporaryDirectory()
        _ = try makeStore(in: directory)
        let root = try OpenFolder(root: directory("store"))
        // A value nested as deep as a document may be (its members one level in).
        var value: JSONValue = 1
        for _ in 0..<(JSONReader.defaultMaximumDepth - 2) { value = .array([value]) }
        let id = UUID()
        let change = HistoryRecord.Change(
            kind: .delete, entity: "Timer", id: id, path: "Timer/2026/11/22/\(id.uuidString).json", contentHash: nil,
            tombstone: ["deep": value])
        _ = try HistoryLog.append(
            HistoryRecord(token: 1, timestamp: Date(), author: nil, changes: [change]),
            to: try HistoryLog.tail(in: root), in: root)
        #expect(try HistoryLog.records(after: 0, in: root).records.first?.changes.first?.tombstone["deep"] == value)
    }

    @Test func aRecordOfThreeHundredThousandChangesIsReadWithoutHoldingItsLine() throws {
        let directory = try TemporaryDirectory()
        _ = try makeStore(in: directory)
        let root = try OpenFolder(root: directory("store"))
        // As an import writes it, a change at a time: about 53 MB on one line; then a small
        // record after it, so that no open reads the large one whole as the newest.
        let count = 300_000
        var writer = try HistoryLog.RecordWriter(
            HistoryRecord(token: 1, timestamp: Date(), author: "folio", changes: []),
            after: try HistoryLog.tail(in: root), in: root)
        for number in 0..<count {
            let id = UUID(uuidString: String(format: "00000000-0000-4000-8000-%012X", number))!
            try writer.append(
                HistoryRecord.Change(
                    kind: .insert, entity: "Timer", id: id, path: "Timer/2026/11/22/\(id.uuidString).json",
                    contentHash: UInt64(number)))
        }
        var tail = try writer.finish()
        tail.unsettled = nil
        _ = try HistoryLog.append(
            HistoryRecord(token: 2, timestamp: Date(), author: "folio", changes: []), to: tail, in: root)
        let lineBytes = try #require(
            FileManager.default.attributesOfItem(atPath: directory("store") + "/" + HistoryLog.segmentPath(1))[.size]
                as? Int)
        #expect(lineBytes > 50_000_000)

        // A check in another process reads every change, holding less than the line's bytes.
        let (status, output, errors) = try ChildProcess(["check", directory("store")]).finish()
        #expect(status == 0, "\(errors)")
        #expect(output.hasPrefix("errors 0 "), "\(output) \(errors)")
        let peak = try #require(output.split(separator: " ").last.flatMap { Int($0.trimmingCharacters(in: .newlines)) })
        #expect(peak * 1024 < lineBytes, "peak \(peak) KB for a line of \(lineBytes) bytes")

        var changes = 0
        var tokens: [Int64] = []
        try HistoryLog.forEachRecord(segment: 1, in: root) { record in
            changes += record.changes.count
            tokens.append(record.token)
        }
        #expect(tokens == [1, 2])
        #expect(changes == count)
    }
}
