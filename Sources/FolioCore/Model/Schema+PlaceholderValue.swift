import FolioJSON
import Foundation

extension Schema.Attribute {
    /// The stored forms tried, in order, for a value that stands in for one a placeholder
    /// has not got: nothing, the first case, then the empty or zero form of each kind.
    private static let neutralForms: [JSONValue] = [
        .null, .string(""), .integer(0), .bool(false), .array([]), .object(JSONObject()),
        Date(timeIntervalSince1970: 0).json, UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)).json,
        .string("about:blank"),
    ]

    /// A value of the attribute's type with nothing in it (`nil`, `""`, `0`, `false`, an
    /// empty collection, the first case of an enum), or `nil` if its type has none.
    ///
    /// What a placeholder's `let` takes: `init(backingData:)` reads each `let` once, and a
    /// placeholder (`ModelContext.model(for:)` for a model not in the store) has no document
    /// to read it from, as SwiftData's unsaved stand-in has no stored values.
    var placeholderValue: Any? {
        guard let coding = coding.value else { return nil }
        for form in (cases?.first.map { [$0] } ?? []) + Self.neutralForms {
            if let value = try? coding.decode(form) { return value }
        }
        return nil
    }
}
