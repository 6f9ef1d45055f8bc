import Folio
import FolioTestSupport
import Foundation
import Synchronization
import Testing

/// A `Codable` value whose decoding reads global state, so it can refuse a document it
/// read before: what a model's first read of a member left undecoded must survive.
struct Mood: Codable, Equatable {
    static let refusing = Mutex(false)
    var level: Int

    init(level: Int) { self.level = level }

    init(from decoder: any Decoder) throws {
        if Mood.refusing.withLock({ $0 }) {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "moods are refused today"))
        }
        level = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .level)
    }
}

@Model
final class Diary {
    var day: Date
    var mood: Mood?
    var baseline: Mood = Mood(level: 5)

    init(day: Date, mood: Mood?, baseline: Mood) {
        self.day = day
        self.mood = mood
        self.baseline = baseline
    }
}

@Suite(.serialized)
struct LazyDecodeTests {
    @Test func aMemberThatNoLongerDecodesOnFirstReadIsRecordedNotTrappedOn() throws {
        let folder = try TemporaryDirectory()
        let container = try ModelContainer(
            for: Diary.self, configurations: ModelConfiguration(url: folder.url, durability: .none))
        let writing = ModelContext(container)
        writing.insert(
            Diary(day: Date(timeIntervalSince1970: 1_790_000_000), mood: Mood(level: 3), baseline: Mood(level: 7)))
        try writing.save()
        // The first fetch decodes every member, so the container knows the document reads.
        #expect(try ModelContext(container).fetch(FetchDescriptor<Diary>()).first?.mood == Mood(level: 3))

        Mood.refusing.withLock { $0 = true }
        defer { Mood.refusing.withLock { $0 = false } }
        let reading = ModelContext(container)
        let diary = try #require(try reading.fetch(FetchDescriptor<Diary>()).first)
        #expect(diary.mood == nil)
        #expect(diary.baseline == Mood(level: 5))
        #expect(reading.issues.count == 2)
        #expect(reading.issues.allSatisfy { $0.description.contains("moods are refused today") }, "\(reading.issues)")
    }
}
