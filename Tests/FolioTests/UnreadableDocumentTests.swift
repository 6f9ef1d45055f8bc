import Folio
import FolioTestSupport
import Foundation
import Testing

/// One policy for documents a fetch cannot use (malformed JSON, values that do not fit the
/// model): by default the fetch throws, naming the file; `.skip` leaves them out, listed.
struct UnreadableDocumentTests {
    /// A store of three errands and a household, with one errand's file then broken by `breaking`.
    func store(breaking: (String) throws -> Void) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        let context = ModelContext(
            try ModelContainer(
                for: Errand.self, Household.self, configurations: ModelConfiguration(url: folder.url, durability: .none)
            ))
        context.insert(Household(name: "North"))
        for number in 0..<3 {
            context.insert(
                Errand(
                    title: "E\(number)", code: "E\(number)", priority: number, done: false, due: Date(), estimate: nil,
                    note: nil, tags: []))
        }
        try context.save()
        let errands = FileManager.default.enumerator(atPath: folder.path)!.compactMap { $0 as? String }.filter {
            $0.hasPrefix("Errand/") && $0.hasSuffix(".json")
        }
        try breaking(folder.path + "/" + errands.sorted()[0])
        return folder
    }

    func open(_ folder: TemporaryDirectory, _ policy: ModelConfiguration.UnreadableDocuments) throws -> ModelContext {
        var configuration = ModelConfiguration(url: folder.url, durability: .none)
        configuration.unreadableDocuments = policy
        return ModelContext(try ModelContainer(for: Errand.self, Household.self, configurations: configuration))
    }

    @Test func aMalformedFileFailsEveryFetchOfItsEntityNamingItsLineAndColumn() throws {
        let folder = try store { path in
            let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(
                of: "\"priority\"", with: "priority")
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let context = try open(folder, .fail)
        for fetch in [
            { _ = try context.fetch(FetchDescriptor<Errand>()) },
            { _ = try context.fetchCount(FetchDescriptor<Errand>()) },
            { _ = try context.fetchIdentifiers(FetchDescriptor<Errand>()) },
            { _ = try context.aggregate(.count, of: FetchDescriptor<Errand>()) },
        ] as [() throws -> Void] {
            do {
                try fetch()
                Issue.record("a fetch answered without the malformed errand")
            } catch let error as FolioError {
                #expect(error.kind == .unreadableJSON, "\(error)")
                #expect(
                    error.path?.hasPrefix("Errand/") == true || error.path?.contains("/Errand/") == true, "\(error)")
                #expect((error.location?.line ?? 0) > 1)
            }
        }
        // Another entity's fetch does not depend on it.
        #expect(try context.fetch(FetchDescriptor<Household>()).count == 1)

        let skipping = try open(folder, .skip)
        #expect(try skipping.fetch(FetchDescriptor<Errand>()).count == 2)
        #expect(try skipping.fetchCount(FetchDescriptor<Errand>()) == 2)
        #expect(skipping.container.issues.count == 1)
    }

    @Test func aValueThatDoesNotFitFailsTheFetchOrIsSkippedAndListed() throws {
        let folder = try store { path in
            let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(
                of: "\"done\": false", with: "\"done\": \"no\"")
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let context = try open(folder, .fail)
        do {
            _ = try context.fetch(FetchDescriptor<Errand>())
            Issue.record("a fetch made a model of an errand whose done is a string")
        } catch let error as FolioError {
            #expect(error.description.contains("done"), "\(error)")
        }
        let skipping = try open(folder, .skip)
        #expect(try skipping.fetch(FetchDescriptor<Errand>()).map(\.title).sorted().count == 2)
        #expect(skipping.issues.count == 1)
        #expect(skipping.issues.first?.description.contains("done") == true)
    }
}
