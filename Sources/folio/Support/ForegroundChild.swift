import CFolioSystem
import FolioCore
import Foundation
import Glibc

/// A program the tool runs in its own process group, sharing the terminal as a command a
/// shell runs does: the editor of `folio edit`, git that may ask for a password.
///
/// Foundation's `Process` starts every child in a new process group on Linux. On a terminal
/// that group is a background job: the kernel stops it (SIGTTIN, SIGTTOU) the moment it reads
/// the terminal or changes its modes, ^C never reaches it, and the tool waits for it forever.
/// A `ForegroundChild` is started with `posix_spawn` and no new group, so it is in the
/// terminal's foreground group whenever the tool is, as the programs git runs are (a tool run
/// in the background takes its child there with it, and `fg` brings both back).
///
/// The program starts with no signal blocked, SIGINT and SIGQUIT at their defaults unless the
/// tool was started with them ignored (as a shell starts a command it puts in the background
/// without job control), and no descriptor of the tool's but its three streams.
struct ForegroundChild {
    /// How the program ended.
    enum Ending: Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// This signal ended it.
        case signalled(Int32)

        /// The terminal's interrupt that ended it, SIGINT (^C) or SIGQUIT (^\): a death by one,
        /// or the exit status a shell reports for one (128 and the signal), read as git reads
        /// its editor's.
        var interrupt: Int32? {
            switch self {
            case .signalled(let signal) where signal == SIGINT || signal == SIGQUIT: signal
            case .exited(let status) where status == 128 + SIGINT || status == 128 + SIGQUIT: status - 128
            default: nil
            }
        }

        /// The ending in words: "exited with status 3", "was ended by signal 9 (Killed)".
        var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .signalled(let signal): "was ended by signal \(signal) (\(String(cString: strsignal(signal))))"
            }
        }
    }

    /// Where one of the program's standard streams goes.
    enum Stream {
        /// To the tool's own: the terminal, when the tool has one.
        case tool
        /// To `/dev/null`.
        case nothing
        /// To this open descriptor of the tool's.
        case descriptor(Int32)
    }

    /// Who ^C and ^\ end while the program runs: both reach the whole foreground group.
    enum Interrupts {
        /// The program and the tool, as ^C ends a `git pull` and the git programs it runs.
        case endBoth
        /// The program only: the tool ignores them until the program ends, as git does while its
        /// editor runs, and then reports how it ended (an editor may use ^C itself, and go on).
        case leftToTheProgram
    }

    /// A program that could not be started or waited for.
    struct Failure: Error, CustomStringConvertible {
        /// "start" or "wait for".
        var operation: String
        /// The `errno` of the call that failed.
        var code: Int32
        /// Why, in the system's words: "No such file or directory".
        var reason: String { String(cString: strerror(code)) }
        var description: String { "could not \(operation) the program: \(reason)" }
    }

    /// The program and its arguments; a name without a slash is looked for on `PATH`.
    var arguments: [String]
    /// The folder it runs in, when not the tool's.
    var folder: String? = nil
    var input = Stream.tool
    var output = Stream.tool
    var errors = Stream.tool
    var interrupts = Interrupts.endBoth

    /// Starts the program and waits for it to end (a wait a signal breaks off is taken up again).
    func run() throws(Failure) -> Ending {
        let name = arguments.first ?? ""
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        func check(_ code: Int32) throws(Failure) {
            guard code == 0 else { throw Failure(operation: "start", code: code) }
        }

        for (number, stream) in [(STDIN_FILENO, input), (STDOUT_FILENO, output), (STDERR_FILENO, errors)] {
            switch stream {
            case .tool: break
            case .nothing:
                let mode = number == STDIN_FILENO ? O_RDONLY : O_WRONLY
                try check(posix_spawn_file_actions_addopen(&actions, number, "/dev/null", mode, 0))
            case .descriptor(let descriptor):
                try check(posix_spawn_file_actions_adddup2(&actions, descriptor, number))
            }
        }
        if let folder { try check(folio_spawn_add_chdir(&actions, folder)) }
        try check(folio_spawn_add_closefrom(&actions, STDERR_FILENO + 1))

        // Ignored before the start, not after it: a ^C in between would end the tool and leave
        // the program running. The program gets back the defaults the tool set aside.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        var setAside: [(signal: Int32, action: sigaction)] = []
        defer {
            for (signal, action) in setAside {
                var action = action
                sigaction(signal, &action, nil)
            }
        }
        if interrupts == .leftToTheProgram {
            for signal in [SIGINT, SIGQUIT] {
                var ignore = sigaction()
                ignore.__sigaction_handler.sa_handler = SIG_IGN
                sigemptyset(&ignore.sa_mask)
                var previous = sigaction()
                sigaction(signal, &ignore, &previous)
                setAside.append((signal, previous))
                let handler = unsafeBitCast(previous.__sigaction_handler.sa_handler, to: Int.self)
                if handler != unsafeBitCast(SIG_IGN, to: Int.self) { sigaddset(&defaults, signal) }
            }
        }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        try check(posix_spawnattr_setsigmask(&attributes, &unblocked))
        try check(posix_spawnattr_setsigdefault(&attributes, &defaults))
        try check(posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)))

        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var child: pid_t = 0
        try check(posix_spawnp(&child, name, &actions, &attributes, argv, environ))

        var status: Int32 = 0
        while waitpid(child, &status, 0) == -1 {
            guard errno == EINTR else { throw Failure(operation: "wait for", code: errno) }
        }
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
    }

    /// Ends the tool by `signal`, as the interrupt the program took would have ended it: a shell
    /// then sees an interrupted command and stops the loop or script running it.
    static func end(by signal: Int32) -> Never {
        fflush(nil)
        Glibc.signal(signal, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(signal)
        exit(128 + signal)
    }
}

/// A program run in the foreground that the terminal's ^C or ^\ ended while the tool ignored
/// them (`ForegroundChild.Interrupts.leftToTheProgram`): once whatever it unwinds through has
/// cleaned up, `Failure.reporting` prints `error` and ends the tool by the same signal, as
/// git does after its editor.
struct InterruptedChild: Error {
    /// What was interrupted, and what became of the work.
    var error: FolioError
    /// SIGINT or SIGQUIT.
    var signal: Int32
}
