import Foundation
import Testing

@testable import FolioCore

/// A write checked for unique values lands only if the check still holds: stores of one
/// folder opened apart (as two processes open it) each see what the other saved.
struct UniqueCommitTests {
    static let schema: JSONValue = [
        "entities": ["Tag": ["properties": [["name": "name", "type": "String", "options": ["unique"]]]]]
    ]

    func tag(_ name: String) -> Document {
        Document(entity: "Tag", id: UUID(), partitionDate: november22(), content: ["name": .string(name)])
    }

    func tagNames(in root: String) throws -> [String] {
        try DocumentStore.open(at: root).documents(entity: "Tag").compactMap { $0.content["name"]?.stringValue }
            .sorted()
    }

    @Test func aCommitAfterAnotherTransactionLandedSinceItsTokenWritesNothing() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        try store.commit([.put(timer("Tea"), basedOn: nil)])
        let other = try DocumentStore.open(at: directory("store"))

        let token = try #require(store.latestTransactionToken())
        try other.commit([.put(timer("Coffee"), basedOn: nil)])
        #expect(try store.commit([.put(timer("Water"), basedOn: nil)], author: nil, ifNoTransactionAfter: token) == nil)
        #expect(try DocumentStore.open(at: directory("store")).documents(entity: "Timer").count == 2)

        let now = store.latestTransactionToken()
        #expect(now == token + 1)
        #expect(try store.commit([.put(timer("Water"), basedOn: nil)], author: nil, ifNoTransactionAfter: now) != nil)
        #expect(try DocumentStore.open(at: directory("store")).documents(entity: "Timer").count == 3)
    }

    @Test func aUniqueValueAnotherStoreSavedSinceThisOneReadItsFolderIsRefused() throws {
        let directory = try TemporaryDirectory()
        let store = try DocumentStore.create(
            at: directory("tags"), manifest: StoreManifest(timeZone: utc, schema: Self.schema), durability: .none)
        try store.commit([.put(tag("work"), basedOn: nil)])
        #expect(store.documents(entity: "Tag").count == 1)  // the folder is read, and held

        let other = try DocumentStore.open(at: directory("tags"))
        try other.commit([.put(tag("home"), basedOn: nil)])
        let refusal = #expect(throws: FolioError.self) {
            try store.commit([.put(tag("home"), basedOn: nil)], author: nil) { clashes in
                FolioError(.constraint, "\(clashes.map(\.shownValues).joined(separator: ", ")) held already")
            }
        }
        #expect(refusal?.kind == .constraint)
        #expect(refusal?.description.contains(#""name" "home""#) == true, "\(String(describing: refusal))")
        #expect(try tagNames(in: directory("tags")) == ["home", "work"])

        try store.commit([.put(tag("garden"), basedOn: nil)], author: nil) { _ in FolioError(.constraint, "none") }
        #expect(try tagNames(in: directory("tags")) == ["garden", "home", "work"])
    }
}
