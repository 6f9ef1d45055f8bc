import FolioTestSupport
import Foundation
import Testing

/// A FIFO (or another file that is not a regular one) at every path Folio opens: every
/// command ends at once, and one that cannot go on says what the file is; none waits for
/// a writer that never comes.
struct SpecialFileTests {
    /// Where the FIFO is put.
    enum Place: String, CaseIterable, CustomTestStringConvertible {
        case manifest = "folio.json"
        case document = "a document"
        case cache = ".folio/cache/Timer"
        case lock = ".folio/lock"
        case journalRecord = ".folio/journal/<transaction>/COMMIT"
        case journalPlan = ".folio/journal/<transaction>/PLAN"
        case historySegment = "the newest history segment"
        case historyStore = ".folio/history/store"
        case stageFile = "a migration stage file"

        var testDescription: String { rawValue }
    }

    /// Every reading command, a write, and a migration from a plan folder beside the store.
    static let commands: [[String]] = [
        ["info"], ["count", "Timer"], ["query", "Timer"], ["ls", "Timer"], ["export", "Timer"], ["check"],
        ["history"], ["insert", "Timer", "name=Tea", "durationInSeconds=60", "createdAt=2026-11-01T12:00:00Z"],
        ["migrate", "--plan", "../plan", "--dry-run"],
    ]

    @Test(arguments: Place.allCases)
    func aFIFOAnywhereEndsEveryCommandAndIsNamed(place: Place) throws {
        let store = try TimerStore()
        _ = try store.folio("count", "Timer")  // a cache file, a history
        let plan = store.folder("plan")
        try FileManager.default.createDirectory(atPath: plan, withIntermediateDirectories: true)
        let path: String
        switch place {
        case .manifest, .cache, .lock, .historyStore:
            path = store.root + "/" + place.rawValue
        case .document:
            path = store.root + "/" + (try store.path(of: try store.id(of: "Timer", where: "name == \"Workout\"")))
        case .journalRecord, .journalPlan:
            let journal = store.root + "/.folio/journal/1-1-1"
            try FileManager.default.createDirectory(atPath: journal, withIntermediateDirectories: true)
            path = journal + "/" + (place == .journalRecord ? "COMMIT" : "PLAN")
        case .historySegment:
            let history = store.root + "/.folio/history"
            let segment = try #require(
                try FileManager.default.contentsOfDirectory(atPath: history).filter { $0.hasSuffix(".ndjson") }.max())
            path = history + "/" + segment
        case .stageFile:
            path = plan + "/0001.json"
        }
        try? FileManager.default.removeItem(atPath: path)
        #expect(mkfifo(path, 0o644) == 0)

        for command in Self.commands {
            let run = try store.folio.run(command, timeout: 60)
            #expect(!run.timedOut, "\(command) waited on the FIFO at \(place.rawValue)")
            #expect(run.status < 128, "\(command) crashed: \(run.errors)")
            if run.status > 1 && run.errors.contains(path.split(separator: "/").last.map(String.init) ?? "") {
                #expect(run.errors.contains("FIFO"), "\(command) did not say what is there: \(run.errors)")
            }
        }
        // The FIFO at a document's place is reported by check, named as what it is.
        if place == .document {
            let check = try store.folio.run(["check"], timeout: 60)
            #expect(check.status != 0)
            #expect(
                (check.output + check.errors).contains("FIFO") || (check.output + check.errors).contains("regular file")
            )
        }
    }
}
