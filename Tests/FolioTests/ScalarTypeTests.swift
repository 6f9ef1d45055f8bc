import FolioJSON
import Testing

@testable import FolioCore

/// `ScalarType`, the one table of the type names Folio stores: each name is its Swift
/// type's own, and what the table says a type is, the Swift type is.
struct ScalarTypeTests {
    /// The bits a value of a type takes.
    static func bits<T: JSONRepresentable>(_ type: T.Type) -> Int { MemoryLayout<T>.size * 8 }

    @Test func eachNameIsItsSwiftTypesName() {
        for scalar in ScalarType.allCases { #expect(String(describing: scalar.valueType) == scalar.rawValue) }
        #expect(ScalarType.names.count == ScalarType.allCases.count && ScalarType.names == ScalarType.names.sorted())
    }

    @Test func eachKindIsWhatItsSwiftTypeIs() {
        for scalar in ScalarType.allCases {
            let integer = scalar.valueType as? any FixedWidthInteger.Type
            let isFloatingPoint = scalar.valueType is any BinaryFloatingPoint.Type
            switch scalar.kind {
            case .integer(let bits, let isSigned):
                #expect(integer?.bitWidth == bits && integer?.isSigned == isSigned, "\(scalar)")
            case .floatingPoint(let bits):
                #expect(isFloatingPoint && Self.bits(scalar.valueType) == bits, "\(scalar)")
            case .decimal, .text, .bool, .date, .uuid, .url, .data:
                #expect(integer == nil && !isFloatingPoint, "\(scalar)")
            }
        }
        let others: [ScalarType: ScalarType.Kind] = [
            .string: .text, .bool: .bool, .decimal: .decimal, .date: .date, .uuid: .uuid, .url: .url, .data: .data,
        ]
        for (scalar, kind) in others { #expect(scalar.kind == kind) }
    }
}
