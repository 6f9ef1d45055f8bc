// swift-tools-version:6.0
import PackageDescription

/// libFuzzer harnesses for Folio, kept out of the main package so that its
/// manifest needs no unsafe flags and `swift build` at the root is unaffected.
///
/// The sanitizers are turned on from the command line (`--sanitize=fuzzer
/// --sanitize=address`) rather than here, because they must instrument every
/// module, FolioJSON included, not just the harness; see README.md or run.sh.
let package = Package(
    name: "FolioFuzz",
    dependencies: [
        // Named, so the product reference below does not depend on the checkout's directory name.
        .package(name: "Folio", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "json-reader-fuzzer",
            dependencies: [.product(name: "FolioJSON", package: "Folio")],
            // libFuzzer supplies `main`; the harness only defines LLVMFuzzerTestOneInput.
            swiftSettings: [.unsafeFlags(["-parse-as-library"])],
            // The toolchain's lld, since gold warns that it "cannot export local
            // symbol '__asan_extra_spill_area'" when linking with AddressSanitizer;
            // `-z nostart-stop-gc` stops lld's `--gc-sections` (which SwiftPM passes
            // in release builds) from dropping the coverage counters libFuzzer needs.
            linkerSettings: [
                .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "nostart-stop-gc"], .when(platforms: [.linux])),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
