import Folio
import FolioJSON
import Foundation
import FuzzSupport

/// libFuzzer's entry point: writes the input as a store's `folio.json`, opens the store as
/// the `folio` tool does (`DocumentStore.open(at:)`), and checks the oracle.
///
/// The store is a private copy of `Data/TimerApp`, made once, so the schema an input
/// declares meets real documents; its cache is discarded before every open, so each input
/// is read the same way whatever came before it. Beyond "no crash, no sanitizer report":
///
/// - **Accepted**: the manifest the store holds is the one `StoreManifest(json:path:)`
///   reads from the input; its canonical JSON (`.json`) writes, reads back as an equal
///   manifest, and that manifest's JSON is the same (a fixed point). Then `check()` runs,
///   as `folio check` does, and a query on each entity the schema names (crashes only).
/// - **Refused**: the error is a `FolioError` whose description says something and names
///   `folio.json`, so the user knows which file to fix.
///
/// A violation prints what went wrong and calls `abort()`, which libFuzzer reports
/// as a crash and saves the input for.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    do {
        try Data(input).write(to: URL(fileURLWithPath: manifestPath))
        try DocumentStore.discardCache(at: storeRoot)
    } catch {
        harness.setupFailed("cannot rewrite \(manifestPath): \(error)")
    }
    let store: DocumentStore
    do {
        // As the tool opens a store, but without syncing the cache it writes: a fuzzer need not survive power loss.
        store = try DocumentStore.open(at: storeRoot, durability: .none)
    } catch {
        ManifestOracle.check(error, refusing: input)
        return 0
    }
    ManifestOracle.check(store.manifest, readFrom: input)
    ManifestOracle.exercise(store)
    return 0
}

/// The program: libFuzzer, fuzzing `fuzz` (see `Harness.runLibFuzzer`).
@main
enum ManifestFuzzer {
    static func main() { harness.runLibFuzzer(fuzz) }
}

let harness = Harness("manifest-fuzzer")
/// The store every input's manifest is written into: a private copy of the Timer example store.
let storeRoot = harness.copyOfExampleStore("TimerApp")
let manifestPath = storeRoot + "/" + StoreManifest.fileName

/// The properties every manifest must have, and the report made when one does not.
enum ManifestOracle {
    /// Checks that an accepted manifest is what the input says, and that its JSON form reads back the same.
    static func check(_ manifest: StoreManifest, readFrom input: UnsafeBufferPointer<UInt8>) {
        let direct: StoreManifest
        do {
            direct = try StoreManifest(json: JSONReader().read(input), path: manifestPath)
        } catch {
            harness.fail(
                "the store opened with a manifest that StoreManifest(json:path:) refuses", input: input,
                details: [("error", "\(error)")])
        }
        guard direct == manifest else {
            harness.fail(
                "the store holds a different manifest from the one StoreManifest(json:path:) reads", input: input,
                details: [
                    ("store's", describe(manifest)),
                    ("read", describe(direct)),
                ])
        }
        let written: [UInt8]
        do {
            written = try JSONWriter().write(manifest.json)
        } catch {
            harness.fail(
                "the manifest's JSON cannot be written", input: input,
                details: [("error", error.description), ("manifest", describe(manifest))])
        }
        let reread: StoreManifest
        do {
            reread = try StoreManifest(json: JSONReader().read(written), path: manifestPath)
        } catch {
            harness.fail(
                "the manifest's own JSON is refused", input: input,
                details: [
                    ("error", "\(error)"),
                    ("written", Harness.escaped(written)),
                ])
        }
        guard reread == manifest else {
            harness.fail(
                "the manifest's JSON reads back as a different manifest", input: input,
                details: [
                    ("manifest", describe(manifest)),
                    ("reread", describe(reread)),
                    ("written", Harness.escaped(written)),
                ])
        }
        guard reread.json == manifest.json else {
            harness.fail(
                "the re-read manifest's JSON differs (canonical JSON is not a fixed point)", input: input,
                details: [
                    ("json", "\(manifest.json)"),
                    ("reread", "\(reread.json)"),
                ])
        }
    }

    /// Checks that a refusal says what is wrong and names the file to fix.
    static func check(_ error: FolioError, refusing input: UnsafeBufferPointer<UInt8>) {
        let description = error.description
        guard !description.isEmpty, description.contains(StoreManifest.fileName) else {
            harness.fail(
                "the refusal is empty or does not name \(StoreManifest.fileName)", input: input,
                details: [
                    ("error", Harness.escaped(description)),
                    ("case", String(reflecting: error)),
                ])
        }
    }

    /// Runs what reads the schema on the store's documents, as `folio check` and
    /// `folio query` do; only crashes count, the results are not checked.
    static func exercise(_ store: DocumentStore) {
        _ = store.check()
        let entities = store.manifest.schema["entities"]?.objectValue ?? [:]
        for member in entities.prefix(4) {
            let entity = member.key
            let names = (member.value["properties"]?.arrayValue ?? []).prefix(3).compactMap { $0["name"]?.stringValue }
            _ = try? store.query(DocumentQuery(entity: entity))
            for name in names {
                let filter = QueryExpression.compare(.property(name), .greaterOrEqual, .value(.integer(0)))
                _ = try? store.query(
                    DocumentQuery(entity: entity, filter: filter, sort: [.init(.property(name))], limit: 2))
                _ = try? store.parseQuery("\(name) != nil", entity: entity)
            }
        }
    }

    private static func describe(_ manifest: StoreManifest) -> String {
        "formatVersion \(manifest.formatVersion), schemaVersion \(Harness.escaped(manifest.schemaVersion)), timeZone \(manifest.timeZone.identifier), merge \(manifest.merge), rules \(manifest.rules), schema \(manifest.schema)"
    }
}
