import Folio
import Foundation
import Testing

@testable import FolioCore

/// A member by an address no two share: an insert of a taken address replaces the member
/// that holds it, as SwiftData's upsert does.
@Model final class Membership {
    @Attribute(.unique) var email: String
    var plan: String
    init(email: String, plan: String) {
        self.email = email
        self.plan = plan
    }
}

/// Two containers of one folder, as two processes open it, neither watching the files: what
/// one saved reaches the other's upserts at its next save, not only once a watcher tells it.
struct UpsertAcrossContainersTests {
    func container(_ folder: TemporaryDirectory) throws -> ModelContainer {
        var configuration = ModelConfiguration(url: folder.url, durability: .none)
        configuration.watchesFiles = false
        return try ModelContainer(for: Membership.self, configurations: configuration)
    }

    @Test func aValueAnotherContainerSavedSinceThisOneReadIsReplacedNotDuplicated() throws {
        let folder = try TemporaryDirectory()
        let phone = ModelContext(try container(folder))
        phone.insert(Membership(email: "ada@example.com", plan: "free"))
        try phone.save()
        #expect(try phone.fetchCount(FetchDescriptor<Membership>()) == 1)  // its folder read, and held

        let laptop = ModelContext(try container(folder))
        laptop.insert(Membership(email: "grace@example.com", plan: "free"))
        try laptop.save()
        phone.insert(Membership(email: "grace@example.com", plan: "pro"))
        try phone.save()

        let members = try ModelContext(try container(folder)).fetch(
            FetchDescriptor<Membership>(sortBy: [SortDescriptor(\.email)]))
        #expect(members.map(\.email) == ["ada@example.com", "grace@example.com"])
        #expect(members.map(\.plan) == ["free", "pro"], "the later insert replaced the member, as an upsert does")
    }
}
