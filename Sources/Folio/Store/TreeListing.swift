import FolioJSON
import Glibc

/// Every document and blob file in a store's tree, with its stamp, from a `stat`-only walk.
///
/// Only the layout `<Entity>/<YYYY>/<MM>/<DD>/<file>` is walked. Hidden names
/// (`.git`, `.folio`, editors' swap files) and files at the root are passed over;
/// anything else out of place (a symbolic link, a stray folder or file name) is an
/// issue, and links are never followed.
struct TreeListing {
    struct Entry {
        var path: DocumentPath
        var stamp: FileStamp
    }

    private(set) var documents: [Entry] = []
    private(set) var blobs: [Entry] = []
    private(set) var issues: [StoreIssue] = []

    init(root: String) throws(FolioError) {
        let rootDescriptor = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard rootDescriptor >= 0 else {
            throw .fileSystem(path: root, operation: "open the store folder", reason: FileBytes.systemError())
        }
        defer { close(rootDescriptor) }
        try walk(rootDescriptor, relative: "", level: 0)
    }

    /// The levels below the root: entity, year, month, day, then files.
    private static let levelNames = ["entity", "year", "month", "day"]

    private mutating func walk(_ descriptor: Int32, relative: String, level: Int) throws(FolioError) {
        guard let directory = fdopendir(dup(descriptor)) else {
            throw .fileSystem(path: relative, operation: "list", reason: FileBytes.systemError())
        }
        defer { closedir(directory) }
        let folderDescriptor = dirfd(directory)
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix(".") { continue }
            let path = relative.isEmpty ? name : relative + "/" + name
            var info = stat()
            guard fstatat(folderDescriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
                if errno == ENOENT { continue }  // removed while walking
                throw .fileSystem(path: path, operation: "inspect", reason: FileBytes.systemError())
            }
            let kind = info.st_mode & S_IFMT
            if kind == S_IFLNK {
                if level > 0 || DocumentPath.isIdentifier(name) { issue(path, "is a symbolic link") }
                continue
            }
            if level < 4 {
                if kind == S_IFDIR {
                    try descend(folderDescriptor, name: name, path: path, level: level)
                } else if level > 0 {
                    issue(path, "is a file where the layout has a \(Self.levelNames[level]) folder")
                }
                continue
            }
            guard kind == S_IFREG else {
                issue(path, "is a folder inside a day folder, which holds only documents and blobs")
                continue
            }
            guard let documentPath = DocumentPath(relativePath: path) else {
                issue(path, "is not named <UUID>.json or <UUID>.<property>.bin")
                continue
            }
            let found = Entry(path: documentPath, stamp: FileStamp(info))
            if documentPath.blobProperty == nil { documents.append(found) } else { blobs.append(found) }
        }
    }

    private mutating func descend(_ parent: Int32, name: String, path: String, level: Int) throws(FolioError) {
        let valid: Bool =
            switch level {
            case 0: DocumentPath.isIdentifier(name)
            case 1: name.utf8.count == 4 && name.allSatisfy(\.isASCII) && Int(name) != nil
            case 2: name.utf8.count == 2 && (1...12).contains(Int(name) ?? 0)
            default: DocumentPath(relativePath: path + "/00000000-0000-0000-0000-000000000000.json") != nil
            }
        guard valid else {
            if level > 0 { issue(path, "is not a \(Self.levelNames[level]) folder of the <Entity>/<YYYY>/<MM>/<DD> layout") }
            // Root folders that are not identifiers (docs, my-notes) are not entity folders: passed over.
            return
        }
        let child = openat(parent, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
        guard child >= 0 else {
            if errno == ENOENT { return }
            throw .fileSystem(path: path, operation: "open the folder", reason: FileBytes.systemError())
        }
        defer { close(child) }
        try walk(child, relative: path, level: level + 1)
    }

    private mutating func issue(_ path: String, _ reason: String) {
        issues.append(StoreIssue(path: path, error: .unsafePath(path: path, reason: reason)))
    }
}
