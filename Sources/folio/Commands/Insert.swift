import ArgumentParser
import FolioCore
import FolioJSON
import Foundation

extension FolioCommand {
    /// `folio insert`: a new document.
    struct Insert: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "insert", abstract: "Add a document, checked against the schema, and print its path.",
            discussion: """
                Values are read by the property's type: text for a String; for a Date, now, \
                today, 2026-11-22 or '2026-11-22 09:30' (in the store's time zone) or \
                2026-11-22T09:30:00Z; else JSON (count=3, done=true), else text. Write \
                name:=json to give JSON outright. Optional properties left out are null.

                A value of a unique property (.unique, #Unique, the manifest's rules) that \
                another document holds is refused, naming that document. With --upsert, that \
                document is replaced by the new one instead, as SwiftData's insert does: it \
                keeps its identity and file, and takes the values given (properties left out \
                take their initial values, as in any insert).

                A to-one relationship takes the related document's id: its UUID, or its first \
                4 or more digits as a table shows it.

                Example:
                  folio insert TodoItem text='Buy tea' isCompleted=false sortOrder=0 \\
                    createdAt=now updatedAt=now timer=<timer id>

                \(Failure.commandHelpText)
                """)

        @OptionGroup var store: StoreOptions

        @Argument(help: "The entity.")
        var entity: String

        @Argument(help: ArgumentHelp("The property values.", valueName: "property=value"))
        var assignments: [String] = []

        @Flag(
            help:
                "Replace the document that holds the new one's unique values (or its id) with it, as SwiftData's insert does, instead of refusing."
        )
        var upsert = false

        func run() throws {
            try Failure.reporting {
                // The entity's folder stays unloaded: the commit checks the new identity against a walk.
                let store = try store.open(reads: .oneCommand)
                _ = try store.parseQuery("true", entity: entity)
                var values = try Assignment.values(assignments, entity: entity, in: store)
                var document = try store.newDocument(entity: entity, values: values)
                // The key the identity is given under: "$id" for a model without an `id` of its own.
                let identityKey = document.content["$id"] != nil ? "$id" : "id"
                let replaced =
                    upsert
                    ? try Self.upsertTarget(of: document, identityGiven: values[identityKey] != nil, in: store) : nil
                if let replaced, replaced.id != document.id {
                    // The document replaced keeps its identity, so what points at it still does.
                    values[identityKey] = .string(replaced.id.uuidString)
                    document = try store.newDocument(entity: entity, values: values)
                }
                let changes = store.changes(putting: document, over: replaced)
                let summary: CommitSummary
                do throws(FolioError) {
                    summary = try UniqueRefusal.commit(
                        changes, in: store,
                        hint:
                            "insert another value, change the other document first (folio set), or pass --upsert to replace it with the new one, as SwiftData's insert does"
                    ) { $0.id == document.id ? "a new \(entity)" : "\($0.entity) \($0.id)" }
                } catch {
                    guard error.kind == .conflict, error.path?.hasSuffix("/\(document.id.uuidString).json") == true
                    else { throw error }
                    throw FolioError.invalidInput(
                        "\(entity) \(document.id) already exists; change it with `folio set \(document.id) property=value`, replace it with `folio insert --upsert`, or insert without an id to make a new one"
                    )
                }
                for path in summary.versions.keys.sorted() { Terminal.print("\(path.relativePath)") }
                if let replaced {
                    Terminal.printError("note: replaced \(replaced.path.relativePath) (--upsert)")
                }
            }
        }

        /// The stored document an insert with `--upsert` replaces: the one of the new
        /// document's identity when one was given, else the one that holds one of its unique
        /// values; `nil` when there is none. Throws when the values are held by more than one
        /// document, or by one whose identity is not the one given (the file a document is
        /// in is its identity: replacing it with another would leave what points at it dangling).
        static func upsertTarget(of document: Document, identityGiven: Bool, in store: DocumentStore)
            throws(FolioError) -> StoredDocument?
        {
            if identityGiven, let same = store.document(entity: document.entity, id: document.id) { return same }
            let clashes = store.uniqueClashes(in: [.put(document, basedOn: nil)])
            var holders: [UUID: UniqueClash] = [:]
            for clash in clashes where holders[clash.holder] == nil { holders[clash.holder] = clash }
            guard let clash = clashes.first, let path = clash.holderPath else { return nil }
            guard holders.count == 1 else {
                let named = holders.values.sorted { $0.holder.uuidString < $1.holder.uuidString }.map {
                    "\($0.holderPath?.relativePath ?? $0.holder.uuidString) (\($0.shownValues))"
                }
                throw FolioError(
                    .constraint,
                    "--upsert replaces one document, but the new \(document.entity)'s unique values are held by \(holders.count): \(named.joined(separator: ", ")); nothing was written",
                    hint: "change or delete all but one of them first, or insert values only one of them holds")
            }
            guard !identityGiven else {
                throw FolioError(
                    .constraint,
                    "--upsert replaces \(path.relativePath), which holds \(clash.shownValues), but keeps its identity \(clash.holder), and the id given is \(document.id); nothing was written",
                    hint: "leave the id out, or give \(clash.holder)")
            }
            return store.document(entity: path.entity, id: path.id)
        }
    }

    /// `folio set`: new values for properties of documents.
    struct SetValues: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set properties of one document, or of every document a query matches, in one transaction.",
            discussion: """
                Example:
                  folio set 0F6C1E2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B name='Morning run'
                  folio set FocusSession 'state == "active"' state=abandoned
                  folio set 0F6C1E2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B count=4 --if-unchanged 3b18e51

                With --if-unchanged, the document is changed only if its revision is still the \
                one given (read it first with `folio get --revision`, then the document); else \
                the command exits 75, and a script reads both again and retries.

                \(Failure.commandHelpText)
                """)

        @OptionGroup var store: StoreOptions

        @Argument(
            help: ArgumentHelp(
                "A document's id (a UUID, or its first 4 or more digits) or path, or an entity name.",
                valueName: "document-or-entity"))
        var target: String

        @Argument(
            help: ArgumentHelp(
                "With an entity: a query for the documents, then the values; else the values.",
                valueName: "query? property=value"))
        var rest: [String] = []

        @OptionGroup var condition: RevisionCondition

        func run() throws {
            try Failure.reporting {
                let store = try store.open()
                let isDocument = try DocumentTarget.document(target, orEntity: true, in: store) != nil
                let query = !isDocument && rest.first.map(Assignment.isAssignment) == false ? rest.first : nil
                let assignments = Array(rest.dropFirst(query == nil ? 0 : 1))
                guard !assignments.isEmpty else { throw FolioError.invalidInput("nothing to set: add property=value") }
                guard isDocument || query != nil else {
                    throw FolioError.invalidInput(
                        "\(target) is an entity: give a query for the documents to change (e.g. 'name == \"Tea\"', or 'true' for all of them) before the values"
                    )
                }
                let documents = try DocumentTarget.resolve(target, query: query, in: store)
                if condition.revision != nil {
                    guard isDocument, let document = documents.first else {
                        throw FolioError.invalidInput(
                            "--if-unchanged compares one document's revision: name the document by its id or path, not by a query"
                        )
                    }
                    try condition.check(document, in: store)
                }
                var written: [(document: Document, old: StoredDocument?)] = []
                for document in documents {
                    let values = try Assignment.values(assignments, entity: document.entity, in: store)
                    written.append((try store.document(document, setting: values), document))
                }
                let changes = store.changes(putting: written)
                let summary = try UniqueRefusal.commit(
                    changes, in: store,
                    hint:
                        "give a value no other document holds (a query that matches several documents gives each the same one), or change the other document first"
                )
                Terminal.print("\(counted(documents.count, "document")) matched, \(summary.written) written")
            }
        }
    }
}
