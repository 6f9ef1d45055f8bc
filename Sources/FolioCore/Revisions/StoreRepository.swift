import Foundation

/// The git repository a store's folder is in, read and never written: every command is
/// one of git's reading commands, run with an argument vector, with the settings of a
/// user's configuration that would change what the tool reads (or run a program) turned off
/// for the run alone (`-c`, which writes no configuration).
struct StoreRepository {
    /// The store's folder, where git runs.
    let folder: String
    /// The store's folder relative to the top of the work tree, ending in `/`, or empty
    /// when the store is the whole work tree.
    let prefix: String

    /// The repository the store at `folder` is in; throws when it is in none.
    init(storeFolder folder: String) throws(FolioError) {
        self.folder = folder
        let run = try GitProcess(arguments: ["rev-parse"] + Self.workTreeQuestions, folder: folder).run()
        guard run.succeeded else {
            throw FolioError(
                .invalidStore,
                "is not in a git repository, so it has no past to read (git said: \(Self.firstLine(of: run.errors)))",
                path: folder,
                hint: "commit the store with git (`git init`, `git add`, `git commit`) to keep its past")
        }
        let lines = String(decoding: run.output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 3, lines[0] == "false", lines[1] == "false" else {
            throw FolioError(
                .invalidStore,
                "is \(lines.first == "true" ? "a bare repository" : "inside a repository's .git folder"), which holds git's objects but no store folder",
                path: folder,
                hint: "clone it (`git clone`) and pass --store the store's folder in the clone")
        }
        self.prefix = String(lines[2])
    }

    /// What `git rev-parse` is asked of the store's folder: whether the repository is bare,
    /// whether the folder is inside `.git`, and the folder's path in the work tree (three
    /// lines: `false`, `false`, the prefix, for a store).
    private static let workTreeQuestions = ["--is-bare-repository", "--is-inside-git-dir", "--show-prefix"]

    private init(folder: String, prefix: String) {
        (self.folder, self.prefix) = (folder, prefix)
    }

    /// The repository the store at `folder` is in and the commits `revisions` name, in
    /// order, asked of one `git rev-parse` (where `init(storeFolder:)` and `commit(named:)`
    /// start git once each). Where that run does not answer plainly (no repository, a bare
    /// one, a revision that names no commit or is a range), they run apart, for their errors.
    static func resolving(_ revisions: [String], inStoreAt folder: String) throws(FolioError) -> (
        repository: StoreRepository, commits: [String]
    ) {
        if revisions.allSatisfy({ isRevisionText($0) && !$0.contains("..") }) {
            // `--` after the revisions: text that names no commit is an error, not a path.
            let ending = try GitProcess(
                arguments: settings.flatMap { ["-c", $0] }
                    + ["rev-parse"] + workTreeQuestions + ["--end-of-options"]
                    + revisions.map { $0 + "^{commit}" } + ["--"],
                folder: folder
            ).run()
            if ending.succeeded, let answer = answer(ending.output, commits: revisions.count) {
                return (StoreRepository(folder: folder, prefix: answer.prefix), answer.commits)
            }
        }
        let repository = try StoreRepository(storeFolder: folder)
        var commits: [String] = []
        for revision in revisions { commits.append(try repository.commit(named: revision)) }
        return (repository, commits)
    }

    /// The prefix and the commits in `rev-parse`'s lines (`false`, `false`, the prefix, the
    /// `--end-of-options` that git 2.39 echoes, a whole hash a revision, `--`); nil
    /// unless they are exactly that, for a work tree.
    private static func answer(_ output: [UInt8], commits count: Int) -> (prefix: String, commits: [String])? {
        var lines = String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.last == "" else { return nil }
        lines.removeLast()
        guard lines.count >= 3, lines[0] == "false", lines[1] == "false" else { return nil }
        var commits = lines[3...]
        if commits.first == "--end-of-options" { commits.removeFirst() }
        if commits.last == "--" { commits.removeLast() }
        guard commits.count == count, commits.allSatisfy(isWholeHash) else { return nil }
        return (String(lines[2]), commits.map(String.init))
    }

    /// Whether text is an object's whole hash as git prints it (SHA-1 or SHA-256).
    private static func isWholeHash(_ text: Substring) -> Bool {
        (text.utf8.count == 40 || text.utf8.count == 64)
            && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Settings of a user's configuration that change the output read here, or run a program.
    static let settings = [
        "log.follow=false", "log.showSignature=false", "diff.renames=false", "diff.relative=false",
        "core.quotePath=true", "color.ui=false", "log.decorate=false", "i18n.logOutputEncoding=UTF-8",
    ]

    /// Runs a reading git command in the store's folder.
    func run(_ arguments: [String], input: [UInt8] = []) throws(FolioError) -> GitProcess.Ending {
        try GitProcess(arguments: Self.settings.flatMap { ["-c", $0] } + arguments, folder: folder, input: input).run()
    }

    /// Runs a reading git command; throws with git's message when it fails.
    func checked(_ arguments: [String], input: [UInt8] = []) throws(FolioError) -> [UInt8] {
        let ending = try run(arguments, input: input)
        guard ending.succeeded else {
            throw FolioError(
                .externalProgram,
                "git \(arguments.first ?? "") failed (exit \(ending.status)): \(Self.firstLine(of: ending.errors))",
                path: folder)
        }
        return ending.output
    }

    /// The commit a revision names (a branch, a tag, a commit's hash or its start,
    /// `HEAD~2`), as its whole hash. Text that git could read as an option (starting with
    /// `-`) or that holds a control character is refused before git runs.
    func commit(named revision: String) throws(FolioError) -> String {
        guard Self.isRevisionText(revision) else {
            throw FolioError(
                .invalidInput, "\"\(revision)\" is not a revision",
                hint: "give a branch, a tag or a commit's hash, such as main, HEAD~2 or 1a2b3c4")
        }
        let ending = try run(["rev-parse", "--verify", "--quiet", "--end-of-options", revision + "^{commit}"])
        guard ending.succeeded else {
            let shallow = try run(["rev-parse", "--is-shallow-repository"])
            let isShallow = String(decoding: shallow.output, as: UTF8.self).hasPrefix("true")
            throw FolioError(
                .notFound, "the repository holding \(folder) has no commit \(revision)",
                hint: isShallow
                    ? "this clone is shallow, so its history ends early: `git fetch --unshallow` fetches the rest"
                    : "see its commits with `git log --oneline`; a new repository has none until the first commit")
        }
        return String(decoding: ending.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether text may be given to git as a revision: not empty, not read as an option
    /// (starting with `-`), and holding no control character.
    private static func isRevisionText(_ revision: String) -> Bool {
        !revision.isEmpty && !revision.hasPrefix("-")
            && !revision.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
    }

    /// The id of the tree the store's folder was at `commit` (a whole hash), or nil when the
    /// commit holds no such folder.
    func storeTree(at commit: String) throws(FolioError) -> String? {
        // `<commit>:<path>` takes the rest of the text as the path, so its type is asked apart.
        let name = prefix.isEmpty ? commit + "^{tree}" : commit + ":" + prefix.dropLast()
        let ending = try run(["rev-parse", "--verify", "--quiet", "--end-of-options", name])
        guard ending.succeeded else { return nil }
        let id = String(decoding: ending.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let type = try run(["cat-file", "-t", id])
        return String(decoding: type.output, as: UTF8.self).hasPrefix("tree") ? id : nil
    }

    /// One file of a tree, as `git ls-tree -r` lists it.
    struct TreeFile {
        /// Its mode: `100644` or `100755` for a file, `120000` for a link, `160000` for a submodule.
        var mode: String
        /// Its blob's id.
        var blob: String
        /// Its path within the tree.
        var path: String
    }

    /// Every file of the tree `tree`, in its subfolders too.
    func files(inTree tree: String) throws(FolioError) -> [TreeFile] {
        // `--full-tree`: in a subfolder, git would list only the part of the tree under it.
        let output = try checked(["ls-tree", "-r", "-z", "--full-tree", "--end-of-options", tree])
        return output.split(separator: 0).compactMap { entry in
            // "<mode> <type> <id>\t<path>"
            guard let tab = entry.firstIndex(of: 0x09) else { return nil }
            let fields = String(decoding: entry[..<tab], as: UTF8.self).split(separator: " ")
            guard fields.count == 3 else { return nil }
            return TreeFile(
                mode: String(fields[0]), blob: String(fields[2]),
                path: String(decoding: entry[(tab + 1)...], as: UTF8.self))
        }
    }

    /// Whether a commit git lists without parents has parents in its object: the end of a
    /// shallow clone's history, past which git holds nothing.
    func isShallowBoundary(_ commit: String) throws(FolioError) -> Bool {
        let object = String(decoding: try checked(["cat-file", "commit", commit]), as: UTF8.self)
        let header = object.components(separatedBy: "\n\n").first ?? ""
        return header.split(separator: "\n").contains { $0.hasPrefix("parent ") }
    }

    /// What one `git cat-file --batch-check` says of each object name (an id, or
    /// `<commit>:<path>` with a path of the store's own making), in order: the blob's id and
    /// size, or nil where the name is no blob the repository holds.
    func blobSizes(_ names: [String]) throws(FolioError) -> [StoredBlob?] {
        guard !names.isEmpty else { return [] }
        let output = try checked(["cat-file", "--batch-check"], input: Array(names.map { $0 + "\n" }.joined().utf8))
        let lines = output.split(separator: 0x0A, omittingEmptySubsequences: false)
        return names.indices.map { index in
            // "<id> blob <size>", or "<name> missing".
            guard index < lines.count else { return nil }
            let fields = lines[index].split(separator: 0x20)
            guard fields.count == 3, fields[1].elementsEqual("blob".utf8),
                let size = Int(String(decoding: fields[2], as: UTF8.self))
            else { return nil }
            return StoredBlob(object: String(decoding: fields[0], as: UTF8.self), size: size)
        }
    }

    /// The sizes of blobs by their ids, asked of one `git cat-file --batch-check`; an id the
    /// repository does not hold is left out.
    func sizes(ofBlobs ids: Set<String>) throws(FolioError) -> [String: Int] {
        var sizes: [String: Int] = [:]
        for found in try blobSizes(Array(ids)) { if let found, let size = found.size { sizes[found.object] = size } }
        return sizes
    }

    /// The contents of blobs by their ids, read with one `git cat-file --batch`; an id the
    /// repository does not hold is left out.
    func blobs(_ ids: [String]) throws(FolioError) -> [String: [UInt8]] {
        var found: [String: [UInt8]] = [:]
        try eachBlob(asked: Array(ids.map { $0 + "\n" }.joined().utf8)) { id, bytes in
            found[String(decoding: id, as: UTF8.self)] = Array(bytes)
        }
        return found
    }

    /// Hands `body` each blob one `git cat-file --batch` read for `input` (object names, one
    /// a line): its id as git printed it and its bytes. A name the repository does not hold,
    /// or one that is not a blob, is passed over.
    func eachBlob(asked input: [UInt8], _ body: (ArraySlice<UInt8>, ArraySlice<UInt8>) -> Void) throws(FolioError) {
        guard !input.isEmpty else { return }
        let output = try checked(["cat-file", "--batch"], input: input)
        var index = 0
        while index < output.count {
            // "<id> <type> <size>\n<bytes>\n", or "<name> missing\n".
            guard let end = output[index...].firstIndex(of: 0x0A) else { break }
            let header = output[index..<end]
            index = end + 1
            guard let first = header.firstIndex(of: 0x20), let last = header.lastIndex(of: 0x20), first < last else {
                continue
            }
            var size = 0
            for digit in header[(last + 1)...] {
                guard (0x30...0x39).contains(digit), size < Int.max / 20 else {
                    size = -1
                    break
                }
                size = size * 10 + Int(digit - 0x30)
            }
            guard size >= 0, index + size <= output.count else { continue }
            if header[(first + 1)..<last].elementsEqual("blob".utf8) {
                body(header[..<first], output[index..<index + size])
            }
            index += size + 1
        }
    }

    /// A message's first line, for an error.
    static func firstLine(of text: String) -> String {
        text.split(separator: "\n").first.map(String.init) ?? "no message"
    }
}
