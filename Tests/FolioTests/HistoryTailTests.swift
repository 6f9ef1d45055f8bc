import Foundation
import Testing

@testable import FolioCore

/// The newest history record is found by reading the end of its segment only.
struct HistoryTailTests {
    @Test func aTransactionLongerThanOneReadIsFoundWholeAndTheNextTokenFollowsIt() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        try store.commit([.put(timer("First"), basedOn: nil)])
        // One record of 800 changes: a line far longer than the first read from the end.
        let many = (0..<800).map { timer("Timer \($0)", date: november22().addingTimeInterval(Double($0) * 3600)) }
        try store.commit(many.map { .put($0, basedOn: nil) })
        let segment = try #require(
            try FileManager.default.contentsOfDirectory(atPath: directory("store/.folio/history")).first {
                $0.hasSuffix(".ndjson")
            })
        let lines = try text(at: directory("store/.folio/history/" + segment)).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[1].utf8.count > 64 * 1024)

        let reopened = try DocumentStore.open(at: directory("store"), durability: .none)
        try reopened.commit([.put(timer("Last"), basedOn: nil)])
        let records = try reopened.history(after: 0).records
        #expect(records.map(\.token) == [1, 2, 3])
        #expect(records[1].changes.count == 800)
    }

    @Test func aSegmentIsReadAMegabyteAtATimeWithALineLongerThanThatWhole() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        try store.commit([.put(timer("First"), basedOn: nil)])
        let many = (0..<8_000).map { timer("Timer \($0)", date: november22().addingTimeInterval(Double($0) * 60)) }
        try store.commit(many.map { .put($0, basedOn: nil) })
        try store.commit([.put(timer("Last"), basedOn: nil)])
        let segment = try #require(try HistoryLog.segments(in: store.folder).first)
        let lines = try text(at: directory("store/" + HistoryLog.segmentPath(segment))).split(separator: "\n")
        #expect(lines[1].utf8.count > 1 << 20, "the second record spans two reads")

        var tokens: [Int64] = []
        var changes: [Int] = []
        try HistoryLog.forEachRecord(segment: segment, in: store.folder) {
            tokens.append($0.token)
            changes.append($0.changes.count)
        }
        #expect(tokens == [1, 2, 3])
        #expect(changes == [1, 8_000, 1])
        #expect(try HistoryLog.read(segment: segment, after: 1, in: store.folder).map(\.token) == [2, 3])
    }

    /// A store of a transaction of one document, then one of two, and the path of its history's segment.
    func storeOfTwoTransactions() throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        try store.commit([.put(timer("First"), basedOn: nil)])
        try store.commit([.put(timer("Second"), basedOn: nil), .put(timer("Third"), basedOn: nil)])
        let segment = try #require(
            try FileManager.default.contentsOfDirectory(atPath: directory("store/.folio/history")).first {
                $0.hasSuffix(".ndjson")
            })
        return (directory, directory("store/.folio/history/" + segment))
    }

    @Test func aNewestRecordEditedIntoAnotherOrderIsStillReadWhole() throws {
        let (directory, path) = try storeOfTwoTransactions()
        var lines = try text(at: path).split(separator: "\n").map(String.init)
        // The changes moved before the token, as a person or another tool might write it.
        let record = try #require(try JSONReader().read(lines[1], file: "line").objectValue)
        let reordered = JSONObject(
            [("changes", record["changes"]!)] + record.filter { $0.key != "changes" }.map { ($0.key, $0.value) })
        lines[1] = try JSONWriter().line(for: .object(reordered))
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))

        let reopened = try DocumentStore.open(at: directory("store"), durability: .none)
        try reopened.commit([.put(timer("Last"), basedOn: nil)])
        let records = try reopened.history(after: 0).records
        #expect(records.map(\.token) == [1, 2, 3])
        #expect(records[1].changes.count == 2)
    }

    @Test func aLineACrashCutShortIsLeftOutAndWrittenOver() throws {
        let (directory, path) = try storeOfTwoTransactions()
        // Half a record after the last newline, as a process killed while appending leaves it.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"token":3,"timestamp":"2026-11-22T09:00:00.000Z","changes":[{"chan"#.utf8))
        try handle.close()

        let reopened = try DocumentStore.open(at: directory("store"), durability: .none)
        #expect(try reopened.lastHistoryToken == 2)
        try reopened.commit([.put(timer("Last"), basedOn: nil)])
        let records = try reopened.history(after: 0).records
        #expect(records.map(\.token) == [1, 2, 3])
        #expect(records.map(\.changes.count) == [1, 2, 1])
        #expect(try text(at: path).split(separator: "\n").count == 3)
    }

    @Test func theRecordsAfterATokenAreReadFromTheSegmentsEndAsFromItsStart() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        try store.commit([.put(timer("First"), basedOn: nil)])
        // A line longer than the first window read from the end, then short ones after it.
        let many = (0..<800).map { timer("Timer \($0)", date: november22().addingTimeInterval(Double($0) * 3600)) }
        try store.commit(many.map { .put($0, basedOn: nil) })
        for index in 0..<5 { try store.commit([.put(timer("Later \(index)"), basedOn: nil)]) }
        let segment = try #require(try HistoryLog.segments(in: store.folder).first)
        let path = directory("store/" + HistoryLog.segmentPath(segment))
        // Half a record after the last newline, as a process killed while appending leaves it.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"token":8,"timestamp":"2026-11-22T09:00:00.000Z","chan"#.utf8))
        try handle.close()

        func summary(_ records: [HistoryRecord]) -> [String] { records.map { "\($0.token):\($0.changes.count)" } }
        for token in Int64(1)...7 {
            let recent = try #require(
                try HistoryLog.recentRecords(segment: segment, after: token, in: store.folder, minimumSize: 0))
            #expect(summary(recent) == summary(try HistoryLog.read(segment: segment, after: token, in: store.folder)))
            #expect(recent.map(\.token) == Array(token + 1..<8))
        }
        #expect(try HistoryLog.records(after: 1, in: store.folder).records.first?.changes.count == 800)
    }

    @Test func aLineNotWrittenAsFolioWritesMakesTheSegmentReadFromItsStart() throws {
        let (directory, path) = try storeOfTwoTransactions()
        let store = try DocumentStore.open(at: directory("store"), durability: .none)
        try store.commit([.put(timer("Last"), basedOn: nil)])
        var lines = try text(at: path).split(separator: "\n").map(String.init)
        // The second record's changes moved before its token, as another tool might write it.
        let record = try #require(try JSONReader().read(lines[1], file: "line").objectValue)
        let reordered = JSONObject(
            [("changes", record["changes"]!)] + record.filter { $0.key != "changes" }.map { ($0.key, $0.value) })
        lines[1] = try JSONWriter().line(for: .object(reordered))
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))

        let segment = try #require(try HistoryLog.segments(in: store.folder).first)
        #expect(
            try HistoryLog.recentRecords(segment: segment, after: 2, in: store.folder, minimumSize: 0)?.map(\.token)
                == [3])
        #expect(
            try HistoryLog.recentRecords(segment: segment, after: 1, in: store.folder, minimumSize: 0) == nil,
            "the token is unknown")
        #expect(try HistoryLog.records(after: 1, in: store.folder).records.map(\.token) == [2, 3])
    }

    @Test func aWriterWhoseSegmentIsFullSeesTheNextOneAnotherBegan() throws {
        let directory = try TemporaryDirectory()
        let first = try makeStore(in: directory)
        // Two processes' stores of one folder: each keeps its own tail of the history.
        let second = try DocumentStore.open(at: directory("store"), durability: .none)
        for index in 0..<Int(HistoryLog.segmentLength) - 1 {
            try first.commit([.put(timer("First \(index)"), basedOn: nil)])
        }
        // The second fills the segment, so it knows the history's tail at its last record.
        try second.commit([.put(timer("Second"), basedOn: nil)])
        // The first begins the next segment, whose file the second's tail does not name.
        try first.commit([.put(timer("First again"), basedOn: nil)])
        try second.commit([.put(timer("Second again"), basedOn: nil)])
        let records = try first.history(after: 0).records
        let count = HistoryLog.segmentLength + 2
        #expect(records.map(\.token) == Array(1...count), "no token is handed out twice, no record lost")
        #expect(try second.lastHistoryToken == count)
    }
}
