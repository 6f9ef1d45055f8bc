import Folio
import Foundation

/// `check STORE`: checks the store as `folio check` does; prints the number of errors and the
/// process's peak resident memory (`errors N peak-kilobytes K`), and each error on stderr.
func checkStore(at path: String) throws {
    let findings = try DocumentStore.open(at: path).check()
    let errors = findings.filter { $0.severity == .error }
    for error in errors { FileHandle.standardError.write(Data("\(error.path): \(error.message)\n".utf8)) }
    // The peak of this program's own memory: `getrusage`'s keeps the parent's from before `exec`.
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let peak = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }?.split(separator: " ").dropFirst().first
    print("errors \(errors.count) peak-kilobytes \(peak ?? "unknown")")
}
