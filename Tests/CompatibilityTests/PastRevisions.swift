import Folio
import FolioTestSupport
import Foundation
import Testing

/// A shelf of books, to read relationships at a revision.
@Model
final class PastShelf {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \PastBook.shelf) var books: [PastBook] = []
    init(name: String) { self.name = name }
}

/// A book on a shelf.
@Model
final class PastBook {
    var title: String
    var shelf: PastShelf?
    init(title: String, shelf: PastShelf? = nil) {
        self.title = title
        self.shelf = shelf
    }
}

/// `ModelConfiguration(url:revision:)`: a read-only container on the store as a git revision
/// held it, written as an app would, on real repositories whose work tree is the store.
struct PastRevisionTests {
    /// A repository whose work tree is a version 1 mail store: "Hello" and "Lunch?" in the
    /// first commit; "Hello" renamed "Hello again" and "Tea" added in the second.
    func mailRepository() throws -> GitScratchRepository {
        let repository = try GitScratchRepository()
        let context = ModelContext(
            try ModelContainer(
                for: MailV1.Email.self,
                configurations: ModelConfiguration(url: URL(fileURLWithPath: repository.path), durability: .none)))
        let hello = MailV1.Email(subject: "Hello", sender: "ada@example.com")
        context.insert(hello)
        context.insert(MailV1.Email(subject: "Lunch?", sender: "bob@example.com"))
        try context.save()
        try repository.commitAll("two emails")
        hello.subject = "Hello again"
        context.insert(MailV1.Email(subject: "Tea", sender: "cy@example.com"))
        try context.save()
        try repository.commitAll("a third")
        return repository
    }

    /// What no reader of the past may change: the work tree's status, the index, the refs.
    func state(of repository: GitScratchRepository) throws -> [String] {
        let index = try Data(contentsOf: URL(fileURLWithPath: repository.path + "/.git/index"))
        return [
            index.base64EncodedString(),
            String(decoding: try repository.git("--no-optional-locks", "status", "--porcelain"), as: UTF8.self),
            String(decoding: try repository.git("for-each-ref"), as: UTF8.self),
        ]
    }

    /// The subjects of the emails a container holds, in order.
    func subjects(in container: ModelContainer) throws -> [String] {
        try ModelContext(container).fetch(FetchDescriptor<MailV1.Email>(sortBy: [SortDescriptor(\.subject)])).map(
            \.subject)
    }

    @Test func aContainerAtARevisionFetchesWhatThatCommitHeldAndNeverSaves() throws {
        let repository = try mailRepository()
        let url = URL(fileURLWithPath: repository.path)
        let before = try state(of: repository)
        let past = try ModelContainer(
            for: MailV1.Email.self, configurations: ModelConfiguration(url: url, revision: "HEAD~1"))
        #expect(try subjects(in: past) == ["Hello", "Lunch?"])
        let context = ModelContext(past)
        #expect(
            try context.fetchCount(
                FetchDescriptor<MailV1.Email>(predicate: #Predicate { $0.sender.contains("example.com") })) == 2)
        let hello = try #require(
            try context.fetch(FetchDescriptor<MailV1.Email>(predicate: #Predicate { $0.subject == "Hello" })).first)
        hello.subject = "Rewritten"
        let error = try #require(throws: FolioError.self) { try context.save() }
        #expect(error.kind == .misuse)
        #expect(error.description.contains("HEAD~1"), "\(error)")

        let present = try ModelContainer(for: MailV1.Email.self, configurations: ModelConfiguration(url: url))
        #expect(try subjects(in: present) == ["Hello again", "Lunch?", "Tea"])
        #expect(try state(of: repository) == before)
    }

    @Test func anOlderSchemaAtARevisionIsReadThroughThePlanWithoutChangingTheStore() throws {
        let repository = try mailRepository()
        let url = URL(fileURLWithPath: repository.path)
        let manifest = try String(contentsOf: url.appending(path: "folio.json"), encoding: .utf8)
        let before = try state(of: repository)
        let past = try ModelContainer(
            for: MailV2.Email.self, migrationPlan: MailPlan.self,
            configurations: ModelConfiguration(url: url, revision: "HEAD~1"))
        let emails = try ModelContext(past).fetch(FetchDescriptor<MailV2.Email>(sortBy: [SortDescriptor(\.subject)]))
        #expect(emails.map(\.from) == ["ada@example.com", "bob@example.com"])
        #expect(emails.allSatisfy { !$0.isRead })

        // A plan that cannot reach the models' version names the versions.
        let error = try #require(throws: FolioError.self) {
            _ = try ModelContainer(
                for: MailV2.Email.self, migrationPlan: GappedMailPlan.self,
                configurations: ModelConfiguration(url: url, revision: "HEAD~1"))
        }
        #expect(error.kind == .migration)
        #expect(error.description.contains("1.0.0"), "\(error)")
        #expect(try String(contentsOf: url.appending(path: "folio.json"), encoding: .utf8) == manifest)
        #expect(try state(of: repository) == before)
    }

    @Test func relationshipsAtARevisionAreThoseOfThatCommit() throws {
        let repository = try GitScratchRepository()
        let url = URL(fileURLWithPath: repository.path)
        let context = ModelContext(
            try ModelContainer(for: PastShelf.self, configurations: ModelConfiguration(url: url, durability: .none)))
        let poetry = PastShelf(name: "Poetry")
        let novels = PastShelf(name: "Novels")
        context.insert(poetry)
        context.insert(novels)
        let odyssey = PastBook(title: "Odyssey", shelf: poetry)
        context.insert(odyssey)
        context.insert(PastBook(title: "Leaves of Grass", shelf: poetry))
        try context.save()
        try repository.commitAll("two poems")
        odyssey.shelf = novels
        try context.save()
        try repository.commitAll("the Odyssey reads as a novel")

        let past = ModelContext(
            try ModelContainer(for: PastShelf.self, configurations: ModelConfiguration(url: url, revision: "HEAD~1")))
        let shelf = try #require(
            try past.fetch(FetchDescriptor<PastShelf>(predicate: #Predicate { $0.name == "Poetry" })).first)
        #expect(shelf.books.map(\.title).sorted() == ["Leaves of Grass", "Odyssey"])
        let now = try #require(
            try context.fetch(FetchDescriptor<PastShelf>(predicate: #Predicate { $0.name == "Poetry" })).first)
        #expect(now.books.map(\.title) == ["Leaves of Grass"])
    }

    /// The kept copies in a store's `.folio/revisions/`, by name.
    func keptCopies(in repository: GitScratchRepository) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: repository.path + "/.folio/revisions").sorted()
    }

    /// The inode of a file, which a rewrite changes.
    func inode(_ path: String) throws -> UInt64 {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? UInt64)
    }

    @Test func aRevisionReadAfterAnotherWritesOnlyWhatDiffersAndACopyInUseIsLeftAlone() throws {
        let repository = try mailRepository()
        let url = URL(fileURLWithPath: repository.path)
        let context = ModelContext(
            try ModelContainer(
                for: MailV1.Email.self, configurations: ModelConfiguration(url: url, durability: .none)))
        for number in 1...5 {
            context.insert(MailV1.Email(subject: "Note \(number)", sender: "dee@example.com"))
            try context.save()
            try repository.commitAll("note \(number)")
        }
        func past(_ revision: String) throws -> ModelContainer {
            try ModelContainer(for: MailV1.Email.self, configurations: ModelConfiguration(url: url, revision: revision))
        }
        // Read twice, copied once.
        for _ in 0..<2 { #expect(try subjects(in: try past("HEAD~5")) == ["Hello again", "Lunch?", "Tea"]) }
        let first = try #require(try keptCopies(in: repository).first)
        #expect(try keptCopies(in: repository) == [first])
        let manifest = try inode(repository.path + "/.folio/revisions/\(first)/folio.json")

        // The next revision turns that copy: one email more, the rest not written again.
        #expect(try subjects(in: try past("HEAD~4")).count == 4)
        let second = try #require(try keptCopies(in: repository).first)
        #expect(try keptCopies(in: repository) == [second] && second != first)
        #expect(try inode(repository.path + "/.folio/revisions/\(second)/folio.json") == manifest)

        // Copies in use are never turned: each container keeps reading its own revision.
        let held = try (0...3).map { try past("HEAD~\($0)") }
        #expect(try keptCopies(in: repository).count == 4)
        #expect(try held.map { try subjects(in: $0).count } == [8, 7, 6, 5])
        #expect(try subjects(in: held[0]).filter { $0.hasPrefix("Note") }.count == 5)
        #expect(try subjects(in: held[3]).filter { $0.hasPrefix("Note") } == ["Note 1", "Note 2"])
        withExtendedLifetime(held) {}
    }

    @Test func whatIsNotARevisionIsRefusedWithAClearError() throws {
        let repository = try mailRepository()
        let url = URL(fileURLWithPath: repository.path)
        let before = try state(of: repository)
        for (revision, kind) in [
            ("--output=x", FolioError.Kind.invalidInput), ("", .invalidInput), ("no-such-tag", .notFound),
        ] {
            let error = try #require(throws: FolioError.self) {
                _ = try ModelContainer(
                    for: MailV1.Email.self, configurations: ModelConfiguration(url: url, revision: revision))
            }
            #expect(error.kind == kind, "\(revision): \(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: repository.path + "/x"))
        #expect(try state(of: repository) == before)
    }
}
