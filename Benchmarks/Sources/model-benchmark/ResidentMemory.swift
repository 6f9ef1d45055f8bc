import BenchmarkSupport
import Foundation

/// The process's resident memory, as the kernel reports it.
enum ResidentMemory {
    /// `VmRSS` from `/proc/self/status`, in KiB.
    static func kibibytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            // "VmRSS:	   12345 kB"
            if let value = Int(line.dropFirst("VmRSS:".count).filter(\.isNumber)) { return value }
        }
        throw BenchmarkFailure("/proc/self/status has no VmRSS line")
    }
}
