import FolioTestSupport
import Foundation
import Testing

/// A table's column of dates shows each with the same number of fraction digits, padded
/// with zeros to the longest, so that they line up; JSON, NDJSON and CSV keep each date as
/// it is stored, with only the digits it needs.
struct DateColumnTests {
    /// The Timer store (created on November 1 and 2 at 10:00 UTC) with timers created on
    /// November 3 and 4 at half a second and an eighth of a second past 10:00, and on
    /// November 5 at 10:00; the last two are named as dates.
    static func store() throws -> TimerStore {
        let store = try TimerStore()
        let lines = [
            #"{"name": "Tea", "durationInSeconds": 300, "createdAt": "2026-11-03T10:00:00.5Z"}"#,
            #"{"name": "2026-11-04T10:00:00Z", "durationInSeconds": 300, "createdAt": "2026-11-04T10:00:00.125Z"}"#,
            #"{"name": "2026-11-04T10:00:00.5Z", "durationInSeconds": 300, "createdAt": "2026-11-05T10:00:00Z"}"#,
        ]
        let file = try store.folder.create("timers.ndjson", contents: Array(lines.joined(separator: "\n").utf8))
        let imported = try store.folio("import", "Timer", file)
        #expect(imported.status == 0, "\(imported.errors)")
        return store
    }

    @Test func datesInOneColumnShowTheSameNumberOfFractionDigits() throws {
        let store = try Self.store()
        let run = try store.folio("query", "Timer", "--fields", "createdAt", "--sort", "createdAt")
        #expect(run.status == 0, "\(run.errors)")
        // In the store's time zone, Berlin's, an hour ahead in November.
        #expect(
            run.output == """
                createdAt
                2026-11-01T11:00:00.000+01:00
                2026-11-02T11:00:00.000+01:00
                2026-11-03T11:00:00.500+01:00
                2026-11-04T11:00:00.125+01:00
                2026-11-05T11:00:00.000+01:00

                """)
    }

    @Test func csvKeepsEachDateAsItIsStored() throws {
        let store = try Self.store()
        let run = try store.folio("query", "Timer", "--fields", "createdAt", "--sort", "createdAt", "--format", "csv")
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            run.output
                == "createdAt\n2026-11-01T10:00:00Z\n2026-11-02T10:00:00Z\n2026-11-03T10:00:00.5Z\n2026-11-04T10:00:00.125Z\n2026-11-05T10:00:00Z\n"
        )
    }

    @Test func textThatLooksLikeADateAmongOtherTextIsShownAsItIs() throws {
        let store = try Self.store()
        let run = try store.folio(
            "query", "Timer", "durationInSeconds == 300", "--fields", "name", "--sort", "createdAt")
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output == "name\nTea\n2026-11-04T10:00:00Z\n2026-11-04T10:00:00.5Z\n")
    }
}
