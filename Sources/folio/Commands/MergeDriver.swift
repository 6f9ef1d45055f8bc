import ArgumentParser
import FolioCore
import FolioJSON
import Foundation

extension FolioCommand {
    /// `folio merge-driver`: git's merge driver for documents, by property instead of by line.
    struct MergeDriver: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merge-driver",
            abstract: "Merge one document three ways by property, for git (installed by `folio git install`).",
            discussion: """
                Git runs this with the common ancestor, our version, their version and the file's \
                path (%O %A %B %P). Changes to different properties merge; the same change on both \
                sides is taken once; a soft delete against an edit keeps both. A property both sides \
                changed differently goes by the manifest's "merge" policy: "newest" takes the side \
                with the later updatedAt/modifiedAt, "keep-both" (the default) keeps our value and \
                records both in "$conflicts" for `folio check` and `folio resolve`. The result is \
                written canonically into <ours>; exit 0 when clean, 1 when conflicts remain. A file \
                that does not parse falls back to git's line merge with conflict markers. Two \
                documents of different identities (paired by git's rename detection) are never \
                merged: ours is left as it was, in conflict.

                Example:
                  git config merge.folio.driver "folio merge-driver %O %A %B %P"

                \(Failure.commandHelpText)
                """)

        @Argument(
            help: ArgumentHelp(
                "The common ancestor's version (empty when both sides added the file).", valueName: "base"))
        var base: String
        @Argument(help: ArgumentHelp("Our version; the result is written here.", valueName: "ours"))
        var ours: String
        @Argument(help: ArgumentHelp("Their version.", valueName: "theirs"))
        var theirs: String
        @Argument(
            help: ArgumentHelp("The file's path in the repository, to find the store's manifest.", valueName: "path"))
        var path: String?

        func run() throws {
            try Failure.reporting {
                let shownPath = path ?? ours
                let parsed: (base: JSONObject?, ours: JSONObject, theirs: JSONObject)
                do throws(FolioError) {
                    parsed = try (
                        Self.object(at: base, emptyIsNil: true), Self.object(at: ours, emptyIsNil: false)!,
                        Self.object(at: theirs, emptyIsNil: false)!
                    )
                } catch {
                    Terminal.printError(
                        "folio merge-driver: \(shownPath): \(error.reason); merged by line instead, with conflict markers"
                    )
                    try Self.lineMerge(base: base, ours: ours, theirs: theirs)
                    throw ExitCode(Failure.Code.found.rawValue)
                }
                let identities = [parsed.ours, parsed.theirs].map { $0["id"] ?? $0["$id"] }
                if identities[0] != identities[1] {
                    // Git paired two different documents (rename detection: a purged one and a new
                    // look-alike). Blending them, by property or by line, would make one document of
                    // two, so nothing is merged: ours stays as it is and git records a conflict; their
                    // document is still git's stage 3 (`git checkout --theirs`).
                    let names = identities.map { $0?.stringValue ?? "no identity" }.joined(separator: " and ")
                    Terminal.printError(
                        "folio merge-driver: \(shownPath): git paired two different documents (\(names)), likely by rename detection; not merged: ours is kept as it was and the file is left in conflict. Keep ours with `git add`, or take theirs with `git checkout --theirs`; `folio git install` turns rename detection off so this does not recur"
                    )
                    throw ExitCode(Failure.Code.found.rawValue)
                }
                let manifest = path.flatMap(Self.manifest(near:))
                let entity = parsed.ours["$entity"]?.stringValue ?? parsed.theirs["$entity"]?.stringValue
                let merge = DocumentMerge(
                    policy: manifest?.merge ?? MergePolicy(),
                    setProperties: entity.map {
                        Self.setProperties(of: $0, in: manifest?.storedSchema ?? StoredSchema([:]))
                    } ?? [])
                let result = merge.merge(base: parsed.base, ours: parsed.ours, theirs: parsed.theirs)
                if entity == nil, !result.conflicts.isEmpty {
                    // Not a document (the manifest, another JSON file): no "$conflicts" there, so git's markers.
                    Terminal.printError(
                        "folio merge-driver: \(shownPath): not a Folio document and both sides changed \(result.conflicts.map(\.property).joined(separator: ", ")); merged by line instead"
                    )
                    try Self.lineMerge(base: base, ours: ours, theirs: theirs)
                    throw ExitCode(Failure.Code.found.rawValue)
                }
                let bytes: [UInt8]
                do throws(JSONError) { bytes = try JSONWriter().write(.object(result.content)) } catch {
                    throw FolioError.unreadableJSON(error)
                }
                do { try Data(bytes).write(to: URL(fileURLWithPath: ours)) } catch {
                    throw FolioError.fileSystem(
                        path: ours, operation: "write the merged document", reason: error.localizedDescription)
                }
                if !result.settledByPolicy.isEmpty {
                    Terminal.printError(
                        "folio merge-driver: \(shownPath): \(result.settledByPolicy.joined(separator: ", ")) taken from the side changed last (merge policy \"newest\")"
                    )
                }
                if !result.conflicts.isEmpty {
                    Terminal.printError(
                        "folio merge-driver: \(shownPath): conflicts on \(result.conflicts.map(\.property).joined(separator: ", ")) kept in \"$conflicts\" with both values; settle with `folio resolve`"
                    )
                    throw ExitCode(Failure.Code.found.rawValue)
                }
            }
        }

        /// The JSON object in a file; nil for an empty file when `emptyIsNil`.
        static func object(at file: String, emptyIsNil: Bool) throws(FolioError) -> JSONObject? {
            let bytes: [UInt8]
            do { bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file))) } catch {
                throw .fileSystem(path: file, operation: "read", reason: error.localizedDescription)
            }
            if emptyIsNil, bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return nil }
            let value: JSONValue
            do { value = try JSONReader().read(bytes, file: file) } catch { throw .unreadableJSON(error) }
            guard let object = value.objectValue else {
                throw .invalidDocument(path: file, reason: "a document must be a JSON object")
            }
            return object
        }

        /// Git's own line merge into `ours`, with conflict markers where the lines conflict.
        static func lineMerge(base: String, ours: String, theirs: String) throws(FolioError) {
            let folder = URL(fileURLWithPath: ours).deletingLastPathComponent().path
            let run = try Git(folder: folder).run([
                "merge-file", "-L", "ours", "-L", "base", "-L", "theirs", ours, base, theirs,
            ])
            // merge-file exits with the number of conflicts, or 255 when it could not merge at all.
            guard run.status < 255 else {
                throw .externalProgram(
                    "git merge-file could not merge \(ours): \(run.errors.trimmingCharacters(in: .whitespacesAndNewlines)); both versions are left as git gave them"
                )
            }
        }

        /// The manifest of the store holding a path (relative to the folder git runs in), if any.
        static func manifest(near path: String) -> StoreManifest? {
            var folder = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL
            for _ in 0..<8 {
                // Read as a store reads it: a link in folio.json's place is not followed.
                do {
                    if let manifest = try StoreManifest.read(inFolder: folder.path) { return manifest }
                } catch {
                    return nil
                }
                folder = folder.deletingLastPathComponent()
            }
            return nil
        }

        /// An entity's to-many relationships stored as arrays (those whose inverse is not a to-one).
        static func setProperties(of entity: String, in schema: StoredSchema) -> Set<String> {
            var names: Set<String> = []
            for property in schema.entity(named: entity)?.properties ?? [] where property.isToMany {
                guard let name = property.name else { continue }
                if let inverse = property.inverse, let destination = property.destination,
                    let back = schema.entity(named: destination)?.property(named: inverse), !back.isToMany
                {
                    continue
                }
                names.insert(name)
            }
            return names
        }
    }
}
