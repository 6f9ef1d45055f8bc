import BenchmarkSupport

/// The document store's performance goals, each printed with PASS or MISS for every size.
enum StoreGoal: CaseIterable {
    case commitNone
    case commitFull
    case warmOpen
    case refreshReads

    /// Files the refresh row edits behind the store's back, and so must read.
    static let editedFiles = 100

    var title: String {
        switch self {
        case .commitNone: "Folio commit (.none) within 1.5× of the C floor (temp file + rename)"
        case .commitFull: "Folio commit (.full) within 1.5× of the C floor (temp file + rename + 1 syncfs)"
        case .warmOpen: "Folio warm open within 2× of the C stat walk"
        case .refreshReads: "Folio refresh reads exactly the \(Self.editedFiles) edited files"
        }
    }

    /// The measured value and whether it meets the goal.
    func outcome(in results: SizeResults) -> (text: String, isMet: Bool) {
        switch self {
        case .commitNone: return Self.ratioOutcome(results.ratio(.commitNone), limit: 1.5)
        case .commitFull: return Self.ratioOutcome(results.ratio(.commitFull), limit: 1.5)
        case .warmOpen: return Self.ratioOutcome(results.ratio(.warmOpen), limit: 2)
        case .refreshReads:
            let counts = results.filesRead[.refresh] ?? []
            let isMet = !counts.isEmpty && counts.allSatisfy { $0 == Self.editedFiles }
            let text = Set(counts).sorted().map(Format.grouped).joined(separator: ", ") + " files read"
            return (text, isMet)
        }
    }

    private static func ratioOutcome(_ ratio: Double?, limit: Double) -> (text: String, isMet: Bool) {
        guard let ratio else { return ("not measured", false) }
        return (Format.ratio(ratio), ratio <= limit)
    }
}
