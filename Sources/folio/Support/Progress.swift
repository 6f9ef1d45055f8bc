import Foundation
import Synchronization

/// A progress bar on standard error for work that takes longer than a second, drawn
/// only on a terminal so logs and pipes stay clean. Safe to advance from any thread.
///
/// It shows what a person plans by: how far (a bar and a percentage, or a count), how many
/// of what (`12,345 records`), the rate, and the time left at that rate, as
/// `import [#######-----] 58%  12,345 records  2,140/s  0:12 left`.
final class Progress: Sendable {
    private struct State {
        var done = 0
        var total: Int
        /// The things counted, when the bar measures something else (bytes of a file).
        var count: Int?
        var title: String
        var lastDrawn = Date.distantPast
        /// When the current stage began, and how far it was then: the rate is this stage's.
        var stageStarted = Date()
        var shown = false
    }

    /// What the bar measures: items (shown as done/total) or bytes of a file (as a percentage).
    enum Unit: Sendable {
        case items, bytes
    }

    private let unit: Unit
    /// What one item is, plural ("documents", "records").
    private let noun: String
    private let started = Date()
    private let state: Mutex<State>

    init(_ title: String, total: Int, unit: Unit = .items, noun: String = "documents") {
        self.unit = unit
        self.noun = noun
        state = Mutex(State(total: total, title: title))
    }

    /// Counts `count` more items done.
    func advance(by count: Int = 1) {
        let done = state.withLock { $0.done } + count
        advance(to: done)
    }

    /// Sets how far the work is (and, when it becomes known, of how much), and how many
    /// items are done when the bar measures bytes, redrawing at most ten times a second.
    func advance(to done: Int, of total: Int? = nil, count: Int? = nil) {
        guard Terminal.errorIsTerminal else { return }
        let now = Date()
        let line: String? = state.withLock { state in
            state.done = done
            if let total { state.total = total }
            if let count { state.count = count }
            guard now.timeIntervalSince(started) > 1, now.timeIntervalSince(state.lastDrawn) > 0.1 else { return nil }
            state.lastDrawn = now
            state.shown = true
            // Never wider than the terminal: a bar that wrapped would leave a line behind at each redraw.
            var size = winsize()
            let columns = ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 1 ? Int(size.ws_col) : 80
            return "\r\u{1B}[2K" + String(Self.line(state, unit: unit, noun: noun, now: now).prefix(columns - 1))
        }
        if let line { FileHandle.standardError.write(Data(line.utf8)) }
    }

    /// Begins a new stage of the work under another title (an import's commit after its
    /// reading), counting from nothing again.
    func stage(_ title: String, total: Int) {
        state.withLock { state in
            state.title = title
            state.total = total
            state.done = 0
            state.count = nil
            state.stageStarted = Date()
        }
    }

    /// The bar's text for `state`.
    private static func line(_ state: State, unit: Unit, noun: String, now: Date) -> String {
        var parts = [state.title]
        let seconds = now.timeIntervalSince(state.stageStarted)
        if state.total > 0 {
            let width = 24
            let filled = min(width, state.done * width / state.total)
            parts.append(
                "[\(String(repeating: "#", count: filled))\(String(repeating: "-", count: width - filled))]"
                    + " \(min(100, state.done * 100 / state.total))%")
        }
        let items = unit == .items ? state.done : state.count
        if let items {
            parts.append(
                unit == .items && state.total > 0
                    ? "\(grouped(items))/\(grouped(state.total)) \(noun)" : "\(grouped(items)) \(noun)")
            if seconds >= 1 { parts.append("\(grouped(Int(Double(items) / seconds)))/s") }
        }
        // The time left at the stage's rate so far, once there is a rate to go by.
        if state.total > 0, state.done > 0, seconds >= 2 {
            let left = Double(state.total - state.done) * seconds / Double(state.done)
            parts.append(duration(left) + " left")
        }
        return parts.joined(separator: "  ")
    }

    /// 12345 as "12,345".
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return (number < 0 ? "-" : "") + text
    }

    /// Seconds as "0:12", "12:05" or "1:02:03".
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
        let tail = String(format: "%02d", rest)
        return hours > 0 ? "\(hours):" + String(format: "%02d", minutes) + ":" + tail : "\(minutes):" + tail
    }

    /// Clears the bar, if one was drawn.
    func finish() {
        guard state.withLock({ $0.shown }) else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}
