// Writes the example stores of Data/: `swift run ExampleStores <output-folder>` makes
// <output-folder>/TimerApp, OneThing, ForestFocus, HealthSync and Rowing, the same bytes
// on every run (scripts/make-example-data.sh regenerates Data/ with it).
import Foundation
import SeedApps

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 1, let output = arguments.first, !output.hasPrefix("-") else {
    let stores = ExampleData.storeNames.joined(separator: ", ")
    FileHandle.standardError.write(
        Data("usage: ExampleStores <output-folder>\nwrites \(stores) into the folder\n".utf8))
    exit(64)
}
do {
    try ExampleData.write(to: URL(fileURLWithPath: output, isDirectory: true))
} catch {
    FileHandle.standardError.write(Data("ExampleStores: \(error)\n".utf8))
    exit(1)
}
