import Dispatch
import FolioJSON
import Glibc
import Synchronization

/// Every document and blob file in a store's tree, with its stamp, from a `stat`-only walk.
///
/// Only the layout `<Entity>/<YYYY>/<MM>/<DD>/<file>` is walked. Hidden names
/// (`.git`, `.folio`, editors' swap files) and files at the root are passed over;
/// anything else out of place (a symbolic link, a stray folder or file name) is an
/// issue, and links are never followed. The walk works on directory descriptors and
/// raw names: a file costs one `fstatat` and no string, which keeps it near a bare
/// `stat` walk in C.
struct TreeListing {
    struct Entry {
        var path: DocumentPath
        var stamp: FileStamp
    }

    /// A document file as a walk for a match against a cache file's records lists it (see
    /// `keysOnly`): its place in store order and its stamp, in half an `Entry`'s memory.
    struct KeyedEntry {
        var key: DocumentPath.OrderKey
        var stamp: FileStamp
    }

    private(set) var documents: [Entry] = []
    /// The documents, when the walk lists them by key (`keysOnly`), in place of `documents`.
    private(set) var keyedDocuments: [KeyedEntry] = []
    private(set) var blobs: [Entry] = []
    private(set) var issues: [StoreIssue] = []
    /// Files a transaction staged in a day folder (`.<name>.staged`) and never renamed,
    /// relative to the root: left by a writer that crashed, or by one still under way.
    private(set) var stagedFiles: [String] = []

    /// Only the entity folders named in `folders` are walked (and issues at the root
    /// reported only for those names), or the whole tree when `folders` is `nil`.
    private let folders: Set<String>?
    /// Whether documents are listed by key (`keyedDocuments`): for a walk of one folder that
    /// a cache file's records are matched against, where a million `Entry`s took 104 MB.
    private let keysOnly: Bool

    /// Day folders opened but not listed yet: listed together when their month is done, on
    /// every core (a file's `fstatat` is most of a walk's time, and they do not wait on each other).
    private var pendingDays: [(descriptor: Int32, folder: Folder)] = []

    /// An empty listing a day folder's files are gathered in, on a core of its own.
    private init(folders: Set<String>?, keysOnly: Bool) { (self.folders, self.keysOnly) = (folders, keysOnly) }

    init(root: OpenFolder, folders: Set<String>? = nil, expectedDocuments: Int = 0, keysOnly: Bool = false)
        throws(FolioError)
    {
        (self.folders, self.keysOnly) = (folders, keysOnly)
        if keysOnly {
            keyedDocuments.reserveCapacity(expectedDocuments)
        } else {
            documents.reserveCapacity(expectedDocuments)
        }
        // A descriptor of its own: a folder's read position belongs to its open file, which
        // the store's descriptor would share with every other walk.
        guard let own = try root.folder(at: "") else {
            throw .invalidStore(path: root.path, reason: "the store's folder is gone")
        }
        try own.withDescriptor { (descriptor) throws(FolioError) in
            guard let folders else { return try walk(descriptor, folder: Folder(relative: "", level: 0)) }
            // Only the folders named, each looked up rather than the root listed: a walk per
            // entity then costs its own folder, where listing the root each time made `info`
            // and `check` quadratic in entities (2,000 took 12 s, 10,000 over 15 minutes).
            for name in folders.sorted() {
                var info = stat()
                guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
                    if errno == ENOENT { continue }
                    throw .fileSystem(path: name, operation: "inspect", reason: FileBytes.systemError())
                }
                try Array(name.utf8).withUnsafeBufferPointer { (bytes) throws(FolioError) in
                    try visit(bytes, info, in: Folder(relative: "", level: 0), folderDescriptor: descriptor)
                }
            }
        }
    }

    /// The listing of files another source names by path (a git tree, see `RevisionTree`),
    /// under the layout's rules as a walk applies them. `body` hands `list` each file's path
    /// relative to the root, in git's order (a folder's files together), its kind and stamp.
    /// Hidden names are passed over, as a walk passes them over; none is a staged file here.
    init(
        folders: Set<String>?, expectedDocuments: Int, keysOnly: Bool,
        listedBy body: (_ list: (ArraySlice<UInt8>, Kind, FileStamp) -> Void) -> Void
    ) {
        var listing = TreeListing(folders: folders, keysOnly: keysOnly)
        if keysOnly {
            listing.keyedDocuments.reserveCapacity(expectedDocuments)
        } else {
            listing.documents.reserveCapacity(expectedDocuments)
        }
        // The folders the last path went through, by name, with what the rules made of each
        // (nil: passed over, or an issue already reported): the next path shares most of them.
        var through: [(name: ArraySlice<UInt8>, folder: Folder?)] = []
        body { path, kind, stamp in
            let names = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            guard !names.contains(where: { $0.first == UInt8(ascii: ".") }) else { return }
            var folder = Folder(relative: "", level: 0)
            for (level, name) in names.dropLast().enumerated() {
                if level < through.count, through[level].name.elementsEqual(name) {
                    guard let known = through[level].folder else { return }
                    folder = known
                    continue
                }
                through.removeSubrange(level...)
                let child = name.withUnsafeBufferPointer { listing.place($0, kind: .folder, stamp: stamp, in: folder) }
                through.append((name, child))
                guard let child else { return }
                folder = child
            }
            _ = names.last!.withUnsafeBufferPointer { listing.place($0, kind: kind, stamp: stamp, in: folder) }
        }
        self = listing
    }

    /// Where the walk is: the folder's path relative to the root, its depth, and what
    /// the levels above it said (entity name, year, month, day).
    private struct Folder {
        var relative: String
        var level: Int
        var entity = ""
        var year = 0
        var month = 0
        var day: Day?

        func child(_ name: String) -> String { relative.isEmpty ? name : relative + "/" + name }
    }

    /// The names of the levels below the root, for messages.
    private static let levelNames = ["entity", "year", "month", "day"]

    private mutating func walk(_ descriptor: Int32, folder: Folder) throws(FolioError) {
        guard let directory = fdopendir(dup(descriptor)) else {
            throw .fileSystem(path: folder.relative, operation: "list", reason: FileBytes.systemError())
        }
        defer { closedir(directory) }
        if folder.level == 3 {
            defer {
                for day in pendingDays { close(day.descriptor) }
                pendingDays = []
            }
            try listEntries(of: directory, folder: folder)
            try listPendingDays()
        } else {
            try listEntries(of: directory, folder: folder)
        }
    }

    /// Lists the day folders a month's listing opened, on every core, and takes in what
    /// each found, in the order they were opened (so the listing does not depend on timing).
    private mutating func listPendingDays() throws(FolioError) {
        guard !pendingDays.isEmpty else { return }
        let days = pendingDays
        let parts = Mutex([Result<TreeListing, FolioError>?](repeating: nil, count: days.count))
        DispatchQueue.concurrentPerform(iterations: days.count) { [folders, keysOnly] index in
            var part = TreeListing(folders: folders, keysOnly: keysOnly)
            let result: Result<TreeListing, FolioError>
            do throws(FolioError) {
                try part.walk(days[index].descriptor, folder: days[index].folder)
                result = .success(part)
            } catch {
                result = .failure(error)
            }
            parts.withLock { $0[index] = result }
        }
        for part in parts.withLock({ $0 }) {
            switch part {
            case .success(let part)?:
                documents += part.documents
                keyedDocuments += part.keyedDocuments
                blobs += part.blobs
                issues += part.issues
                stagedFiles += part.stagedFiles
            case .failure(let error)?: throw error
            case nil: break
            }
        }
    }

    private mutating func listEntries(of directory: OpaquePointer, folder: Folder) throws(FolioError) {
        let folderDescriptor = dirfd(directory)
        while let entry = readdir(directory) {
            try withUnsafeBytes(of: &entry.pointee.d_name) { (raw) throws(FolioError) in
                let name = UnsafeBufferPointer(
                    start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    count: strlen(raw.baseAddress!.assumingMemoryBound(to: CChar.self)))
                guard name.first != UInt8(ascii: ".") else {
                    if folder.level == 4, Self.isStaged(name) { stagedFiles.append(folder.child(Self.text(name))) }
                    return
                }
                var info = stat()
                guard
                    fstatat(
                        folderDescriptor, raw.baseAddress!.assumingMemoryBound(to: CChar.self), &info,
                        AT_SYMLINK_NOFOLLOW) == 0
                else {
                    if errno == ENOENT { return }  // removed while walking
                    throw .fileSystem(
                        path: folder.child(Self.text(name)), operation: "inspect", reason: FileBytes.systemError())
                }
                try visit(name, info, in: folder, folderDescriptor: folderDescriptor)
            }
        }
    }

    private mutating func visit(
        _ name: UnsafeBufferPointer<UInt8>, _ info: stat, in folder: Folder, folderDescriptor: Int32
    ) throws(FolioError) {
        guard let child = place(name, kind: Kind(info), stamp: FileStamp(info), in: folder) else { return }
        let descriptor = openat(folderDescriptor, Self.text(name), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            if errno == ENOENT { return }
            throw .fileSystem(path: child.relative, operation: "open the folder", reason: FileBytes.systemError())
        }
        if child.level == 4 {
            pendingDays.append((descriptor, child))  // closed when the month's days are listed
            return
        }
        defer { close(descriptor) }
        try walk(descriptor, folder: child)
    }

    /// What a name in a folder is, as far as the layout cares.
    enum Kind {
        case file, link, folder, other

        init(_ info: stat) {
            switch info.st_mode & S_IFMT {
            case S_IFREG: self = .file
            case S_IFLNK: self = .link
            case S_IFDIR: self = .folder
            default: self = .other
            }
        }
    }

    /// Applies the layout's rules to one name found in `folder`: a document or blob file is
    /// listed with `stamp`, anything out of place becomes an issue, and a folder of the
    /// layout is returned for the listing to go into.
    private mutating func place(
        _ name: UnsafeBufferPointer<UInt8>, kind: Kind, stamp: @autoclosure () -> FileStamp, in folder: Folder
    ) -> Folder? {
        if folder.level == 4, kind == .file, let day = folder.day {
            guard let (id, property) = DocumentPath.parseFileName(name) else {
                issue(folder.child(Self.text(name)), "is not named <UUID>.json or <UUID>.<property>.bin")
                return nil
            }
            // The name is the identity, written as `uuidString` writes it: a lower-case name
            // would be a second spelling of one identity, which a case-sensitive file system
            // keeps apart.
            if name.prefix(36).contains(where: { (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }) {
                let text = Self.text(name)
                issue(
                    folder.child(text),
                    "is named with a lower-case UUID; Folio names documents as \(id.uuidString)\(text.dropFirst(36)): rename it so"
                )
                return nil
            }
            if keysOnly, property == nil {
                keyedDocuments.append(KeyedEntry(key: DocumentPath.OrderKey(day: day, id: id), stamp: stamp()))
                return nil
            }
            let found = Entry(
                path: DocumentPath(validEntity: folder.entity, day: day, id: id, blobProperty: property),
                stamp: stamp())
            if property == nil { documents.append(found) } else { blobs.append(found) }
            return nil
        }
        let text = Self.text(name)
        if folder.level == 0, let folders, !folders.contains(text) { return nil }
        if kind == .link {
            if folder.level > 0 || DocumentPath.isIdentifier(text) { issue(folder.child(text), "is a symbolic link") }
            return nil
        }
        if folder.level == 4 {
            issue(folder.child(text), "is not a regular file; a day folder holds only documents and blobs")
            return nil
        }
        guard kind == .folder else {
            if folder.level > 0 {
                issue(folder.child(text), "is a file where the layout has a \(Self.levelNames[folder.level]) folder")
            }
            return nil
        }
        var child = Folder(
            relative: folder.child(text), level: folder.level + 1, entity: folder.entity, year: folder.year,
            month: folder.month)
        switch folder.level {
        case 0:
            // docs, my-notes: not entity folders, passed over
            guard DocumentPath.isIdentifier(text) else { return nil }
            child.entity = text
        case 1:
            guard let year = Self.number(text, digits: 4) else {
                issue(child.relative, "is not a year folder of the <Entity>/<YYYY>/<MM>/<DD> layout")
                return nil
            }
            child.year = year
        case 2:
            guard let month = Self.number(text, digits: 2), (1...12).contains(month) else {
                issue(child.relative, "is not a month folder of the <Entity>/<YYYY>/<MM>/<DD> layout")
                return nil
            }
            child.month = month
        default:
            guard let number = Self.number(text, digits: 2),
                let day = Day(year: folder.year, month: folder.month, day: number)
            else {
                issue(child.relative, "is not a day folder of the <Entity>/<YYYY>/<MM>/<DD> layout")
                return nil
            }
            child.day = day
        }
        return child
    }

    /// Whether a hidden name is a staged file's, `.<something>.staged`.
    private static func isStaged(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let suffix = Journal.stagedSuffix.utf8
        return name.count > suffix.count + 1 && name.suffix(suffix.count).elementsEqual(suffix)
    }

    /// The value of a name made of exactly `digits` ASCII digits.
    private static func number(_ text: String, digits: Int) -> Int? {
        guard text.utf8.count == digits, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        return Int(text)
    }

    private static func text(_ name: UnsafeBufferPointer<UInt8>) -> String { String(decoding: name, as: UTF8.self) }

    private mutating func issue(_ path: String, _ reason: String) {
        issues.append(StoreIssue(path: path, error: .unsafePath(path: path, reason: reason)))
    }
}
