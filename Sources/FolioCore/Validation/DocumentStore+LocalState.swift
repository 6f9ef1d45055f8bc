import Glibc

extension DocumentStore {
    /// What `check` says of `.folio/`, Folio's local state: a link anywhere in it (an error:
    /// Folio refuses to follow it), entries Folio did not put there (notes: ignored, and
    /// left alone), and a committed transaction that could not be finished (an error).
    func localStateFindings() -> [StoreFinding] {
        var findings: [StoreFinding] = []
        if let unfinished = unfinishedTransaction {
            findings.append(
                StoreFinding(
                    .error, path: Journal.folder,
                    message: unfinished.reason + "; fix the cause, and the next command that writes finishes it"))
        }
        // What cannot be read is said, never passed over: an unreadable `.folio/` hides the
        // state (a journal to finish, a link) that the check is there to report.
        func unreadable(_ path: String, _ error: FolioError) {
            findings.append(
                StoreFinding(
                    .error, path: path,
                    message: "cannot be read (\(error.reason)); give this user access to it, then check again"))
        }
        func inspect(_ relative: String, known: (String, stat) -> Bool) -> [String] {
            let names: [String]
            let opened: OpenFolder
            do throws(FolioError) {
                guard let found = try folder.folder(at: relative) else { return [] }  // not made yet
                opened = found
                names = try opened.list()
            } catch {
                unreadable(relative, error)
                return []
            }
            var folders: [String] = []
            for name in names.sorted() {
                let path = relative + "/" + name
                let found: stat?
                do throws(FolioError) { found = try opened.status(of: name) } catch {
                    unreadable(path, error)
                    continue
                }
                guard let info = found else { continue }  // removed since the listing
                if FileSystem.isSymbolicLink(info) {
                    findings.append(
                        StoreFinding(
                            .error, path: path,
                            message:
                                "is a symbolic link; Folio refuses to follow it, so the store cannot be used until it is removed"
                        ))
                } else if !known(name, info) {
                    findings.append(
                        StoreFinding(
                            .note, path: path,
                            message:
                                "is not Folio's; Folio ignores it and leaves it alone (remove it if nothing needs it)"))
                } else if FileSystem.isDirectory(info) {
                    folders.append(path)
                }
            }
            return folders
        }
        _ = inspect(".folio") { name, info in
            switch name {
            case "lock": FileSystem.isRegularFile(info)
            // A file: the one cache of a store Folio has not opened since the cache was split by folder.
            case "cache": FileSystem.isDirectory(info) || FileSystem.isRegularFile(info)
            case "journal", "history": FileSystem.isDirectory(info)
            default: name.hasPrefix("cache.") && name.hasSuffix(".tmp")  // a cache write cut short
            }
        }
        _ = inspect(DocumentCache.folderName) { name, info in
            // A folder's cache, or one whose write was cut short (`<Folder>.<pid>.tmp`).
            let folder = name.hasSuffix(".tmp") ? String(name.prefix { $0 != "." }) : name
            return DocumentPath.isIdentifier(folder) && FileSystem.isRegularFile(info)
        }
        _ = inspect(HistoryLog.folder) { name, info in HistoryLog.isFileName(name) && FileSystem.isRegularFile(info) }
        let segments: [Int64]
        do throws(FolioError) { segments = try HistoryLog.segments(in: folder) } catch {
            findings.append(StoreFinding(.error, path: HistoryLog.folder, message: error.reason))
            segments = []
        }
        for segment in segments {
            do { try HistoryLog.forEachRecord(segment: segment, in: folder, keepingChanges: false) { _ in } } catch {
                findings.append(
                    StoreFinding(.error, path: HistoryLog.segmentPath(segment), message: error.reason))
            }
        }
        let journals = inspect(Journal.folder) { name, info in
            Journal.isJournalName(name) && FileSystem.isDirectory(info)
        }
        for journal in journals {
            _ = inspect(journal) { name, info in Journal.isRecordName(name) && FileSystem.isRegularFile(info) }
        }
        return findings
    }
}
