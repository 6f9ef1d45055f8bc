import FolioTestSupport
import Foundation
import Testing

/// History files from a hostile or damaged repository: tokens out of range, going back or
/// named for no token, records naming files outside the store. No command crashes or hands
/// out a token twice; the damaged history is set aside with a reason and its own exit code,
/// and the documents are read and written as ever.
struct HostileHistoryTests {
    /// What is done to the newest history segment.
    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case negativeLastToken = "a last record with a negative token"
        case largestLastToken = "a last record with token 2^63-1"
        case regressingLastToken = "a last record whose token goes back"
        case segmentNamedForLargestToken = "a segment named for token 2^63-1"
        case segmentNamedNegative = "a segment named for a negative token"
        case recordOutsideTheStore = "a record naming a file outside the store"

        var testDescription: String { rawValue }
    }

    static let tokenPattern = try! NSRegularExpression(pattern: #"^\{"token":-?[0-9]+"#)

    /// The newest segment's lines, the last one's token replaced by `token`.
    static func replacingLastToken(_ text: String, with token: String) -> String {
        var lines = text.split(separator: "\n").map(String.init)
        let last = lines.removeLast()
        let range = NSRange(last.startIndex..., in: last)
        lines.append(
            tokenPattern.stringByReplacingMatches(in: last, range: range, withTemplate: #"{"token":\#(token)"#))
        return lines.joined(separator: "\n") + "\n"
    }

    @Test(arguments: Damage.allCases)
    func aDamagedHistoryIsSetAsideAndNeverStopsTheDocuments(damage: Damage) throws {
        let store = try TimerStore()
        let history = store.root + "/.folio/history"
        let segment = try #require(
            try FileManager.default.contentsOfDirectory(atPath: history).filter { $0.hasSuffix(".ndjson") }.max())
        let text = try String(contentsOfFile: history + "/" + segment, encoding: .utf8)
        var damaged = text
        var name = segment
        switch damage {
        case .negativeLastToken: damaged = Self.replacingLastToken(text, with: "-5")
        case .largestLastToken: damaged = Self.replacingLastToken(text, with: "9223372036854775807")
        case .regressingLastToken: damaged = Self.replacingLastToken(text, with: "1")
        case .segmentNamedForLargestToken: name = "09223372036854775807.ndjson"
        case .segmentNamedNegative: name = "-0000000000000000005.ndjson"
        case .recordOutsideTheStore:
            damaged = text.replacingOccurrences(of: #""file":"Timer/"#, with: #""file":"../../outside/"#)
        }
        try FileManager.default.removeItem(atPath: history + "/" + segment)
        try damaged.write(toFile: history + "/" + name, atomically: false, encoding: .utf8)

        // Reads go on, whatever the history holds.
        let count = try store.folio.run(["count", "Timer"], timeout: 60)
        #expect(count.status == 0, "\(count.errors)")
        #expect(count.output.trimmingCharacters(in: .whitespacesAndNewlines) == "2")
        // Writes go on too; the damage is set aside, said, and tokens start again, each once.
        for number in 0..<3 {
            let insert = try store.folio.run(
                ["insert", "Timer", "name=Tea \(number)", "durationInSeconds=60", "createdAt=2026-11-01T12:00:00Z"],
                timeout: 60)
            #expect(insert.status == 0, "\(insert.errors)")
        }
        let run = try store.folio.run(["history", "--format", "ndjson"], timeout: 60)
        #expect(run.status == 76, "history exited \(run.status): \(run.errors)")
        #expect(run.errors.contains("history-damaged-"), "\(run.errors)")
        let tokens = run.output.split(separator: "\n").compactMap { line -> Int? in
            let fields = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return (fields?["token"] as? NSNumber)?.intValue
        }
        // A damaged middle line is found when the records are read, after the inserts went
        // into the old history: the new one then starts empty.
        let recorded = damage == .recordOutsideTheStore ? 0 : 3
        #expect(Set(tokens).count == recorded && tokens == tokens.sorted(), "tokens \(tokens) in \(run.output)")
        let setAside = try FileManager.default.contentsOfDirectory(atPath: store.root + "/.folio")
            .filter { $0.hasPrefix("history-damaged-") }
        #expect(setAside.count == 1)
        let reason = try String(contentsOfFile: store.root + "/.folio/" + setAside[0] + "/REASON", encoding: .utf8)
        #expect(reason.contains("damaged"))
        // Nothing outside the store was made.
        #expect(!FileManager.default.fileExists(atPath: store.folder("outside")))
    }
}
