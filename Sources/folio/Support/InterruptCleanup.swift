import Foundation
import Glibc

/// Removes a scratch file and its folder when the tool is interrupted (SIGINT), told to
/// stop (SIGTERM) or loses its terminal (SIGHUP), then dies of the same signal, as it
/// would have without the handler.
///
/// The handler may only make async-signal-safe calls, so the paths are C strings made
/// before it is installed, kept in globals (a C handler captures nothing). One cleanup at
/// a time: `folio edit` is the only user.
enum InterruptCleanup {
    private nonisolated(unsafe) static var file: UnsafeMutablePointer<CChar>?
    private nonisolated(unsafe) static var folder: UnsafeMutablePointer<CChar>?
    private static let signals = [SIGINT, SIGTERM, SIGHUP]

    /// Removes `file`, then the folder (when the editor left nothing else in it), on any of the signals.
    static func install(file path: String, folder folderPath: String) {
        file = strdup(path)
        folder = strdup(folderPath)
        for signal in signals { Glibc.signal(signal, handle) }
        // A process inherits its parent's blocked signals (a program started from a thread
        // that blocks them all, as a dispatch worker does): unblocked here, or they would
        // stay pending and the tool could not be stopped at all.
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals + [SIGQUIT] { sigaddset(&set, signal) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Puts the signals back as they were before `install`.
    static func uninstall() {
        for signal in signals { Glibc.signal(signal, SIG_DFL) }
        free(file)
        free(folder)
        (file, folder) = (nil, nil)
    }

    private static let handle: @convention(c) (Int32) -> Void = { received in
        if let file = InterruptCleanup.file { unlink(file) }
        if let folder = InterruptCleanup.folder { rmdir(folder) }
        Glibc.signal(received, SIG_DFL)
        raise(received)
    }
}
