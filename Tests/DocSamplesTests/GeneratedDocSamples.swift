// Generated from the docs' Swift samples; do not edit.
// Regenerate: FOLIO_UPDATE_DOC_SAMPLES=1 swift test --filter DocSamplesTests
import FolioJSON
import Foundation

// README.md, line 28
func sample_README_md_1() throws {

    let text = #"{"name": "Tea", "minutes": 4, "strength": 0.75}"#
    let value = try JSONReader().read(text)
    let minutes = try Int(json: value["minutes"] ?? nil)
    print(try JSONWriter().string(for: value), minutes)
    // {
    //   "name": "Tea",
    //   "minutes": 4,
    //   "strength": 0.75
    // }
}

// README.md, line 44
func sample_README_md_2() throws {
    do {
        _ = try JSONReader().read("{\n  \"name\": \"Tea\",\n}", file: "Timer/2026/11/22/E621E1F8-C36C-495A-93FC-0C247A3E6E5F.json")
    } catch {
        print(error)
        // Timer/2026/11/22/E621E1F8-C36C-495A-93FC-0C247A3E6E5F.json:2:16: error: comma after the last member or element
        //       "name": "Tea",
        //                    ^
        // hint: remove the comma; JSON allows none before a closing bracket
    }
}

// README.md, line 99
func sample_README_md_3() throws {

    let started = Date(timeIntervalSinceReferenceDate: 817_032_600.25)
    let stored = started.json                      // "2026-11-22T09:30:00.25Z"
    let back = try Date(json: stored)
    assert(back == started)
    let tags: [String: [Int?]] = ["b": [1, nil], "a": []]
    print(try JSONWriter().string(for: tags.json))  // keys sorted: "a" first
}

/// Every statement sample, so a test can run them all.
func allDocSamples() -> [(name: String, run: () throws -> Void)] {
    [("sample_README_md_1", sample_README_md_1), ("sample_README_md_2", sample_README_md_2), ("sample_README_md_3", sample_README_md_3)]
}
