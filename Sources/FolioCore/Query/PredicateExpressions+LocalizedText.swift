import Foundation

#if !canImport(Darwin)
    // Foundation on Linux has `localizedStandardContains(_:)`, `caseInsensitiveCompare(_:)` and
    // `localizedCompare(_:)` on strings, but not the expressions `#Predicate` expands them to,
    // so a predicate that uses them (a search field's, most often) does not compile. These
    // are those expressions, with the names and shapes Darwin's Foundation gives them, so
    // the same source compiles on both.

    extension PredicateExpressions {
        /// `root.localizedStandardContains(other)` in a `#Predicate`: contains, ignoring case and diacritics.
        public struct StringLocalizedStandardContains<Root: PredicateExpression, Other: PredicateExpression>:
            PredicateExpression
        where Root.Output: StringProtocol, Other.Output: StringProtocol {
            /// The expression gives a `Bool`: whether `root` contains `other`.
            public typealias Output = Bool
            /// The expression for the string searched in.
            public let root: Root
            /// The expression for the string searched for.
            public let other: Other

            /// The expression `root.localizedStandardContains(other)`.
            public init(root: Root, other: Other) {
                self.root = root
                self.other = other
            }

            /// Whether `root`'s string contains `other`'s, ignoring case and diacritics as Foundation's
            /// `localizedStandardContains(_:)` does; throws what evaluating either expression throws.
            public func evaluate(_ bindings: PredicateBindings) throws -> Bool {
                try root.evaluate(bindings).localizedStandardContains(try other.evaluate(bindings))
            }
        }

        /// `root.caseInsensitiveCompare(other)` in a `#Predicate`.
        public struct StringCaseInsensitiveCompare<Root: PredicateExpression, Compared: PredicateExpression>:
            PredicateExpression
        where Root.Output: StringProtocol, Compared.Output: StringProtocol {
            /// The expression gives the order of `root` relative to `compared`.
            public typealias Output = ComparisonResult
            /// The expression for the string on the left of the comparison.
            public let root: Root
            /// The expression for the string on the right of the comparison.
            public let compared: Compared

            /// The expression `root.caseInsensitiveCompare(compared)`.
            public init(root: Root, compared: Compared) {
                self.root = root
                self.compared = compared
            }

            /// The order of `root`'s string relative to `compared`'s, ignoring case; throws what
            /// evaluating either expression throws.
            public func evaluate(_ bindings: PredicateBindings) throws -> ComparisonResult {
                try root.evaluate(bindings).caseInsensitiveCompare(try compared.evaluate(bindings))
            }
        }

        /// `root.localizedCompare(compared)` in a `#Predicate`.
        public struct StringLocalizedCompare<Root: PredicateExpression, Compared: PredicateExpression>:
            PredicateExpression
        where Root.Output: StringProtocol, Compared.Output: StringProtocol {
            /// The expression gives the order of `root` relative to `compared`.
            public typealias Output = ComparisonResult
            /// The expression for the string on the left of the comparison.
            public let root: Root
            /// The expression for the string on the right of the comparison.
            public let compared: Compared

            /// The expression `root.localizedCompare(compared)`.
            public init(root: Root, compared: Compared) {
                self.root = root
                self.compared = compared
            }

            /// The order of `root`'s string relative to `compared`'s under the current locale's rules;
            /// throws what evaluating either expression throws.
            public func evaluate(_ bindings: PredicateBindings) throws -> ComparisonResult {
                try root.evaluate(bindings).localizedCompare(try compared.evaluate(bindings))
            }
        }

        /// What `#Predicate` makes of `localizedStandardContains(_:)`.
        public static func build_localizedStandardContains<Root, Other>(_ root: Root, _ other: Other)
            -> StringLocalizedStandardContains<Root, Other>
        {
            StringLocalizedStandardContains(root: root, other: other)
        }

        /// What `#Predicate` makes of `caseInsensitiveCompare(_:)`.
        public static func build_caseInsensitiveCompare<Root, Compared>(_ root: Root, _ compared: Compared)
            -> StringCaseInsensitiveCompare<Root, Compared>
        {
            StringCaseInsensitiveCompare(root: root, compared: compared)
        }

        /// What `#Predicate` makes of `localizedCompare(_:)`.
        public static func build_localizedCompare<Root, Compared>(_ root: Root, _ compared: Compared)
            -> StringLocalizedCompare<Root, Compared>
        {
            StringLocalizedCompare(root: root, compared: compared)
        }
    }

    extension PredicateExpressions.StringLocalizedStandardContains: Codable where Root: Codable, Other: Codable {}
    extension PredicateExpressions.StringLocalizedStandardContains: Sendable where Root: Sendable, Other: Sendable {}
    extension PredicateExpressions.StringLocalizedStandardContains: StandardPredicateExpression
    where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}

    extension PredicateExpressions.StringCaseInsensitiveCompare: Codable where Root: Codable, Compared: Codable {}
    extension PredicateExpressions.StringCaseInsensitiveCompare: Sendable where Root: Sendable, Compared: Sendable {}
    extension PredicateExpressions.StringCaseInsensitiveCompare: StandardPredicateExpression
    where Root: StandardPredicateExpression, Compared: StandardPredicateExpression {}

    extension PredicateExpressions.StringLocalizedCompare: Codable where Root: Codable, Compared: Codable {}
    extension PredicateExpressions.StringLocalizedCompare: Sendable where Root: Sendable, Compared: Sendable {}
    extension PredicateExpressions.StringLocalizedCompare: StandardPredicateExpression
    where Root: StandardPredicateExpression, Compared: StandardPredicateExpression {}

    extension PredicateExpressions.StringCaseInsensitiveCompare: CaseInsensitiveComparison {
        var comparedText: Any { root }
        var otherText: Any { compared }
    }

    extension PredicateExpressions.StringLocalizedStandardContains: QueryTranslatable {
        func translate(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported)
            -> PredicateTranslation.Translated
        {
            PredicateTranslation.Translated(
                expression: .text(
                    .containsIgnoringCase, try translation.translate(root).expression,
                    try translation.translate(other).expression),
                shape: .value(Bool.self))
        }
    }
#endif
