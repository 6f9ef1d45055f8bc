import CLibFuzzer
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What every harness shares: handing over to libFuzzer, the one-time setup that lets
/// crashes reach libFuzzer, the report an oracle makes before it aborts, and a private
/// scratch folder.
///
/// Each harness keeps one as a global, `let harness = Harness("query-fuzzer")`, calls
/// `harness.runLibFuzzer(fuzz)` from its `@main` type, and `harness.fail(...)` when an
/// input breaks its oracle.
public struct Harness: Sendable {
    /// The executable's name, which starts every report.
    public let name: String

    public init(_ name: String) {
        self.name = name
    }

    /// Runs libFuzzer on `test` (the harness's `LLVMFuzzerTestOneInput`) with the
    /// program's arguments, after `setUp` (work the first input should not be timed for),
    /// and exits with its status.
    ///
    /// SwiftPM compiles an executable's entry point (its `@main` type) as `<module>_main`
    /// and links the program with `main` pointing at it (`--defsym`), so libFuzzer's own
    /// `main`, linked too, is never called: this hands over to libFuzzer as that `main` would.
    public func runLibFuzzer(_ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt, setUp: () -> Void = {})
        -> Never
    {
        letCrashesReachLibFuzzer()
        setUp()
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, test))
    }

    /// Makes sure crashes reach libFuzzer, before anything else runs (the first run of the
    /// program never gets past it).
    ///
    /// On Linux the Swift runtime's backtracer is on by default and installs its own
    /// handlers for `SIGABRT`, `SIGILL`, `SIGSEGV` and the like when the program loads.
    /// libFuzzer leaves a handler that is already installed in place, so a Swift trap
    /// or an oracle's `abort()` would print a Swift backtrace and end the process
    /// without libFuzzer saving the input (and the backtracer can be left hanging).
    /// Unless `SWIFT_BACKTRACE` already turns it off, the program therefore runs itself
    /// again, with the same arguments, with the backtracer off; only that second run
    /// returns from here.
    private func letCrashesReachLibFuzzer() {
        #if os(Linux)
            let setting = getenv("SWIFT_BACKTRACE").map { String(cString: $0) } ?? ""
            if !setting.contains("enable=no") {
                setenv("SWIFT_BACKTRACE", "enable=no", 1)
                execv("/proc/self/exe", CommandLine.unsafeArgv)
                perror("\(name): cannot re-run with SWIFT_BACKTRACE=enable=no; set it yourself")
            }
        #endif
    }

    /// Reports an oracle violation on standard error and aborts, so libFuzzer records the
    /// input: the problem, the input (escaped), then each detail as `label: text`.
    public func fail(_ problem: String, input: some Collection<UInt8>, details: [(String, String)] = []) -> Never {
        var report = "\n==== \(name): oracle violation: \(problem)\n"
        report += "input (\(input.count) bytes): \(Self.escaped(input))\n"
        for (label, text) in details { report += "\(label): \(text)\n" }
        report.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
        abort()
    }

    /// A new, empty folder only this process uses (`mkdtemp` under `$TMPDIR` or `/tmp`,
    /// `folio-<harness>.<pid>.XXXXXX`), removed again when the process exits normally.
    /// A crash leaves it behind (libFuzzer ends the process at once), so the folders of
    /// this harness whose process is gone are removed first.
    public func makePrivateFolder() -> String {
        let parent = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let prefix = "folio-\(name)."
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? [] where entry.hasPrefix(prefix)
        {
            guard let pid = entry.dropFirst(prefix.count).split(separator: ".").first.flatMap({ pid_t($0) }),
                kill(pid, 0) == -1, errno == ESRCH
            else { continue }
            try? FileManager.default.removeItem(atPath: parent + "/" + entry)
        }
        var template = Array("\(parent)/\(prefix)\(getpid()).XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            setupFailed("cannot make a private folder in \(parent): \(String(cString: strerror(errno)))")
        }
        let folder = String(cString: made)
        ScratchFolders.remember(folder)
        return folder
    }

    /// A copy of one of the repository's example stores (`Data/<name>`) in a new private
    /// folder, without its local state (`.folio/`); returns the copy's path.
    public func copyOfExampleStore(_ name: String) -> String {
        let source = Self.repositoryRoot + "/Data/" + name
        let copy = makePrivateFolder() + "/" + name
        do {
            try FileManager.default.copyItem(atPath: source, toPath: copy)
            if FileManager.default.fileExists(atPath: copy + "/.folio") {
                try FileManager.default.removeItem(atPath: copy + "/.folio")
            }
        } catch {
            setupFailed("cannot copy the example store \(source) to \(copy): \(error)")
        }
        return copy
    }

    /// Ends the run when the harness cannot set itself up (not an oracle violation: no input is to blame).
    public func setupFailed(_ reason: String) -> Never {
        let report = "\(name): setup failed: \(reason)\n"
        _ = report.withCString { write(STDERR_FILENO, $0, strlen($0)) }
        exit(2)
    }

    /// The checkout this package was built from: the harnesses read its example stores.
    public static let repositoryRoot: String = {
        // #filePath is <root>/Fuzz/Sources/FuzzSupport/Harness.swift.
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// Bytes as a Swift-like string literal: printable ASCII as is, the rest as `\xNN`,
    /// cut off after `limit` bytes so a report stays readable.
    public static func escaped(_ bytes: some Collection<UInt8>, limit: Int = 2048) -> String {
        let hexDigits = Array("0123456789abcdef")
        var text = "\""
        for byte in bytes.prefix(limit) {
            switch byte {
            case UInt8(ascii: "\""): text += "\\\""
            case UInt8(ascii: "\\"): text += "\\\\"
            case UInt8(ascii: "\n"): text += "\\n"
            case 0x20...0x7E: text.unicodeScalars.append(Unicode.Scalar(byte))
            default: text += "\\x" + String(hexDigits[Int(byte >> 4)]) + String(hexDigits[Int(byte & 0xF)])
            }
        }
        text += "\""
        if bytes.count > limit { text += "… (\(bytes.count - limit) more bytes)" }
        return text
    }

    /// Text as `escaped` writes bytes, for values a report shows (queries, descriptions).
    public static func escaped(_ text: String, limit: Int = 2048) -> String {
        escaped(Array(text.utf8), limit: limit)
    }
}

/// The private folders to remove at exit (libFuzzer ends a run with `exit`).
private enum ScratchFolders {
    nonisolated(unsafe) static var folders: [String] = []

    static func remember(_ folder: String) {
        if folders.isEmpty {
            atexit {
                for folder in ScratchFolders.folders { try? FileManager.default.removeItem(atPath: folder) }
            }
        }
        folders.append(folder)
    }
}
