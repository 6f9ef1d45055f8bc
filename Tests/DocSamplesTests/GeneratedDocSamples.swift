// Generated from the docs' Swift samples; do not edit.
// Regenerate: bash scripts/update-doc-samples.sh
import Folio
import FolioJSON
import Foundation

// README.md, line 34
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

// README.md, line 50
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

// README.md, line 105
func sample_README_md_3() throws {

    let started = Date(timeIntervalSinceReferenceDate: 817_032_600.25)
    let stored = started.json                      // "2026-11-22T09:30:00.25Z"
    let back = try Date(json: stored)
    assert(back == started)
    let tags: [String: [Int?]] = ["b": [1, nil], "a": []]
    print(try JSONWriter().string(for: tags.json))  // keys sorted: "a" first
}

// README.md, line 122
func sample_README_md_4() throws {

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("Notes-\(UUID().uuidString)").path
    let manifest = StoreManifest(timeZone: TimeZone(identifier: "Europe/Berlin")!, schema: ["entities": ["Note": [:]]])
    let store = try DocumentStore.create(at: folder, manifest: manifest)

    // One transaction: all of it lands, or (on any error or crash) none of it.
    let note = Document(entity: "Note", id: UUID(), partitionDate: Date(), content: ["text": "Buy tea"])
    try store.commit([.put(note, basedOn: nil)])

    // Reads come from the catalog; pass the version you read back with your change.
    let stored = store.document(entity: "Note", id: note.id)!
    var edited = note
    edited.content["text"] = "Buy green tea"
    do {
        try store.commit([.put(edited, basedOn: stored.version)])
    } catch {
        // A conflict: someone changed the file since we read it, and nothing was written.
        // Read it again and retry. Any other error is reported as it is.
        guard case .conflict(let path, _) = error else { throw error }
        print("\(path) changed on disk")
        try store.refresh()
    }
    try store.close()  // writes the cache, so the next open reads nothing unchanged
    try FileManager.default.removeItem(atPath: folder)
}

/// Every statement sample, so a test can run them all.
func allDocSamples() -> [(name: String, run: () throws -> Void)] {
    [("sample_README_md_1", sample_README_md_1), ("sample_README_md_2", sample_README_md_2), ("sample_README_md_3", sample_README_md_3), ("sample_README_md_4", sample_README_md_4)]
}
