import ArgumentParser
import FolioCore
import FolioJSON
import Foundation

extension FolioCommand {
    /// `folio import`: documents from NDJSON or CSV, in one transaction.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Add or update an entity's documents from an NDJSON or CSV file, all or nothing.",
            discussion: """
                Each record is checked against the schema; the first bad one stops the import with \
                its line number, and nothing is written. Unique values (.unique, #Unique, the \
                manifest's rules) are checked against the other records and the store's other \
                documents before anything is committed: every record that would share one is \
                named, with the line or the document that holds it too, and nothing is written. \
                A file that is not UTF-8 is refused with the line and the byte offset of the first \
                bytes that are no character. A record \
                whose identity ("id", or "$id" for models without one) the store holds updates \
                that document; others are added. Keys the schema does not know are kept, as a save \
                keeps them, so an export imports back whole. A record's "$deleted" moment is kept \
                (delete rules do not run), and its "$entity" may name an entity inheriting from \
                this one; the store writes "$version", and a new document's members in declaration \
                order.

                CSV is read as `folio export --format csv` writes it (see `folio help export`): a \
                header of $id, property names, $entity, $deleted and $unknown (the members the \
                schema does not know, as a JSON object); an empty cell is null, or for a required \
                property nothing (a new document takes its initial value, a stored one keeps its \
                own); "" is the empty text; (absent) leaves the member out; a ' before text that \
                would read otherwise is taken off; text columns are read as they are, dates as \
                stored or as 2026-11-22 09:30 in the store's time zone, other columns as JSON \
                (or as text where they are not JSON).

                With --dry-run, every record is checked and every bad one listed with its line, \
                reading on past each, and nothing is written.

                Example:
                  folio import FocusSession sessions.ndjson
                  folio import TodoItem todos.csv --format csv --dry-run

                \(Failure.commandHelpText)
                """)

        @OptionGroup var store: StoreOptions

        @Argument(help: "The entity.")
        var entity: String

        @Argument(help: "The file; - for standard input.")
        var file: String

        @Option(help: "ndjson or csv (default: by the file's extension, else ndjson).")
        var format: OutputFormat?

        @Flag(
            help:
                "Check every record and list every bad one, with its line; write nothing. Exit 65 when any is bad."
        )
        var dryRun = false

        func run() throws {
            try Failure.reporting {
                let store = try store.open()
                _ = try store.parseQuery("true", entity: entity)
                let format = format ?? (file.hasSuffix(".csv") ? .csv : .ndjson)
                let lines = try LineReader(file)
                defer { lines.close() }
                var records = ImportRecords(lines, format: format, entity: entity, store: store)
                // By bytes of the file read, since how many records it holds is known only at its end.
                let progress = Progress(
                    dryRun ? "check" : "import", total: lines.size ?? 0, unit: lines.size == nil ? .items : .bytes,
                    noun: "records")
                if dryRun {
                    try checkEveryRecord(&records, in: store, progress: progress, measured: lines.size != nil)
                    return
                }
                // Keys the schema does not know are kept, as a save keeps them, so an export
                // imports back whole; CSV carries them in its "$unknown" column.
                var unknownKeys = Set<String>()
                var count = 0
                // The unique values the records write, checked against each other as they come and
                // against the store's other documents at the end, before the commit point.
                var unique = UniqueWrites(store)
                let entities = ImportedEntities(of: entity, in: store)
                func refusal(stoppedBy error: FolioError? = nil) -> FolioError {
                    UniqueRefusal.error(
                        unique.clashes,
                        hint:
                            "give each record a value no other document holds, or the identity (\"id\", or \"$id\" for models without one) of the stored document it is to update",
                        file: file,
                        nothing: "nothing was imported"
                            + (error.map { "; reading stopped at another error: \($0.reason)" } ?? "")
                    ) { "\(file):\($0.row ?? 0)" }
                }
                /// The next record as a document, and the stored one it replaces. Once a record
                /// would share a unique value, none is handed on: the rest are read for their
                /// values, and the import then fails, naming every record that would.
                func next() throws(FolioError) -> (document: Document, existing: StoredDocument?)? {
                    while true {
                        let read: (line: Int, record: JSONObject, absent: [String])?
                        do throws(FolioError) { read = try records.next() } catch {
                            throw unique.hasClashes ? refusal(stoppedBy: error) : error
                        }
                        guard let (line, record, absent) = read else { break }
                        count += 1
                        progress.advance(to: lines.size == nil ? count : records.bytesRead, count: count)
                        let made: (document: Document, existing: StoredDocument?, unknown: [String])
                        do throws(FolioError) {
                            made = try Self.document(
                                for: record, without: absent, entity: entity, in: store, entities: entities)
                        } catch {
                            let located = FolioError(error.kind, "\(file):\(line): \(error.reason)")
                            throw unique.hasClashes ? refusal(stoppedBy: located) : located
                        }
                        unknownKeys.formUnion(made.unknown)
                        unique.add(made.document, replacing: made.existing?.content, at: made.existing?.path, row: line)
                        if !unique.hasClashes { return (made.document, made.existing) }
                    }
                    unique.compareWithStore()
                    if unique.hasClashes { throw refusal() }
                    return nil
                }
                let summary: CommitSummary
                if store.writesOtherSides(of: entity) {
                    // Each document may write the other sides of its relationships, in other
                    // folders: one commit of them all, held in memory.
                    var written: [(document: Document, old: StoredDocument?)] = []
                    while let (document, existing) = try next() { written.append((document, existing)) }
                    summary = try store.commit(store.changes(putting: written), author: FolioCommand.author)
                } else {
                    // The records of a file are read and checked on a second core, a few batches
                    // ahead of the one that writes them: `next` and what it touches are that
                    // thread's until `finish`, which the end of this block calls before `count` and
                    // `unknownKeys` are read below. Not those of standard input or a pipe, whose next
                    // read may wait for a person: an import that fails would wait with it.
                    // Each document's file is made there too (`prepared`): this thread writes.
                    func prepared() throws(FolioError) -> PreparedDocument? {
                        guard let (document, existing) = try next() else { return nil }
                        return try store.prepared(document, basedOn: existing?.version)
                    }
                    let ahead = lines.size == nil ? nil : ReadAhead(prepared)
                    defer { ahead?.finish() }
                    var committing = false
                    summary = try store.importPrepared(
                        into: entity, author: FolioCommand.author,
                        committing: { placed, total in
                            if !committing {
                                committing = true
                                progress.stage("commit", total: total)
                            }
                            progress.advance(to: placed, count: placed)
                        }
                    ) { () throws(FolioError) -> PreparedDocument? in
                        guard let ahead else { return try prepared() }
                        return try ahead.next()
                    }
                }
                progress.finish()
                Terminal.print(
                    "\(counted(count, "record")): \(summary.written) written, \(summary.unchanged) unchanged")
                if !unknownKeys.isEmpty {
                    Terminal.printError(
                        "note: kept keys \(entity)'s schema does not know, as a save keeps them: \(unknownKeys.sorted().joined(separator: ", ")) (folio check lists them)"
                    )
                }
            }
        }

        /// `--dry-run`: reads every record as the import would and reports each bad one, reading
        /// on past it, then the clashes of unique values; writes nothing. A file that cannot be
        /// read on (its CSV header, a quote never closed, bytes that are not UTF-8) stops it there.
        func checkEveryRecord(
            _ records: inout ImportRecords, in store: DocumentStore, progress: Progress, measured: Bool
        ) throws {
            var (count, bad) = (0, 0)
            var unique = UniqueWrites(store)
            let entities = ImportedEntities(of: entity, in: store)
            func report(_ error: FolioError) {
                bad += 1
                progress.finish()
                Terminal.printError(
                    Terminal.diagnostic(error.description, shownAs: Terminal.colour("error:", 31, onError: true)))
            }
            while true {
                let read: ImportRecords.Read?
                do throws(FolioError) { read = try records.nextRead() } catch {
                    report(error)
                    break
                }
                guard let read else { break }
                count += 1
                progress.advance(to: measured ? records.bytesRead : count, count: count)
                switch read {
                case .bad(_, let error):
                    report(error)  // its message names the line, as the import's own does
                case .record(let line, let record, let absent):
                    do throws(FolioError) {
                        let made = try Self.document(
                            for: record, without: absent, entity: entity, in: store, entities: entities)
                        unique.add(
                            made.document, replacing: made.existing?.content, at: made.existing?.path, row: line)
                    } catch {
                        report(FolioError(error.kind, "\(file):\(line): \(error.reason)"))
                    }
                }
            }
            unique.compareWithStore()
            progress.finish()
            if unique.hasClashes {
                report(
                    UniqueRefusal.error(
                        unique.clashes, hint: "give each record a value no other document holds", file: file,
                        nothing: "nothing was written (a dry run)"
                    ) { "\(file):\($0.row ?? 0)" })
            }
            Terminal.print(
                "\(counted(count, "record")) read: \(bad == 0 ? "all good" : "\(bad) bad"); nothing written (a dry run)"
            )
            if bad > 0 { throw ExitCode(Failure.Code.data.rawValue) }
        }

        /// A record's property values: metadata such as "$version" is the store's to write.
        static func properties(of record: JSONObject) -> JSONObject {
            JSONObject(record.filter { !$0.key.hasPrefix("$") }.map { ($0.key, $0.value) })
        }

        /// The document a record makes: the stored one of its identity with the record's
        /// values set, else a new one of the record's entity (`"$entity"`, when it is one
        /// inheriting from `entity`), soft-deleted when the record has a `"$deleted"` moment,
        /// without the members of optional properties `absent` names. Also the keys it keeps
        /// that the schema does not know.
        static func document(
            for record: JSONObject, without absent: [String], entity: String, in store: DocumentStore,
            entities: ImportedEntities
        ) throws(FolioError) -> (document: Document, existing: StoredDocument?, unknown: [String]) {
            var stated: String?
            if let value = record["$entity"] {
                guard let name = value.stringValue, entities.family.contains(name) else {
                    throw .invalidValue(
                        "\"$entity\" is \(value), which is neither \(entity) nor an entity inheriting from it; import it as its own entity"
                    )
                }
                stated = name
            }
            let stating = entities.shape(of: stated ?? entity)
            let identityKey = stating.identityKey
            // "id" names a model without its own `id` in files that earlier exports wrote.
            let given = record[identityKey] ?? (stating.declaresID ? nil : record["id"])
            let identity = given?.stringValue.flatMap(UUID.init(uuidString:))
            if let given = record[identityKey], identity == nil, identityKey == "$id" {
                throw .invalidValue("the identity \(given) is not a UUID like \"\(UUID().uuidString)\"")
            }
            let existing = identity.flatMap { store.document(entity: entity, id: $0) }
            let own = existing?.content["$entity"]?.stringValue ?? stated ?? entity
            if let stated, stated != own {
                throw .invalidValue("\"$entity\" is \"\(stated)\", but the store holds this document as \(own)")
            }
            let shape = entities.shape(of: own)
            let known = shape.known
            let properties = Self.properties(of: record)
            let values = JSONObject(properties.filter { known.contains($0.key) }.map { ($0.key, $0.value) })
            let unknown = properties.filter { !known.contains($0.key) }
            var document: Document
            if let existing {
                var content = existing.content
                for member in values { content[member.key] = member.value }
                for key in absent { content.removeValue(forKey: key) }
                document = try store.document(existing, replacingWith: content)
            } else {
                var values = values
                if let identity, values[identityKey] == nil { values[identityKey] = .string(identity.uuidString) }
                document = try store.newDocument(entity: own, values: values)
                // What a new document gets for a property left out (null, an initial value),
                // it does not have; an optional one may be so, as the schema check allows.
                for key in absent { document.content.removeValue(forKey: key) }
                // Nor a member for a value documents do not hold (.ephemeral, .externalStorage).
                for name in shape.unstored where values[name] == nil { document.content.removeValue(forKey: name) }
            }
            if let deleted = record["$deleted"], deleted != .null {
                guard (try? Date(json: deleted)) != nil else {
                    throw .invalidValue("\"$deleted\" is \(deleted), not a time like \"2026-11-22T09:30:00Z\"")
                }
                // With the metadata, as a soft delete writes it.
                if document.content["$deleted"] != nil {
                    document.content["$deleted"] = deleted
                } else {
                    let position = document.content.keys.prefix { ["$entity", "$version", "$id"].contains($0) }.count
                    document.content.insert(deleted, forKey: "$deleted", at: position)
                }
            }
            for member in unknown { document.content[member.key] = member.value }
            return (document, existing, unknown.map(\.key))
        }
    }
}
