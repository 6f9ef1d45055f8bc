import Foundation

/// A progress bar on standard error for work that takes longer than a second, drawn
/// only on a terminal so logs and pipes stay clean.
final class Progress {
    private let title: String
    private let total: Int
    private let started = Date()
    private var done = 0
    private var lastDrawn = Date.distantPast
    private var shown = false

    init(_ title: String, total: Int) {
        self.title = title
        self.total = max(total, 1)
    }

    /// Counts `count` more items done, redrawing at most ten times a second.
    func advance(by count: Int = 1) {
        advance(to: done + count)
    }

    /// Sets how many items are done, redrawing at most ten times a second.
    func advance(to done: Int) {
        self.done = done
        let now = Date()
        guard Terminal.errorIsTerminal, now.timeIntervalSince(started) > 1, now.timeIntervalSince(lastDrawn) > 0.1 else { return }
        lastDrawn = now
        shown = true
        let width = 30
        let filled = min(width, done * width / total)
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        FileHandle.standardError.write(Data("\r\(title) [\(bar)] \(done)/\(total)".utf8))
    }

    /// Clears the bar, if one was drawn.
    func finish() {
        guard shown else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}
