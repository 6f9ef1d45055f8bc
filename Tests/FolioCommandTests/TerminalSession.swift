import FolioTestSupport
import Foundation

/// The tool run on a pseudo-terminal of its own by `Fixtures/terminal-session.py`, as a person
/// at a terminal runs it: the tool is the terminal's foreground process group, the test waits
/// for text to show and types keys, and ^C (`"\u{3}"`) is the terminal's, sent to that group.
struct TerminalSession: Decodable {
    /// One thing the person does, in order.
    enum Step: Encodable {
        /// Waits until the terminal shows this text.
        case expect(String)
        /// Types this text.
        case send(String)
        /// Types this text, and again every few seconds until the terminal shows `shown`: for a
        /// program that drops keys typed at a busy moment, as vim does those that come while it
        /// handles a ^C.
        case sendUntil(String, shows: String)
        /// Waits this many seconds.
        case pause(Double)

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .expect(let text): try container.encode(["expect": text])
            case .send(let text): try container.encode(["send": text])
            case .sendUntil(let text, let shown): try container.encode(["send": text, "until": shown])
            case .pause(let seconds): try container.encode(["pause": seconds])
            }
        }
    }

    /// "exited", "signalled", or "timedOut" when the tool was still running at the end of the time given.
    var ending: String
    /// The exit status, or the signal that ended the tool.
    var code: Int32
    /// How many steps were done: fewer than given when a text never showed.
    var steps: Int
    /// All the terminal showed (line breaks as `\r\n`).
    var transcript: String

    /// Whether the tool exited with this status.
    func exited(_ status: Int32) -> Bool { ending == "exited" && code == status }

    /// Whether a signal ended the tool.
    func signalled(_ signal: Int32) -> Bool { ending == "signalled" && code == signal }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/terminal-session.py").path

    /// Whether a program is on `PATH`.
    static func installed(_ program: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: $0 + "/" + program)
        }
    }

    /// Runs `tool` with `arguments` on a new terminal (`TERM=vt100`, 200 columns by 50 rows),
    /// playing `steps`, within `seconds`; `environment` adds to the tool's, a `nil` removing a
    /// variable. The tool is killed if it has not ended by then: a limit for a session that
    /// hangs, far past what one takes on a loaded machine (a steady one waits no longer for it).
    init(
        _ tool: FolioTool, _ arguments: [String], steps: [Step], environment: [String: String?] = [:],
        seconds: Double = 180
    ) throws {
        var variables = ProcessInfo.processInfo.environment
        variables["NO_COLOR"] = "1"
        variables["COLUMNS"] = nil
        variables["LINES"] = nil
        variables["TERM"] = "vt100"
        variables.merge(tool.environment) { $1 }
        for (name, value) in environment { variables[name] = value }
        let plan = String(decoding: try JSONEncoder().encode(steps), as: UTF8.self)
        let run = try ProcessRun(
            "/usr/bin/env", ["python3", Self.script, plan, String(seconds), FolioTool.path] + arguments,
            in: tool.folder, environment: variables, timeout: seconds + 60)
        guard run.status == 0, let data = run.output.data(using: .utf8) else {
            throw SessionFailed(description: "terminal-session.py exited \(run.status): \(run.errors)")
        }
        self = try JSONDecoder().decode(Self.self, from: data)
    }

    struct SessionFailed: Error, CustomStringConvertible {
        var description: String
    }
}
