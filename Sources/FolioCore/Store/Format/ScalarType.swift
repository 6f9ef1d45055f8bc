import FolioJSON
import Foundation

/// A value type Folio stores natively, by the name the manifest's schema gives it
/// (`"Int16"`, `"Date"`): the one table of those names, with what each one is.
package enum ScalarType: String, CaseIterable, Sendable {
    /// Text.
    case string = "String"
    /// True or false.
    case bool = "Bool"
    /// Signed integers: `Int` is 64 bits wide on every platform Folio runs on.
    case int = "Int", int8 = "Int8", int16 = "Int16", int32 = "Int32", int64 = "Int64"
    /// Unsigned integers: `UInt` is 64 bits wide, as `Int` is.
    case uint = "UInt", uint8 = "UInt8", uint16 = "UInt16", uint32 = "UInt32", uint64 = "UInt64"
    /// Binary floating-point numbers.
    case double = "Double", float = "Float"
    /// A decimal number, stored as its exact digits.
    case decimal = "Decimal"
    /// A moment, stored as ISO 8601 text.
    case date = "Date"
    /// A UUID, stored as its text.
    case uuid = "UUID"
    /// A URL, stored as its text.
    case url = "URL"
    /// Bytes, stored as base64 text.
    case data = "Data"

    /// What a value of a scalar type is, for the readers that tell types apart.
    package enum Kind: Sendable, Hashable {
        /// A whole number of so many bits, signed or not.
        case integer(bits: Int, isSigned: Bool)
        /// A binary floating-point number of so many bits.
        case floatingPoint(bits: Int)
        /// A decimal number.
        case decimal
        /// Text.
        case text
        /// True or false.
        case bool
        /// A moment.
        case date
        /// A UUID.
        case uuid
        /// A URL.
        case url
        /// Bytes.
        case data
    }

    /// What the type's values are.
    package var kind: Kind {
        switch self {
        case .string: .text
        case .bool: .bool
        case .int, .int64: .integer(bits: 64, isSigned: true)
        case .int8: .integer(bits: 8, isSigned: true)
        case .int16: .integer(bits: 16, isSigned: true)
        case .int32: .integer(bits: 32, isSigned: true)
        case .uint, .uint64: .integer(bits: 64, isSigned: false)
        case .uint8: .integer(bits: 8, isSigned: false)
        case .uint16: .integer(bits: 16, isSigned: false)
        case .uint32: .integer(bits: 32, isSigned: false)
        case .double: .floatingPoint(bits: 64)
        case .float: .floatingPoint(bits: 32)
        case .decimal: .decimal
        case .date: .date
        case .uuid: .uuid
        case .url: .url
        case .data: .data
        }
    }

    /// The Swift type whose stored form (`JSONRepresentable`) the values have.
    package var valueType: any JSONRepresentable.Type {
        switch self {
        case .string: String.self
        case .bool: Bool.self
        case .int: Int.self
        case .int8: Int8.self
        case .int16: Int16.self
        case .int32: Int32.self
        case .int64: Int64.self
        case .uint: UInt.self
        case .uint8: UInt8.self
        case .uint16: UInt16.self
        case .uint32: UInt32.self
        case .uint64: UInt64.self
        case .double: Double.self
        case .float: Float.self
        case .decimal: Decimal.self
        case .date: Date.self
        case .uuid: UUID.self
        case .url: URL.self
        case .data: Data.self
        }
    }

    /// Every name, sorted: what a message lists as the types Folio stores.
    package static var names: [String] { allCases.map(\.rawValue).sorted() }
}
