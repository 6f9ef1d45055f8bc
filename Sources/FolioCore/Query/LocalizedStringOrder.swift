import Foundation

/// The two localized orders of text a `SortDescriptor` can name, as Darwin sorts them:
/// `.localizedStandard` (Finder's: case ignored, numbers by value: `A, b, C`, `a9, a10`)
/// and `.localized`.
///
/// Foundation on Linux has neither comparator and cannot make one: its initializer is
/// private, decoding one is refused, and its `compare` there ignores localization (and
/// traps on case-insensitive options). So Folio makes them: a `.lexical` comparator whose
/// fields mark it as one of these (see `marked(options:)`), which Folio's fetches
/// recognize and sort with Foundation's `localizedStandardCompare` and `localizedCompare`,
/// which Linux does have. Code that sorts with one outside Folio gets Foundation's own
/// `compare`, which on Linux orders by code point with numbers by value (`.localizedStandard`)
/// or by code point (`.localized`).
enum LocalizedStringOrder {
    case standard
    case localized

    /// The comparator marked as `.localizedStandard`.
    static let standardComparator = marked(options: [.numeric])
    /// The comparator marked as `.localized`.
    static let localizedComparator = marked(options: [])

    /// The order a comparator stands for, whichever its direction; `nil` for `.lexical`.
    init?(_ comparator: String.StandardComparator) {
        let forward = String.StandardComparator(comparator, order: .forward)
        if forward == Self.standardComparator, forward != .lexical {
            self = .standard
        } else if forward == Self.localizedComparator, forward != .lexical {
            self = .localized
        } else {
            return nil
        }
    }

    /// Two strings in this order, ascending.
    func compare(_ lhs: String, _ rhs: String) -> ComparisonResult {
        switch self {
        case .standard: lhs.localizedStandardCompare(rhs)
        case .localized: lhs.localizedCompare(rhs)
        }
    }

    /// Two strings as a comparator orders them, Folio's localized orders included.
    static func compare(_ lhs: String, _ rhs: String, using comparator: String.StandardComparator) -> ComparisonResult {
        guard let localized = LocalizedStringOrder(comparator) else { return comparator.compare(lhs, rhs) }
        return localized.compare(lhs, rhs).reversed(comparator.order == .reverse)
    }

    /// Two models as sort descriptors order them: Foundation's comparison, but Folio's for
    /// text under a localized comparator (with `nil` first, as Foundation puts it).
    static func compare<Model>(_ lhs: Model, _ rhs: Model, by descriptors: [SortDescriptor<Model>]) -> ComparisonResult
    {
        for descriptor in descriptors {
            let order: ComparisonResult
            if let comparator = descriptor.stringComparator, let localized = LocalizedStringOrder(comparator),
                let keyPath = descriptor.keyPath
            {
                switch (lhs[keyPath: keyPath] as? String, rhs[keyPath: keyPath] as? String) {
                case (let left?, let right?):
                    order = localized.compare(left, right).reversed(descriptor.order == .reverse)
                case (nil, nil): order = .orderedSame
                case (nil, _): order = ComparisonResult.orderedAscending.reversed(descriptor.order == .reverse)
                case (_, nil): order = ComparisonResult.orderedDescending.reversed(descriptor.order == .reverse)
                }
            } else {
                order = descriptor.compare(lhs, rhs)
            }
            if order != .orderedSame { return order }
        }
        return .orderedSame
    }

    /// A `.lexical` comparator with its options and localization set, checked through its
    /// public encoding; `.lexical` itself if this Foundation lays the comparator out
    /// otherwise (then Folio sorts such descriptors as `.lexical`, and logs it once).
    private static func marked(options: String.CompareOptions) -> String.StandardComparator {
        struct Fields: Decodable {
            var options: UInt
            var isLocalized: Bool
        }
        var comparator = String.StandardComparator.lexical
        // Its stored fields, in declaration order: `options` (a UInt), then `isLocalized`.
        withUnsafeMutableBytes(of: &comparator) { bytes in
            guard bytes.count > MemoryLayout<UInt>.size else { return }
            bytes.storeBytes(of: options.rawValue, toByteOffset: 0, as: UInt.self)
            bytes.storeBytes(of: true, toByteOffset: MemoryLayout<UInt>.size, as: Bool.self)
        }
        let fields = (try? JSONEncoder().encode(comparator)).flatMap {
            try? JSONDecoder().decode(Fields.self, from: $0)
        }
        guard let fields, fields.options == options.rawValue, fields.isLocalized else {
            OnceLog.query.notice(
                "localized-comparator",
                "This Foundation's String.StandardComparator cannot be marked as a localized order; sorts with .localizedStandard and .localized run as .lexical"
            )
            return .lexical
        }
        return comparator
    }
}

extension ComparisonResult {
    /// The result for the opposite order, when `reversing`.
    func reversed(_ reversing: Bool) -> ComparisonResult {
        guard reversing else { return self }
        switch self {
        case .orderedAscending: return .orderedDescending
        case .orderedDescending: return .orderedAscending
        case .orderedSame: return .orderedSame
        }
    }
}

#if !canImport(Darwin)
    extension String.StandardComparator {
        /// Compares strings as Finder does, as Darwin's `.localizedStandard`: case ignored,
        /// numbers by value (`A, b, C`; `a9, a10`). Folio's: Foundation on Linux lacks it.
        ///
        /// Folio's fetches sort with it as Darwin does, on documents and on models; sorting
        /// with it outside Folio, Foundation on Linux compares by code point, numbers by value.
        public static var localizedStandard: String.StandardComparator { LocalizedStringOrder.standardComparator }

        /// Compares strings in the current locale's order, as Darwin's `.localized`. Folio's:
        /// Foundation on Linux lacks it; outside Folio's fetches it compares by code point.
        public static var localized: String.StandardComparator { LocalizedStringOrder.localizedComparator }
    }
#endif
