import Foundation

/// A fresh folder under the system's temporary directory, removed when the value is released.
public final class TemporaryDirectory: Sendable {
    /// The folder's path.
    public let path: String

    public init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("folio-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    // Cleanup of a temporary folder may fail without harm to the test; the system clears /tmp.
    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The folder as a URL.
    public var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// The path of an entry in the folder.
    public func callAsFunction(_ relative: String) -> String { path + "/" + relative }

    /// Creates a file in the folder and returns its path.
    public func create(_ name: String, contents: [UInt8] = []) throws -> String {
        let path = self(name)
        try Data(contents).write(to: URL(fileURLWithPath: path))
        return path
    }
}
