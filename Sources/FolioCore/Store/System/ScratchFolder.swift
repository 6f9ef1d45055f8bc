import FolioJSON
import Foundation
import Glibc

/// A new folder in the system's temporary folder that only this user can enter (mode
/// 0700, made by `mkdtemp`), for copies of a store's documents: a migration's working
/// copy, an in-memory store, the `edit` command's file.
///
/// The shared temporary folder is writable by everyone; a folder of our own, made with a
/// name no one could have planted beforehand, keeps other users from reading the data and
/// from swapping a file in it for a link.
package struct ScratchFolder: Sendable {
    /// The folder's absolute path.
    package let path: String

    /// Makes the folder, named `folio-<purpose>-` and six random characters.
    package init(purpose: String) throws(FolioError) {
        let parent = FileManager.default.temporaryDirectory.path(percentEncoded: false)
        var template = Array(((parent.hasSuffix("/") ? parent : parent + "/") + "folio-\(purpose)-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw .fileSystem(
                path: parent, operation: "make a private folder for \(purpose)", reason: FileBytes.systemError())
        }
        path = String(cString: made)
    }

    /// The folder as a URL.
    package var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// The path of an entry in the folder.
    package func path(of name: String) -> String { path + "/" + name }

    /// Removes the folder and everything in it; links in it are removed, not followed.
    /// Failing costs nothing of the user's (the system cleans its temporary folder too),
    /// so it is not reported.
    package func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
