import Folio
import Foundation

/// Forest Focus's session in the shape the live-data test keeps a list of: written here
/// by "another app", through the model layer, with an author of its own.
@Model final class FocusSession {
    var id: UUID
    var startTime: Date
    var state: String
    var duration: TimeInterval

    init(id: UUID = UUID(), startTime: Date, state: String = "active", duration: TimeInterval = 0) {
        self.id = id
        self.startTime = startTime
        self.state = state
        self.duration = duration
    }
}

/// `session-inserter STORE COUNT`: COUNT saves of one new session each, by author "other-app".
func sessionInserter(store path: String, count: Int) throws {
    var configuration = ModelConfiguration(url: URL(fileURLWithPath: path), durability: .none)
    configuration.watchesFiles = false
    let context = ModelContext(try ModelContainer(for: FocusSession.self, configurations: configuration))
    context.author = "other-app"
    for index in 0..<count {
        context.insert(
            FocusSession(startTime: Date(timeIntervalSinceReferenceDate: 815_000_000 + Double(index) * 3600)))
        try context.save()
    }
}
