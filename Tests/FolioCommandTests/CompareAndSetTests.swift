import FolioTestSupport
import Foundation
import Testing

/// `folio get --revision` and `--if-unchanged`: a read-compute-write from the shell that
/// loses no one's change.
struct CompareAndSetTests {
    @Test func theRevisionIsTheFilesGitBlobIDAndAStaleOneIsRefused() throws {
        let store = try TimerStore()
        let id = try store.id(of: "Timer", where: "name == \"Workout\"")
        let path = try store.path(of: id)
        let revision = try store.folio("get", id, "--revision").output.trimmingCharacters(in: .newlines)
        let hashed = try ProcessRun(
            "/usr/bin/env", ["git", "hash-object", path], in: store.root,
            environment: ProcessInfo.processInfo.environment)
        #expect(revision.count == 40)
        #expect(revision == hashed.output.trimmingCharacters(in: .newlines))

        let first = try store.folio("set", id, "--if-unchanged", String(revision.prefix(7)), "durationInSeconds:=1501")
        #expect(first.status == 0, "\(first.errors)")
        let before = try String(contentsOfFile: store.root + "/" + path, encoding: .utf8)
        let stale = try store.folio("set", id, "--if-unchanged", revision, "durationInSeconds:=1502")
        #expect(stale.status == 75)
        #expect(stale.errors.contains("is no longer revision \(revision)"), "\(stale.errors)")
        #expect(try String(contentsOfFile: store.root + "/" + path, encoding: .utf8) == before)

        #expect(try store.folio("set", id, "--if-unchanged", "12345", "durationInSeconds:=1").status == 65)
        #expect(try store.folio("set", id, "--if-unchanged", "not-a-revision", "durationInSeconds:=1").status == 65)
        let byQuery = try store.folio(
            "set", "Timer", "name == \"Workout\"", "--if-unchanged", revision, "durationInSeconds:=1")
        #expect(byQuery.status == 65)
        #expect(byQuery.errors.contains("name the document by its id or path"))
        #expect(try String(contentsOfFile: store.root + "/" + path, encoding: .utf8) == before)
    }

    @Test func editWithAStaleRevisionNeverOpensTheEditor() throws {
        let store = try TimerStore()
        let id = try store.id(of: "Timer", where: "name == \"Workout\"")
        let revision = try store.folio("get", id, "--revision").output.trimmingCharacters(in: .newlines)
        #expect(try store.folio("set", id, "durationInSeconds:=1600").status == 0)
        let folio = try store.folio(editor: #"echo opened >> "$(dirname "$0")/editor.log""#)
        let run = try folio("edit", id, "--if-unchanged", revision)
        #expect(run.status == 75)
        #expect(!FileManager.default.fileExists(atPath: store.folder("editor.log")))
        let current = try store.folio("get", id, "--revision").output.trimmingCharacters(in: .newlines)
        #expect(try folio("edit", id, "--if-unchanged", current).status == 0)
        #expect(FileManager.default.fileExists(atPath: store.folder("editor.log")))
    }

    /// Two writers each add one to a number many times, reading and writing through the
    /// tool as a script would. Without the condition about a third of the increments were
    /// lost; with it, every one lands.
    @Test func twoWritersIncrementingWithTheConditionLoseNothing() throws {
        let store = try TimerStore()
        let id = try store.id(of: "Timer", where: "name == \"Workout\"")
        #expect(try store.folio("set", id, "durationInSeconds:=0").status == 0)
        let increments = 25
        let failures = LockedList()
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            do {
                for _ in 0..<increments {
                    while true {
                        // The revision first, then the document: a change in between makes the set fail, never land stale.
                        let read = try store.folio("get", id, "--revision")
                        // 75: the file changed between the tool's reads of it (the other writer); read again.
                        if read.status == 75 { continue }
                        let revision = read.output.trimmingCharacters(in: .newlines)
                        let line = try store.folio("get", id, "--format", "ndjson").output
                        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                            let value = object["durationInSeconds"] as? Int
                        else {
                            failures.append("unreadable: \(line)")
                            return
                        }
                        let set = try store.folio(
                            "set", id, "--if-unchanged", revision, "durationInSeconds:=\(value + 1)")
                        if set.status == 0 { break }
                        guard set.status == 75 else {
                            failures.append("set exited \(set.status): \(set.errors)")
                            return
                        }
                    }
                }
            } catch {
                failures.append("\(error)")
            }
        }
        #expect(failures.items.isEmpty, "\(failures.items)")
        let final = try store.folio(
            "query", "Timer", "id == \"\(id)\"", "--fields", "durationInSeconds", "--format", "csv"
        ).output
        #expect(final.split(separator: "\n").last == "\(2 * increments)")
    }
}

/// Strings gathered from several threads.
final class LockedList: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func append(_ item: String) { lock.withLock { list.append(item) } }
    var items: [String] { lock.withLock { list } }
}
