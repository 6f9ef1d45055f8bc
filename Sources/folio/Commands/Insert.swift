import ArgumentParser
import Folio
import FolioJSON

extension FolioCommand {
    /// `folio insert`: a new document.
    struct Insert: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a document, checked against the schema, and print its path.",
            discussion: """
                Values are read by the property's type: text for a String; for a Date, now, \
                today, 2026-11-22 or '2026-11-22 09:30' (in the store's time zone) or \
                2026-11-22T09:30:00Z; else JSON (count=3, done=true), else text. Write \
                name:=json to give JSON outright. Optional properties left out are null.

                Example:
                  folio insert TodoItem text='Buy tea' isCompleted=false sortOrder=0 \\
                    createdAt=now updatedAt=now timer=<timer UUID>

                \(Failure.helpText)
                """)

        @OptionGroup var store: StoreOptions

        @Argument(help: "The entity.")
        var entity: String

        @Argument(help: ArgumentHelp("The property values.", valueName: "property=value"))
        var assignments: [String] = []

        func run() throws {
            try Failure.reporting {
                let store = try store.open()
                // The entity's folder stays unloaded: the commit checks the new identity against a walk.
                store.servesOneCommand = true
                _ = try store.parseQuery("true", entity: entity)
                let document = try store.newDocument(
                    entity: entity, values: try Assignment.values(assignments, entity: entity, in: store))
                let summary: CommitSummary
                do throws(FolioError) {
                    summary = try store.commit(
                        store.changes(putting: document, over: nil), author: FolioCommand.author)
                } catch {
                    guard error.kind == .conflict, error.path?.hasSuffix("/\(document.id.uuidString).json") == true
                    else { throw error }
                    throw FolioError.invalidInput(
                        "\(entity) \(document.id) already exists; change it with `folio set \(document.id) property=value`, or insert without an id to make a new one"
                    )
                }
                for path in summary.versions.keys.sorted() { Terminal.print("\(path.relativePath)") }
            }
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

                \(Failure.helpText)
                """)

        @OptionGroup var store: StoreOptions

        @Argument(help: ArgumentHelp("A document's UUID or path, or an entity name.", valueName: "document-or-entity"))
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
                let isDocument = try DocumentTarget.document(target, in: store) != nil
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
                            "--if-unchanged compares one document's revision: name the document by its UUID or path, not by a query"
                        )
                    }
                    try condition.check(document, in: store)
                }
                var written: [(document: Document, old: StoredDocument?)] = []
                for document in documents {
                    let values = try Assignment.values(assignments, entity: document.entity, in: store)
                    written.append((try store.document(document, setting: values), document))
                }
                let summary = try store.commit(store.changes(putting: written), author: FolioCommand.author)
                Terminal.print("\(counted(documents.count, "document")) matched, \(summary.written) written")
            }
        }
    }
}
