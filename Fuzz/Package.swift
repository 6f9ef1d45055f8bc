// swift-tools-version:6.0
import PackageDescription

/// libFuzzer harnesses for Folio, kept out of the main package so that its
/// manifest needs no unsafe flags and `swift build` at the root is unaffected.
///
/// AddressSanitizer and libFuzzer's coverage instrumentation are turned on from the
/// command line (`--sanitize=address -Xswiftc -sanitize-coverage=...`) rather than here,
/// because they must instrument every module, Folio and FolioJSON included, not just
/// the harness; libFuzzer itself is linked here. See README.md or run.sh.

/// One libFuzzer harness: an executable whose `@main` type hands over to libFuzzer.
func harness(_ name: String, testing library: String) -> Target {
    .executableTarget(
        name: name,
        dependencies: [.product(name: library, package: "Folio"), "FuzzSupport"],
        // The harness's `main` is its `@main` type (see `Harness.runLibFuzzer`).
        swiftSettings: [.unsafeFlags(["-parse-as-library"])],
        linkerSettings: [
            // libFuzzer and ASan, linked into the harnesses only: given on the command
            // line, `-sanitize=fuzzer` would also reach the macro plugin Folio builds with
            // (FolioMacros-tool), whose `main` then clashes with libFuzzer's.
            .unsafeFlags(["-sanitize=fuzzer,address"]),
            // The toolchain's lld, since gold warns that it "cannot export local
            // symbol '__asan_extra_spill_area'" when linking with AddressSanitizer;
            // `-z nostart-stop-gc` stops lld's `--gc-sections` (which SwiftPM passes
            // in release builds) from dropping the coverage counters libFuzzer needs.
            .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "nostart-stop-gc"], .when(platforms: [.linux])),
        ]
    )
}

/// The harnesses (each in `Sources/<name>/`) and the root package's product each tests.
let harnesses = [
    ("json-reader-fuzzer", "FolioJSON"),
    ("query-fuzzer", "Folio"),
    ("manifest-fuzzer", "Folio"),
    ("stage-fuzzer", "Folio"),
]

let package = Package(
    name: "FolioFuzz",
    products: harnesses.map { .executable(name: $0.0, targets: [$0.0]) },
    dependencies: [
        // Named, so the product references do not depend on the checkout's directory name.
        .package(name: "Folio", path: "..")
    ],
    targets: [
        // What every harness shares: the hand-over to libFuzzer, the backtracer re-run,
        // oracle reports, scratch folders.
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer"]),
        // libFuzzer's C interface (a header; libFuzzer itself is linked by the harnesses).
        .systemLibrary(name: "CLibFuzzer"),
    ] + harnesses.map { harness($0.0, testing: $0.1) },
    swiftLanguageModes: [.v6]
)
