import FolioTestSupport
import Foundation
import Testing

/// Bytes that are not UTF-8 in an argument or in the current folder's path: refused, naming
/// the byte, before anything is read or written; never stored as U+FFFD, and never a folder
/// named by the U+FFFD spelling.
struct InvalidUTF8ArgumentTests {
    /// Runs the tool with raw argument bytes (`Process` takes `String`s, which cannot hold
    /// them) through `/bin/sh`'s `printf`, in `folder`.
    func run(_ script: String, in folder: String) throws -> ProcessRun {
        try ProcessRun(
            "/bin/sh", ["-c", "F='\(FolioTool.path)'; " + script], in: folder,
            environment: ProcessInfo.processInfo.environment)
    }

    @Test func aValueThatIsNotUTF8IsRefusedAndNothingIsWritten() throws {
        let store = try TimerStore()
        let before = try Snapshot(of: store.root, excluding: ".folio")
        let insert = try run(
            #""$F" insert Timer "$(printf 'name=Tea\377')" durationInSeconds=60 createdAt=2026-11-01T12:00:00Z"#,
            in: store.root)
        #expect(insert.status == 64, "\(insert.status) \(insert.errors)")
        #expect(insert.errors.contains("argument 3 is not valid UTF-8 (byte 8 of it, 0xFF)"), "\(insert.errors)")
        #expect(try Snapshot(of: store.root, excluding: ".folio") == before)
    }

    @Test func aStoreFolderNameThatIsNotUTF8IsRefusedNotCreatedUnderAnotherName() throws {
        let folder = try TemporaryDirectory()
        let initialized = try run(#""$F" init "$(printf 'caf\351')""#, in: folder.path)
        #expect(initialized.status == 64, "\(initialized.errors)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        let elsewhere = try run(#""$F" info --store "$(printf 'caf\351')""#, in: folder.path)
        #expect(elsewhere.status == 64, "\(elsewhere.errors)")
    }

    @Test func aCurrentFolderWhosePathIsNotUTF8IsRefused() throws {
        let folder = try TemporaryDirectory()
        let inside = try run(
            #"mkdir "$(printf 'd\351')" && cd "$(printf 'd\351')" && "$F" init Notes"#, in: folder.path)
        #expect(inside.status == 64, "\(inside.errors)")
        #expect(inside.errors.contains("the current folder's path is not valid UTF-8"), "\(inside.errors)")
        // Foundation cannot name the folder either: the shell counts what is in it, and beside it.
        let counted = try run(#"ls -A | wc -l; ls -A "$(printf 'd\351')" | wc -l"#, in: folder.path)
        #expect(counted.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) } == ["1", "0"])
    }
}
