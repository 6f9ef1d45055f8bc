import Folio
import FolioJSON
import Foundation
import FuzzSupport

/// libFuzzer's entry point: reads the input as a migration stage file and, when it is one,
/// runs it as a dry run on a Timer store, checking the oracle.
///
/// Inputs the JSON reader refuses are skipped (json-reader-fuzzer covers the reader).
/// The stage is read with `MigrationStep(json:path:timeZone:)`, in the store's time zone,
/// as `folio migrate` reads a plan; the store is a private copy of `Data/TimerApp`,
/// opened once. Beyond "no crash, no sanitizer report":
///
/// - **Refused** stage, or a migration refused or failed: the `FolioError` says
///   something; a refused stage names its file.
/// - **Dry run**: the report is not marked applied, its diff (`unifiedDiff()`, which
///   `folio migrate --dry-run` prints) can be made, and the store is untouched: the
///   store's manifest and document counts are as they were, and so is every file of
///   the store's folder outside `.folio/` (names and bytes, compared after every dry run).
///
/// A violation prints what went wrong and calls `abort()`, which libFuzzer reports
/// as a crash and saves the input for.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    guard let json = try? JSONReader().read(input) else { return 0 }
    let step: MigrationStep
    do {
        step = try MigrationStep(json: json, path: StageOracle.stagePath, timeZone: timer.manifest.timeZone)
    } catch {
        StageOracle.check(error, refusing: input, namesFile: true)
        return 0
    }
    let report: MigrationReport
    do {
        report = try timer.store.migrate([step], dryRun: true)
    } catch {
        StageOracle.check(error, refusing: input, namesFile: false)
        StageOracle.checkUntouched(input: input)
        return 0
    }
    guard !report.applied else { harness.fail("a dry run says it applied the migration", input: input) }
    _ = report.unifiedDiff()
    StageOracle.checkUntouched(input: input)
    return 0
}

/// The program: libFuzzer, fuzzing `fuzz` (see `Harness.runLibFuzzer`).
@main
enum StageFuzzer {
    // The store is opened before the first input, which libFuzzer times.
    static func main() { harness.runLibFuzzer(fuzz, setUp: { _ = timer }) }
}

let harness = Harness("stage-fuzzer")
/// The store every stage runs on, and what it holds before any of them.
let timer = TimerStore()

/// A private copy of the Timer example store, open, with what a dry run must leave as it is.
struct TimerStore: Sendable {
    let store: DocumentStore
    let manifest: StoreManifest
    let documentCounts: [String: Int]
    /// Every entry of the store's folder outside `.folio/`: its bytes, or `nil` for a folder.
    let files: [String: [UInt8]?]

    init() {
        let root = harness.copyOfExampleStore("TimerApp")
        do {
            store = try DocumentStore.open(at: root, durability: .none)
        } catch {
            harness.setupFailed("cannot open the Timer store at \(root): \(error)")
        }
        manifest = store.manifest
        documentCounts = store.documentCounts
        files = Self.files(in: root)
        guard documentCounts.values.reduce(0, +) > 0 else {
            harness.setupFailed("the Timer store at \(root) holds no documents")
        }
    }

    /// The entries of a store's folder outside `.folio/`, by relative path.
    static func files(in root: String) -> [String: [UInt8]?] {
        var files: [String: [UInt8]?] = [:]
        guard let walk = FileManager.default.enumerator(atPath: root) else { return files }
        while let path = walk.nextObject() as? String {
            if path == ".folio" {
                walk.skipDescendants()
                continue
            }
            let full = root + "/" + path
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: full, isDirectory: &isFolder)
            files[path] =
                isFolder.boolValue
                ? .some(nil) : .some(FileManager.default.contents(atPath: full).map { [UInt8]($0) } ?? [])
        }
        return files
    }
}

/// The properties every stage must have, and the report made when one does not.
enum StageOracle {
    /// The name errors give the stage read from the input.
    static let stagePath = "Migrations/TimerApp/fuzz.json"

    /// Checks that a refusal says something and, for a stage file, names it.
    static func check(_ error: FolioError, refusing input: UnsafeBufferPointer<UInt8>, namesFile: Bool) {
        let description = error.description
        guard !description.isEmpty, !namesFile || description.contains(stagePath) else {
            harness.fail(
                namesFile
                    ? "the stage's refusal is empty or does not name the file" : "the migration's refusal is empty",
                input: input,
                details: [
                    ("error", Harness.escaped(description)),
                    ("case", String(reflecting: error)),
                ])
        }
    }

    /// Checks that the store is as it was before any dry run: in memory and on disk.
    static func checkUntouched(input: UnsafeBufferPointer<UInt8>) {
        guard timer.store.manifest == timer.manifest else {
            harness.fail(
                "a dry run changed the store's manifest", input: input,
                details: [("manifest", "\(timer.store.manifest.json)")])
        }
        guard timer.store.documentCounts == timer.documentCounts else {
            harness.fail(
                "a dry run changed the store's documents", input: input,
                details: [
                    ("before", "\(timer.documentCounts)"),
                    ("after", "\(timer.store.documentCounts)"),
                ])
        }
        let files = TimerStore.files(in: timer.store.root)
        guard files == timer.files else {
            let changed = Set(files.keys).union(timer.files.keys).filter { files[$0] != timer.files[$0] }.sorted()
            harness.fail(
                "a dry run changed files of the store", input: input,
                details: [("changed", changed.joined(separator: ", "))])
        }
    }
}
