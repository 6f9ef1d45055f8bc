import Foundation
import Glibc

/// Where this `folio` is and where it should be: a build folder is no place to keep it
/// (`swift package clean` or the next build replaces or removes what is there), and a
/// person types `folio` only once it is on `PATH`. `folio git install` and the tour's last
/// line say the same exact command to put it there.
enum Installation {
    /// The first `folio` on `PATH`: as `PATH` names it, and with its links resolved.
    static var onPath: (path: String, resolved: String)? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let path = String(folder) + "/folio"
            guard FileManager.default.isExecutableFile(atPath: path) else { continue }
            return (path, URL(fileURLWithPath: path).resolvingSymlinksInPath().path)
        }
        return nil
    }

    /// Whether a file is this same program: this binary, or a copy of it.
    static func isThisProgram(_ resolved: String) -> Bool {
        resolved == Git.executable || FileManager.default.contentsEqual(atPath: resolved, andPath: Git.executable)
    }

    /// The build folder a path lies in, as the package folder holding it and the build
    /// folder's name (`.build`, or a `.build-*` / `.build_*` scratch path beside it); nil
    /// for a path in none. The path is taken as given: resolve its links first.
    static func buildFolder(of path: String) -> (package: String, name: String)? {
        let components = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard
            let index = components.lastIndex(where: {
                $0 == ".build" || $0.hasPrefix(".build-") || $0.hasPrefix(".build_")
            })
        else { return nil }
        return ("/" + components[..<index].joined(separator: "/"), components[index])
    }

    /// The shell line that puts this program on `PATH` as `folio`: a copy of it when it is
    /// a release build (or no build at all), else a release build of its package first,
    /// since a debug build runs several times slower. It goes where the `folio` on `PATH`
    /// is when that one is another program outside a build folder, else into the first of
    /// `~/.local/bin`, `~/bin` and `/usr/local/bin` on `PATH` this user may write to, else
    /// into `/usr/local/bin` with `sudo`.
    static func command() -> String {
        let running = Git.executable
        let installed = onPath.flatMap { buildFolder(of: $0.path) == nil ? $0.path : nil }
        let destination: String
        var sudo = false
        if let installed {
            destination = installed
            let folder = URL(fileURLWithPath: installed).deletingLastPathComponent().path
            sudo = access(folder, W_OK) != 0
        } else {
            let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
            let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
            let folder = [home + "/.local/bin", home + "/bin", "/usr/local/bin"].first {
                path.contains($0) && access($0, W_OK) == 0
            }
            destination = (folder ?? "/usr/local/bin") + "/folio"
            sudo = folder == nil
        }
        let install = (sudo ? "sudo " : "") + "install -m 755 "
        let isRelease = URL(fileURLWithPath: running).deletingLastPathComponent().lastPathComponent == "release"
        guard let build = buildFolder(of: running), !isRelease else {
            return install + shellWord(running) + " " + shellWord(destination)
        }
        let scratch = build.name == ".build" ? "" : " --scratch-path " + shellWord(build.package + "/" + build.name)
        return "swift build -c release --product folio --package-path " + shellWord(build.package) + scratch
            + " && " + install + shellWord(build.package + "/" + build.name + "/release/folio") + " "
            + shellWord(destination)
    }

    /// A path as a shell word: as it is when it holds nothing the shell reads, else quoted.
    static func shellWord(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || "-_./+,:@=".unicodeScalars.contains($0)
        }
        return plain && !text.isEmpty ? text : Git.shellQuoted(text)
    }
}
