// swift-tools-version:6.0
import PackageDescription

// Folio's benchmarks, kept out of the root package so that users and CI never
// build them. Run from the repository root:
//
//     swift run -c release --package-path Benchmarks json-benchmark
//     swift run -c release --package-path Benchmarks store-benchmark
//     swift run -c release --package-path Benchmarks model-benchmark
//     swift run -c release --package-path Benchmarks query-benchmark
//     swift run -c release --package-path Benchmarks migration-benchmark
//     swift run -c release --package-path Benchmarks live-benchmark
//     swift run -c release --package-path Benchmarks scale-benchmark
let package = Package(
    name: "FolioBenchmarks",
    dependencies: [
        .package(name: "Folio", path: ".."),
        // The peer of model-benchmark: SQLite through GRDB, with Codable records (and
        // scale-benchmark's: SQLite's C API through GRDBSQLite, the system library GRDB links).
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .target(
            name: "BenchmarkSupport",
            dependencies: ["StoreFloor", .product(name: "FolioJSON", package: "Folio")]
        ),
        .target(
            name: "YajlFloor",
            linkerSettings: [.linkedLibrary("yajl")]
        ),
        .target(name: "StoreFloor"),
        .target(name: "HeapUse"),
        .executableTarget(
            name: "json-benchmark",
            dependencies: [
                "BenchmarkSupport",
                "YajlFloor",
                .product(name: "FolioJSON", package: "Folio"),
            ]
        ),
        .executableTarget(
            name: "store-benchmark",
            dependencies: [
                "BenchmarkSupport",
                "StoreFloor",
                .product(name: "Folio", package: "Folio"),
                .product(name: "FolioJSON", package: "Folio"),
            ]
        ),
        .executableTarget(
            name: "model-benchmark",
            dependencies: [
                "BenchmarkSupport",
                "HeapUse",
                "StoreFloor",
                .product(name: "Folio", package: "Folio"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .executableTarget(
            name: "query-benchmark",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Folio", package: "Folio"),
                .product(name: "FolioJSON", package: "Folio"),
            ]
        ),
        .executableTarget(
            name: "live-benchmark",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Folio", package: "Folio"),
            ]
        ),
        // scale-benchmark runs every command through scale-launcher (C), so that a command's
        // peak memory does not start from the benchmark's own; SQLite through its C API.
        .executableTarget(name: "scale-launcher"),
        .executableTarget(
            name: "scale-benchmark",
            dependencies: [
                "BenchmarkSupport",
                "StoreFloor",
                "HeapUse",
                "scale-launcher",
                .product(name: "Folio", package: "Folio"),
                .product(name: "FolioJSON", package: "Folio"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        .executableTarget(
            name: "migration-benchmark",
            dependencies: [
                "BenchmarkSupport",
                "StoreFloor",
                .product(name: "Folio", package: "Folio"),
                .product(name: "FolioJSON", package: "Folio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
