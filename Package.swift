// swift-tools-version:6.2
import CompilerPluginSupport
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
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CYajl",
            pkgConfig: "yajl",
            providers: [.apt(["libyajl-dev"])]
        ),
        .target(name: "FolioJSON", dependencies: ["CYajl"], swiftSettings: strict),
        .target(name: "CFolioSystem"),
        .macro(
            name: "FolioMacros",
            dependencies: [
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
            ],
            swiftSettings: strict
        ),
        // The library without its macros: everything but the `@Model` family's declarations.
        // The tool depends on it alone, so it builds without swift-syntax.
        .target(
            name: "FolioCore",
            dependencies: ["FolioJSON", "CFolioSystem", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        // What apps import: FolioCore re-exported, and the macros.
        .target(name: "Folio", dependencies: ["FolioCore", "FolioMacros"], swiftSettings: strict),
        .executableTarget(
            name: "folio",
            dependencies: [
                "FolioCore", "CFolioSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .target(name: "FolioTestSupport", path: "Tests/FolioTestSupport", swiftSettings: strict),
        .testTarget(
            name: "FolioJSONTests",
            dependencies: ["FolioJSON", "FolioTestSupport"],
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
            dependencies: ["Folio", "FolioCore", "StoreWorkload", "FolioTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "FolioMacrosTests",
            dependencies: [
                "FolioMacros",
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
            ],
            swiftSettings: strict
        ),
        // The five seed apps' models, as the seeds write them, and the generator of their
        // example stores in Data/; used by SeedAppTests and by ExampleStores, shipped by no product.
        .target(
            name: "SeedApps", dependencies: ["Folio", "FolioTestSupport"], path: "Tests/SeedApps", swiftSettings: strict
        ),
        // `swift run ExampleStores <folder>` writes the example stores (scripts/make-example-data.sh).
        .executableTarget(
            name: "ExampleStores", dependencies: ["SeedApps"], path: "Tests/ExampleStores", swiftSettings: strict),
        .testTarget(
            name: "SeedAppTests",
            dependencies: ["Folio", "FolioCore", "FolioTestSupport", "SeedApps", "ExampleStores"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "Swift5ModeTests",
            dependencies: ["Folio"],
            swiftSettings: [.swiftLanguageMode(.v5), .treatAllWarnings(as: .error)]
        ),
        .testTarget(
            name: "FolioCommandTests",
            dependencies: ["folio", "FolioJSON", "FolioTestSupport"],
            exclude: ["Fixtures"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CompatibilityTests",
            dependencies: ["Folio", "FolioTestSupport"],
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
