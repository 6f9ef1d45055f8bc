import Folio
import Foundation

/// A household that errands belong to: the to-many side, which documents do not store.
@Model
final class Household {
    #Unique<Household>([\.name])
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \Errand.household) var errands: [Errand] = []

    init(name: String) { self.name = name }
}

/// An errand with a value of every kind the query engine compares: text, integers,
/// doubles and their optionals, booleans, dates (the first required one is the day
/// partition), arrays, and a to-one relationship. `priority` is indexed, `code` unique.
@Model
final class Errand {
    #Index<Errand>([\.priority])
    @Attribute(.unique) var id: UUID
    var title: String
    @Attribute(.unique) var code: String
    var priority: Int
    var done: Bool
    var due: Date
    var estimate: Double?
    var note: String?
    var tags: [String]
    var household: Household?

    init(
        title: String, code: String, priority: Int, done: Bool, due: Date, estimate: Double?, note: String?,
        tags: [String]
    ) {
        id = UUID()
        self.title = title
        self.code = code
        self.priority = priority
        self.done = done
        self.due = due
        self.estimate = estimate
        self.note = note
        self.tags = tags
    }
}
