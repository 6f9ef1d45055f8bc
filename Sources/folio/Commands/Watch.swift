import ArgumentParser
import Dispatch
import FolioCore
import FolioJSON
import Foundation
import Synchronization

extension FolioCommand {
    /// `folio watch`: changes to the documents a query selects, as they happen.
    struct Watch: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "watch",
            abstract: "Print changes to an entity's documents as they happen, one JSON line each.",
            discussion: """
                Watches the store's folder (inotify) and prints a line for each document that \
                starts matching the query (insert), changes while matching (update) or stops \
                matching or goes (delete), whoever changed it: an app, another folio command, a \
                person's editor, git. Each line holds the change, entity, id, file, the history's \
                token and author for it when known, and the document for an insert or update. \
                Runs until interrupted, or until --limit changes were printed (--limit 0 prints \
                nothing and ends at once).

                Example:
                  folio watch FocusSession 'state == "active"'
                  folio watch TodoItem --limit 1 | jq .document.title

                \(Failure.commandHelpText)
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var query: QueryOptions

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                "Stop after printing this many changes (0 or more; 0 prints none and ends at once).",
                valueName: "count"),
            transform: NumberOption.whole(from: 0))
        var limit: Int?

        func run() throws {
            try Failure.reporting {
                let store = try self.store.open()
                let documentQuery = try query.documentQuery(in: store)
                // As `git log -n 0`: nothing to print, so nothing to wait for.
                if limit == 0 { return }
                let folder = store.documentFolder(of: query.entity)
                var matching: [UUID: UInt64] = [:]
                for match in try store.query(documentQuery).matches {
                    matching[match.id] = match.stored?.version.contentHash
                }
                let follower = ChangeFollower(
                    store: store, query: documentQuery, folder: folder, matching: matching,
                    token: try store.lastHistoryToken, limit: limit)
                let watcher = try store.watchFiles { _ in follower.follow() }
                follower.done.wait()
                watcher.stop()
            }
        }
    }
}

/// What `folio watch` knows between bursts of changes: which documents match, with the
/// hash of each one's content, and the history's last token. Used on the watcher's thread only.
private final class ChangeFollower: Sendable {
    let store: DocumentStore
    let query: DocumentQuery
    let folder: String
    let limit: Int?
    /// Signalled when `limit` changes were printed.
    let done = DispatchSemaphore(value: 0)
    private let state: Mutex<(matching: [UUID: UInt64], token: Int64, printed: Int)>

    init(
        store: DocumentStore, query: DocumentQuery, folder: String, matching: [UUID: UInt64], token: Int64, limit: Int?
    ) {
        self.store = store
        self.query = query
        self.folder = folder
        self.limit = limit
        state = Mutex((matching, token, 0))
    }

    /// Refreshes the store and prints the changes to matching documents.
    func follow() {
        do {
            let changes = try store.refresh()
            // Each changed document's file: where it is now, else where it was before it went.
            let files = Dictionary(
                (changes.removed + changes.added + changes.modified).filter { $0.entity == folder }.map {
                    ($0.id, $0.relativePath)
                }, uniquingKeysWith: { $1 })
            let ids = Set(files.keys)
            guard !ids.isEmpty else { return }
            let rows = try store.liveRows(query, among: ids)
            let (records, _) = try store.history(after: state.withLock { $0.token })
            var origin: [UUID: (token: Int64, author: String?)] = [:]
            for record in records {
                for change in record.changes { origin[change.id] = (record.token, record.author) }
            }
            var lines: [String] = []
            state.withLock { state in
                if let last = records.last { state.token = last.token }
                for id in ids.sorted(by: { $0.uuidString < $1.uuidString }) {
                    let before = state.matching[id]
                    var line: JSONObject = [:]
                    if let row = rows[id], let stored = store.document(entity: folder, id: id) {
                        guard before != stored.version.contentHash else { continue }
                        state.matching[id] = stored.version.contentHash
                        line["change"] = .string(before == nil ? "insert" : "update")
                        line["entity"] = .string(stored.content["$entity"]?.stringValue ?? folder)
                        line["id"] = .string(id.uuidString)
                        line["file"] = .string(row.path.relativePath)
                        line["document"] = .object(stored.content)
                    } else {
                        guard before != nil else { continue }
                        state.matching[id] = nil
                        line["change"] = "delete"
                        line["entity"] = .string(folder)
                        line["id"] = .string(id.uuidString)
                        if let file = files[id] { line["file"] = .string(file) }
                    }
                    if let (token, author) = origin[id] {
                        line["token"] = .integer(token)
                        line["author"] = author.map(JSONValue.string) ?? .null
                    }
                    lines.append((try? JSONWriter().line(for: .object(line))) ?? "")
                }
            }
            for line in lines where !line.isEmpty {
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
                let printed = state.withLock { state in
                    state.printed += 1
                    return state.printed
                }
                if let limit, printed >= limit {
                    done.signal()
                    return
                }
            }
        } catch {
            Terminal.printError("folio watch: \(lines: String(describing: error))")
        }
    }
}
