import Foundation
import Synchronization

/// A progress bar on standard error for work that takes longer than a second, drawn
/// only on a terminal so logs and pipes stay clean. Safe to advance from any thread.
final class Progress: Sendable {
    private struct State {
        var done = 0
        var total: Int
        var lastDrawn = Date.distantPast
        var shown = false
    }

    /// What the bar counts: items (shown as done/total) or bytes of a file (as a percentage).
    enum Unit: Sendable {
        case items, bytes
    }

    private let title: String
    private let unit: Unit
    private let started = Date()
    private let state: Mutex<State>

    init(_ title: String, total: Int, unit: Unit = .items) {
        self.title = title
        self.unit = unit
        state = Mutex(State(total: total))
    }

    /// Counts `count` more items done.
    func advance(by count: Int = 1) {
        let done = state.withLock { $0.done } + count
        advance(to: done)
    }

    /// Sets how many items are done (and, when it becomes known, of how many), redrawing
    /// at most ten times a second.
    func advance(to done: Int, of total: Int? = nil) {
        guard Terminal.errorIsTerminal else { return }
        let now = Date()
        let line: String? = state.withLock { state in
            state.done = done
            if let total { state.total = total }
            guard now.timeIntervalSince(started) > 1, now.timeIntervalSince(state.lastDrawn) > 0.1 else { return nil }
            state.lastDrawn = now
            state.shown = true
            // Without a total (a pipe), only the count.
            guard state.total > 0 else { return "\r\(title) \(done)" }
            let width = 30
            let filled = min(width, done * width / state.total)
            let figure = unit == .bytes ? "\(min(100, done * 100 / state.total))%" : "\(done)/\(state.total)"
            return
                "\r\(title) [\(String(repeating: "#", count: filled))\(String(repeating: "-", count: width - filled))] \(figure)"
        }
        if let line { FileHandle.standardError.write(Data(line.utf8)) }
    }

    /// Clears the bar, if one was drawn.
    func finish() {
        guard state.withLock({ $0.shown }) else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}
