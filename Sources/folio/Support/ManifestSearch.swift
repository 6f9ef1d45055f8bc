import FolioCore
import FolioJSON
import Foundation
import Glibc

/// Finds the manifest of the store a file belongs to, for `folio textconv`: in the store's
/// folder where the diff driver names it, else in the file's folder or the nearest folder
/// above it that has one. No link is followed: a folder that is a symbolic link ends the
/// walk, and a `folio.json` that is one is not read.
///
/// Git hands a textconv a temporary copy of a version it holds (in the system's temporary
/// folder), and the working tree's own file where it has one, from the top of the work
/// tree. `folio git install` therefore gives each store a diff driver that names its folder.
/// For a driver that does not (an older install's `diff=folio`), where the file's folders
/// hold no manifest, the walk starts again from the current folder, then looks one folder
/// down from it: a store at the top of the work tree, or in a folder at its top.
enum ManifestSearch {
    /// The manifest for the file at `path`: the one in `store` when given and it has one
    /// (the folder `folio git install` names in the store's diff driver), else the nearest
    /// as above; nil where none is found or it does not read.
    static func manifest(for path: String, store: String? = nil) -> StoreManifest? {
        if let store, let manifest = read(store) { return manifest }
        let current = FileManager.default.currentDirectoryPath
        let absolute = path.hasPrefix("/") ? path : current + "/" + path
        let folder = (absolute as NSString).deletingLastPathComponent
        if let found = upward(from: folder) ?? upward(from: current) { return found }
        return below(current)
    }

    /// The manifest in `folder` or the nearest folder above it.
    private static func upward(from folder: String) -> StoreManifest? {
        var folder = (folder as NSString).standardizingPath
        while true {
            var info = stat()
            guard lstat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
            if let manifest = read(folder) { return manifest }
            guard folder != "/", !folder.isEmpty else { return nil }
            folder = (folder as NSString).deletingLastPathComponent
        }
    }

    /// The one manifest of the folders right below `folder` (none when two disagree on the time zone).
    private static func below(_ folder: String) -> StoreManifest? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        var found: StoreManifest?
        for name in names.sorted() where !name.hasPrefix(".") {
            var info = stat()
            guard lstat(folder + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFDIR,
                let manifest = read(folder + "/" + name)
            else { continue }
            if let found, found.timeZone != manifest.timeZone { return nil }
            found = found ?? manifest
        }
        return found
    }

    /// The manifest in `folder`, read without following a link; nil where there is none
    /// or it does not read as one.
    private static func read(_ folder: String) -> StoreManifest? {
        let path = folder + "/" + StoreManifest.fileName
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size <= 16 << 20,
            let bytes = try? GitProcess.bytes(writtenTo: descriptor),
            let json = try? JSONReader().read(bytes, file: path)
        else { return nil }
        return try? StoreManifest(json: json, path: path, text: bytes)
    }
}
