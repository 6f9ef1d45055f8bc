// swift-tools-version:6.2
import PackageDescription

/// Warnings are defects here: every target of ours builds with them as errors.
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
    name: "Folio",
    products: [
        .library(name: "Folio", targets: ["Folio"]),
        .library(name: "FolioJSON", targets: ["FolioJSON"]),
        .executable(name: "folio", targets: ["folio"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CYajl",
            pkgConfig: "yajl",
            providers: [.apt(["libyajl-dev"])]
        ),
        .target(name: "FolioJSON", dependencies: ["CYajl"], swiftSettings: strict),
        .target(name: "CFolioSystem"),
        .target(name: "Folio", dependencies: ["FolioJSON", "CFolioSystem"], swiftSettings: strict),
        .executableTarget(
            name: "folio",
            dependencies: [
                "Folio",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "FolioJSONTests",
            dependencies: ["FolioJSON"],
            exclude: ["Fixtures"],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "StoreWorkload",
            dependencies: ["Folio"],
            path: "Tests/StoreWorkload",
            swiftSettings: strict
        ),
        .testTarget(
            name: "FolioTests",
            dependencies: ["Folio", "StoreWorkload"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "DocSamplesTests",
            dependencies: ["Folio"],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
