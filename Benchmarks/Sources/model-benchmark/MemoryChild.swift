import BenchmarkSupport
import Foundation

/// The memory rows' child process: the benchmark runs itself with
/// `--memory-child <folio|grdb> <warm-up folder> <folder>`, and the child prints the
/// growth of its resident memory and of its heap in use, in KiB, after the open and after
/// the fetch: `<resident> <resident> <heap> <heap>`.
///
/// A fresh process starts with nothing cached, so what it grows by is what the store
/// and the fetched sessions take. It warms up first on a store of 10 sessions (opened,
/// fetched, let go), so that code paged in and one-time set-up on first use (libraries,
/// type metadata, SQLite's and Folio's first allocations) are not counted as the
/// sessions' memory, for either side.
enum MemoryChild {
    static let command = "--memory-child"

    /// Runs in the child: measures and prints.
    static func run(arguments: [String]) throws {
        guard arguments.count == 3, let side = Side.allCases.first(where: { $0.commandName == arguments[0] }) else {
            throw BenchmarkFailure("usage: model-benchmark \(command) <folio|grdb> <warm-up folder> <folder>")
        }
        let growth = try side.contender.memoryGrowth(warmUp: arguments[1], folder: arguments[2])
        print(growth.afterOpen.resident, growth.afterFetch.resident, growth.afterOpen.heap, growth.afterFetch.heap)
    }

    /// Runs in the parent: starts a child and reads what it printed.
    static func spawn(executable: String, side: Side, warmUp: String, folder: String) throws -> (
        afterOpen: HeapUse, afterFetch: HeapUse
    ) {
        let process = Process()
        process.executableURL = URL(filePath: executable)
        process.arguments = [command, side.commandName, warmUp, folder]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        let numbers = text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard process.terminationStatus == 0, numbers.count == 4 else {
            throw BenchmarkFailure(
                "the memory child process for \(side.contender.name) exited with \(process.terminationStatus), printing \(text.debugDescription)"
            )
        }
        return (HeapUse(heap: numbers[2], resident: numbers[0]), HeapUse(heap: numbers[3], resident: numbers[1]))
    }
}
