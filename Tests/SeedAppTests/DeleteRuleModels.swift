// Small models for the delete rules the seeds name (Health Sync lists all four) but
// whose own models only cascade.
import Folio
import Foundation

@Model
final class Shelf {
    var name: String
    @Relationship(deleteRule: .deny, inverse: \Book.shelf) var books: [Book] = []
    init(name: String) { self.name = name }
}

@Model
final class Author {
    var name: String
    @Relationship(deleteRule: .nullify, inverse: \Book.author) var books: [Book] = []
    init(name: String) { self.name = name }
}

@Model
final class Publisher {
    var name: String
    @Relationship(deleteRule: .noAction, inverse: \Book.publisher) var books: [Book] = []
    init(name: String) { self.name = name }
}

@Model
final class Book {
    var title: String
    var shelf: Shelf?
    var author: Author?
    var publisher: Publisher?
    init(title: String) { self.title = title }
}
