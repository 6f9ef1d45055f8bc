import FolioJSON
import Foundation

/// How the typed twins are made and coded: text fields turned into the types an
/// app's models declare (through FolioJSON's value coding, so each typed model
/// holds exactly the value its string twin's text stands for), and Foundation's
/// coders set up as an app sets them up for such models.
enum TypedCoding {
    static func date(_ text: String) throws -> Date { try Date(json: .string(text)) }
    static func uuid(_ text: String) throws -> UUID { try UUID(json: .string(text)) }

    /// Pretty-printed with sorted keys, like the string rows, and dates as ISO 8601.
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// Dates as ISO 8601 (with or without a fraction of a second).
    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

extension Date {
    /// The date cut to whole seconds, as `JSONEncoder`'s `.iso8601` strategy writes it.
    var wholeSeconds: Date { Date(timeIntervalSinceReferenceDate: timeIntervalSinceReferenceDate.rounded(.down)) }
}
