import BenchmarkSupport
import Folio
import FolioJSON
import Foundation
import Glibc

// A lightweight migration (a property renamed, one added) of every document of a
// 100,000-document store: applied with `.full` durability, beside the floor (the same
// files read, parsed, edited, written, synced and renamed with nothing on top), and the
// dry run. Medians of repeated runs, each on a store of its own.
//
//     swift run -c release --package-path Benchmarks migration-benchmark
//     swift run -c release --package-path Benchmarks migration-benchmark --quick   # 2,000 documents
//
// Fairness on this machine's ext4 (no journal), where creating files right after
// deleting many is slow for minutes: every run gets fresh folders, nothing is deleted
// until the end, every dirty page is written back before each timed run, and the
// applied migration and the floor take turns going first.

let arguments = Array(CommandLine.arguments.dropFirst())
let quick = arguments.contains("--quick")
let count = quick ? 2_000 : 100_000
let repetitions = quick ? 3 : 5
let clock = ContinuousClock()
let began = Date()

func note(_ text: String) { FileHandle.standardError.write(Data(("… " + text + "\n").utf8)) }
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

let prefix = FileManager.default.temporaryDirectory.path + "/folio-migration-bench-\(getpid())-"
var folders: [String] = []
/// A store path in a new parent folder nothing else uses.
@MainActor func freshStore() throws -> String {
    let folder = prefix + String(folders.count + 1)
    guard mkdir(folder, 0o755) == 0 else { throw BenchmarkFailure("could not create \(folder)") }
    folders.append(folder)
    return folder + "/store"
}
defer { for folder in folders { try? FileManager.default.removeItem(atPath: folder) } }

note("\(Format.grouped(count)) documents: preparing")
let sample = try MigrationSample(count: count)
var applied: [Double] = []
var floor: [Double] = []
var dry: [Double] = []
var diffs: [Double] = []
var diffBytes = 0
for repetition in 0..<repetitions {
    note("repetition \(repetition + 1) of \(repetitions): writing two stores")
    let folioRoot = try freshStore()
    let floorRoot = try freshStore()
    try sample.write(at: folioRoot)
    try sample.write(at: floorRoot)

    // The dry run: open the store and migrate in memory (then print nothing).
    sync()
    var report: MigrationReport?
    dry.append(
        Format.seconds(
            try clock.measure {
                report = try DocumentStore.open(at: folioRoot).migrate([MigrationSample.step], dryRun: true)
            }))
    guard report?.entities["Timer"]?.changed == count, report?.files.count == count + 1 else {
        throw BenchmarkFailure(
            "the dry run would change \(report?.entities["Timer"]?.changed ?? 0) documents, not \(count)")
    }
    var diff: [UInt8] = []
    diffs.append(Format.seconds(clock.measure { diff = report!.unifiedDiff() }))
    diffBytes = diff.count
    report = nil

    var order = ["apply", "floor"]
    if repetition % 2 == 1 { order.reverse() }
    for row in order {
        sync()
        if row == "apply" {
            var done: MigrationReport?
            applied.append(
                Format.seconds(
                    try clock.measure {
                        done = try DocumentStore.open(at: folioRoot, durability: .full).migrate([MigrationSample.step])
                    }))
            guard done?.applied == true else { throw BenchmarkFailure("the migration was not applied") }
        } else {
            floor.append(
                Format.seconds(try clock.measure { try MigrationFloor.migrate(root: floorRoot, paths: sample.paths) }))
        }
    }
    if repetition == 0 {
        // Both rewrote every document to the same bytes.
        for path in sample.paths.prefix(200) {
            let a = FileManager.default.contents(atPath: folioRoot + "/" + path)
            guard a != nil, a == FileManager.default.contents(atPath: floorRoot + "/" + path) else {
                throw BenchmarkFailure("the migration and the floor wrote \(path) differently")
            }
        }
    }
}

let (apply, raw, dryRun) = (median(applied), median(floor), median(dry))
print(
    """
    # migration-benchmark

    \(Format.grouped(count)) Timer documents at 1.0.0 (one day folder per day of 2025); one lightweight stage: \
    `colorHex` renamed `color`, `category` added with "General", so every document is rewritten. \
    Medians of \(repetitions) runs, each on fresh stores; \(Int(Date().timeIntervalSince(began))) s in all.

    | row | median | ratio |
    | --- | ---: | ---: |
    | floor: read + parse + edit + write staged + `syncfs` + rename + `syncfs` | \(Format.milliseconds(raw)) | 1.00× |
    | Folio migration applied (open + migrate, `.full`) | \(Format.milliseconds(apply)) | \(Format.ratio(apply / raw)) of the floor |
    | Folio dry run (open + migrate in memory) | \(Format.milliseconds(dryRun)) | \(Format.ratio(apply / dryRun)) faster than applying |
    | the dry run's unified diff, made from its report | \(Format.milliseconds(median(diffs))) | dry run + diff \(Format.ratio(apply / (dryRun + median(diffs)))) faster than applying |

    | goal | measured | |
    | --- | ---: | --- |
    | apply within 2x of the floor | \(Format.ratio(apply / raw)) | \(apply / raw <= 2 ? "met" : "missed") |
    | dry run at least 3x faster than applying | \(Format.ratio(apply / dryRun)) | \(apply / dryRun >= 3 ? "met" : "missed") |

    The unified diff is \(Format.grouped(diffBytes)) bytes (`git diff` prints the same after applying).
    Every run: applied \(applied.map { Format.milliseconds($0) }.joined(separator: ", ")); \
    floor \(floor.map { Format.milliseconds($0) }.joined(separator: ", ")); \
    dry run \(dry.map { Format.milliseconds($0) }.joined(separator: ", ")).

    """)
