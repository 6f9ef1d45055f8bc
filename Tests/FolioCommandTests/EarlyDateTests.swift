import FolioTestSupport
import Foundation
import Testing

/// Dates of every year 0001-9999 are filed under the proleptic Gregorian day their ISO 8601
/// text names (Foundation's calendar turns Julian before 15 October 1582), and date ranges
/// find them there.
struct EarlyDateTests {
    @Test(arguments: [
        "0001-01-01T00:00:00Z", "0004-02-29T12:00:00Z", "1500-06-15T12:00:00Z", "1582-10-10T12:00:00Z",
        "1582-10-15T00:00:00Z", "1900-02-28T23:59:59Z", "2026-11-28T08:00:00Z", "9999-12-31T23:59:59Z",
    ])
    func aDocumentIsFiledUnderTheDayItsISOTextNamesAndFoundInThatDaysRange(date: String) throws {
        let folder = try TemporaryDirectory()
        _ = try folder.create("schema.json", contents: Array(TimerStore.schema.utf8))
        let created = try FolioTool(folder: folder.path)("init", "S", "--time-zone", "UTC", "--schema", "schema.json")
        #expect(created.status == 0, "\(created.errors)")
        let folio = FolioTool(folder: folder("S"))
        let insert = try folio("insert", "Timer", "name=Old", "durationInSeconds=1", "createdAt=\(date)")
        #expect(insert.status == 0, "\(insert.errors)")
        let day = String(date.prefix(10))
        let folderOfDay = "Timer/" + day.replacingOccurrences(of: "-", with: "/") + "/"
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder("S/Timer")).filter {
            $0.hasSuffix(".json")
        }
        #expect(files.count == 1 && ("Timer/" + files[0]).hasPrefix(folderOfDay), "\(files) for \(date)")
        let listed = try folio("ls", "Timer", "--from", day, "--to", day)
        #expect(
            listed.output.contains(files.first.map { String($0.suffix(41)) } ?? "-"),
            "ls --from \(day) --to \(day): \(listed.output) \(listed.errors)")
        let check = try folio("check")
        #expect(check.status == 0, "\(check.output) \(check.errors)")
    }
}
