import Foundation

#if !canImport(Darwin)
    /// Foundation's `ValueTransformer`, which Foundation on Linux lacks: an app's transformer
    /// for `@Attribute(.transformable(by:))` subclasses it, as on Darwin, turning a value Folio
    /// cannot encode itself into `Data` and back.
    open class ValueTransformer: NSObject {
        /// Required, so that Folio can make the transformer `.transformable(by:)` names by its class.
        public required override init() { super.init() }

        /// The class of the values `transformedValue(_:)` returns (`NSData` for a store's transformer).
        open class func transformedValueClass() -> AnyClass { NSData.self }
        /// Whether `reverseTransformedValue(_:)` undoes `transformedValue(_:)`; Folio needs it to read values back.
        open class func allowsReverseTransformation() -> Bool { false }

        /// The value transformed; the default returns it unchanged.
        open func transformedValue(_ value: Any?) -> Any? { value }

        /// The value transformed back; the default applies `transformedValue(_:)` when the
        /// class allows reverse transformation, and returns `nil` otherwise.
        open func reverseTransformedValue(_ value: Any?) -> Any? {
            Self.allowsReverseTransformation() ? transformedValue(value) : nil
        }

        private nonisolated(unsafe) static var registered: [NSValueTransformerName: ValueTransformer] = [:]
        private static let lock = NSLock()

        /// Registers a transformer under a name, for `.transformable(by: "Name")`; `nil` removes it.
        public class func setValueTransformer(_ transformer: ValueTransformer?, forName name: NSValueTransformerName) {
            lock.withLock { registered[name] = transformer }
        }

        /// The names transformers are registered under.
        public class func valueTransformerNames() -> [NSValueTransformerName] {
            lock.withLock { Array(registered.keys) }
        }

        /// The transformer registered under a name (Darwin's `ValueTransformer(forName:)`).
        public class func valueTransformer(forName name: NSValueTransformerName) -> ValueTransformer? {
            lock.withLock { registered[name] }
        }
    }

    /// The name a `ValueTransformer` is registered under.
    public struct NSValueTransformerName: RawRepresentable, Hashable, Sendable {
        /// The name as written, as `setValueTransformer(_:forName:)` and `.transformable(by:)` use it.
        public let rawValue: String
        /// The name `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The name `rawValue`, as Darwin's `NSValueTransformerName("MyTransformer")` makes one.
        public init(_ rawValue: String) { self.rawValue = rawValue }
    }
#endif
