import ArgumentParser
import FolioCore
import FolioJSON

extension FolioCommand {
    /// `folio resolve`: settles the merge conflicts a document records in `"$conflicts"`.
    struct Resolve: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "resolve",
            abstract:
                "Settle a document's merge conflicts (\"$conflicts\"): take ours, theirs, the base, or given values.",
            discussion: """
                `folio check` lists the conflicts with both values. Values given as property=value \
                settle those properties; --ours, --theirs or --base settles every other one. Without \
                a side, conflicts not named stay recorded. Then `git add` the file and commit.

                Example:
                  folio resolve 0F6C1E2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B --theirs
                  folio resolve 0F6C1E2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B name=Workout --ours

                \(Failure.commandHelpText)
                """)

        @OptionGroup var store: StoreOptions

        @Argument(
            help: ArgumentHelp(
                "The document's id (a UUID, or its first 4 or more digits, as a table shows it) or path.",
                valueName: "id-or-path"))
        var document: String

        @Argument(
            help: ArgumentHelp(
                "Values that settle conflicts: property=value (text for String properties, else JSON), property:=json.",
                valueName: "property=value"))
        var assignments: [String] = []

        @Flag(
            help:
                "Which side settles the conflicts not given a value: our value (the one the document holds), theirs, or the common ancestor's."
        )
        var side: MergeChoice?

        func validate() throws {
            guard side != nil || !assignments.isEmpty else {
                throw ValidationError("say how to settle: --ours, --theirs, --base, or property=value")
            }
        }

        func run() throws {
            try Failure.reporting {
                let store = try store.open()
                guard let stored = try DocumentTarget.document(document, in: store) else {
                    throw FolioError.invalidInput(
                        "\(document) is neither a document's id (a UUID, or its first 4 or more digits) nor a document path"
                    )
                }
                let values = try Assignment.values(assignments, entity: stored.entity, in: store)
                let path = stored.path.relativePath
                let settled = try MergeConflict.resolving(stored.content, choice: side, values: values, path: path)
                let next = try store.document(stored, replacingWith: settled)
                let changes: [DocumentChange] = [.put(next, basedOn: stored.version)]
                try UniqueRefusal.commit(
                    changes, in: store,
                    hint:
                        "settle the property with a value no other document holds (property=value), or change the other document first"
                )
                let left = MergeConflict.recorded(in: settled)
                if left.isEmpty {
                    Terminal.print("\(path): conflicts settled; `git add` it and commit to finish the merge")
                } else {
                    Terminal.print("\(path): still in conflict: \(left.map(\.property).joined(separator: ", "))")
                }
            }
        }
    }
}

extension MergeChoice: EnumerableFlag {}
