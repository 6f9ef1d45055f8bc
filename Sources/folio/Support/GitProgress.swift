import Foundation
import Glibc
import Synchronization

/// Git's own progress meters ("Receiving objects:  42% (420/1000)"), shown on the tool's
/// terminal while a `pull` or `push` runs, and left out of the messages the tool writes
/// about what git said.
///
/// Git draws its meters only when asked (`--progress`) or when its error stream is a
/// terminal; the tool keeps that stream in a file, to read back for its hints, so it asks
/// only when its own error stream is a terminal, and copies the meters to it as git writes.
enum GitProgress {
    /// The option that makes git draw its meters, when the tool's error stream is a terminal
    /// a person watches; nothing otherwise (a log or a test's pipe stays quiet).
    static var option: [String] { Terminal.errorIsTerminal ? ["--progress"] : [] }

    /// Copies git's meters from the file its error stream goes to onto the tool's error
    /// stream as git writes them, until stopped; the rest of what git says stays in the file,
    /// for the tool's own message about it.
    ///
    /// The file is read from the offset last copied every few hundredths of a second, which is
    /// how often a meter changes: no pipe, so git can never block on a full one, and an ssh that
    /// git started and that keeps the stream open cannot keep the tool waiting for its end.
    final class Echo: Sendable {
        private let descriptor: Int32
        private let stopped = Atomic(false)
        private let finished = DispatchSemaphore(value: 0)

        /// Starts copying the meters of the file open at `descriptor`, from its start.
        init(descriptor: Int32) {
            self.descriptor = descriptor
            Thread.detachNewThread { [self] in
                var offset: off_t = 0
                var pending: [UInt8] = []
                while !stopped.load(ordering: .acquiring) {
                    offset = read(from: offset, into: &pending)
                    usleep(40_000)
                }
                _ = read(from: offset, into: &pending)
                finished.signal()
            }
        }

        /// Reads what was written after `offset`, shows the meters among the lines it ends, keeps
        /// an unended line in `pending`, and returns where the file ends.
        private func read(from offset: off_t, into pending: inout [UInt8]) -> off_t {
            var offset = offset
            var buffer = [UInt8](repeating: 0, count: 16384)
            while true {
                let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return offset }
                offset += off_t(count)
                pending += buffer[..<count]
                // A meter redraws itself after a carriage return and ends its last state with a line break.
                while let end = pending.firstIndex(where: { $0 == 0x0D || $0 == 0x0A }) {
                    let segment = pending[...end]
                    if isMeter(String(decoding: pending[..<end], as: UTF8.self)) { show(Array(segment)) }
                    pending.removeSubrange(...end)
                }
            }
        }

        /// Writes bytes to the tool's error stream; a closed one shows nothing, and the bytes
        /// are still in the file.
        private func show(_ bytes: [UInt8]) {
            var written = 0
            while written < bytes.count {
                let wrote = bytes.withUnsafeBytes {
                    write(STDERR_FILENO, $0.baseAddress! + written, bytes.count - written)
                }
                if wrote < 0 && errno == EINTR { continue }
                guard wrote > 0 else { return }
                written += wrote
            }
        }

        /// Shows what is left and returns once the copying has ended.
        func stop() {
            stopped.store(true, ordering: .releasing)
            finished.wait()
        }
    }

    /// `text` without the lines of git's meters, which the terminal has already shown: a
    /// meter's line holds its states one after another, each after a carriage return.
    static func withoutMeters(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            let shown = line.split(separator: "\r").last.map(String.init) ?? ""
            return !isMeter(shown)
        }.joined(separator: "\n")
    }

    /// Whether a line is one of git's meters or the pack summary it ends with:
    /// "Writing objects: 100% (3/3), 250 bytes | 250.00 KiB/s, done.", "remote: Counting
    /// objects: 5, done.", "Total 3 (delta 0), reused 0 (delta 0), pack-reused 0".
    static func isMeter(_ line: String) -> Bool {
        var rest = Substring(line)
        if rest.hasPrefix("remote: ") { rest = rest.dropFirst("remote: ".count) }
        if rest.hasPrefix("Total ") && rest.contains("(delta ") { return true }
        guard let colon = rest.firstIndex(of: ":"),
            rest[..<colon].allSatisfy({ $0.isLetter || $0 == " " }), !rest[..<colon].isEmpty
        else { return false }
        let value = rest[rest.index(after: colon)...].drop(while: { $0 == " " })
        let number = value.prefix(while: \.isNumber)
        guard !number.isEmpty else { return false }
        let after = value.dropFirst(number.count)
        return after.hasPrefix("% (") || after.hasPrefix(", done.")
    }
}
