import Folio
import FolioTestSupport
import Foundation
import Testing

enum MailV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Email.self] }

    @Model
    final class Email {
        var subject: String
        var sender: String
        init(subject: String, sender: String) {
            self.subject = subject
            self.sender = sender
        }
    }
}

enum MailV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Email.self, Mailbox.self] }

    @Model
    final class Email {
        var subject: String
        @Attribute(originalName: "sender") var from: String
        var isRead: Bool = false
        init(subject: String, from: String) {
            self.subject = subject
            self.from = from
        }
    }

    @Model
    final class Mailbox {
        var name: String
        init(name: String) { self.name = name }
    }
}

enum MailPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [MailV1.self, MailV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: MailV1.self, toVersion: MailV2.self)] }
}

/// A plan whose stages skip from version 1 straight past 2.
enum GappedMailPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [MailV1.self, MailV2.self] }
    static var stages: [MigrationStage] { [] }
}

/// `ModelContainer(for: Email.self, migrationPlan: Plan.self, configurations: ...)`, the form
/// Apple's examples use: the version is the plan's, the store is migrated, and nothing
/// is written when it cannot be.
struct MigrationPlanTests {
    /// A store written by version 1's models, with two emails.
    func versionOneStore() throws -> (TemporaryDirectory, URL) {
        let folder = try TemporaryDirectory()
        let url = folder.url.appending(path: "Mail")
        let context = ModelContext(
            try ModelContainer(for: MailV1.Email.self, configurations: ModelConfiguration(url: url, durability: .none)))
        context.insert(MailV1.Email(subject: "Hello", sender: "ada@example.com"))
        context.insert(MailV1.Email(subject: "Lunch?", sender: "bob@example.com"))
        try context.save()
        return (folder, url)
    }

    func manifest(at url: URL) throws -> String {
        try String(contentsOf: url.appending(path: "folio.json"), encoding: .utf8)
    }

    @Test func theModelTypesWithAPlanOpenAtThePlansVersionAndMigrate() throws {
        let (folder, url) = try versionOneStore()
        defer { withExtendedLifetime(folder) {} }
        for _ in 0..<2 {  // the second open finds the store at version 2 and opens it as it is
            let container = try ModelContainer(
                for: MailV2.Email.self, migrationPlan: MailPlan.self,
                configurations: ModelConfiguration(url: url, durability: .none))
            #expect(container.schema.version == Schema.Version(2, 0, 0))
            #expect(container.schema.entities.map(\.name).sorted() == ["Email", "Mailbox"])
            let emails = try ModelContext(container).fetch(
                FetchDescriptor<MailV2.Email>(sortBy: [SortDescriptor(\.subject)]))
            #expect(emails.map(\.from) == ["ada@example.com", "bob@example.com"])
            #expect(emails.allSatisfy { !$0.isRead })
        }
        let text = try manifest(at: url)
        #expect(text.contains(#""schemaVersion": "2.0.0""#))
        #expect(text.contains(#""name": "from""#) && !text.contains(#""name": "sender""#))
    }

    @Test func aPlanWithoutTheStagesToTheModelsVersionIsRefusedAndWritesNothing() throws {
        let (folder, url) = try versionOneStore()
        defer { withExtendedLifetime(folder) {} }
        let before = try manifest(at: url)
        #expect(throws: FolioError.self) {
            _ = try ModelContainer(
                for: MailV2.Email.self, migrationPlan: GappedMailPlan.self,
                configurations: ModelConfiguration(url: url, durability: .none))
        }
        #expect(try manifest(at: url) == before)
        // The store is as it was: the right plan still migrates it.
        let container = try ModelContainer(
            for: MailV2.Email.self, migrationPlan: MailPlan.self,
            configurations: ModelConfiguration(url: url, durability: .none))
        #expect(
            try ModelContext(container).fetchCount(
                FetchDescriptor<MailV2.Email>(predicate: #Predicate { $0.from == "ada@example.com" })) == 1)
    }

    @Test func modelsThatNoneOfThePlansSchemasHoldAreRefused() throws {
        let (folder, url) = try versionOneStore()
        defer { withExtendedLifetime(folder) {} }
        let error = try #require(throws: FolioError.self) {
            _ = try ModelContainer(
                for: MailV2.Mailbox.self, MailV1.Email.self, migrationPlan: MailPlan.self,
                configurations: ModelConfiguration(url: url))
        }
        #expect(error.kind == .misuse)
    }

    @Test func aNewerVersionedSchemaWithoutAPlanMigratesAsALightweightStage() throws {
        let (folder, url) = try versionOneStore()
        defer { withExtendedLifetime(folder) {} }
        let container = try ModelContainer(
            for: Schema(versionedSchema: MailV2.self), configurations: ModelConfiguration(url: url, durability: .none))
        let emails = try ModelContext(container).fetch(
            FetchDescriptor<MailV2.Email>(sortBy: [SortDescriptor(\.subject)]))
        #expect(emails.map(\.from) == ["ada@example.com", "bob@example.com"])
        #expect(try manifest(at: url).contains(#""schemaVersion": "2.0.0""#))
    }
}
