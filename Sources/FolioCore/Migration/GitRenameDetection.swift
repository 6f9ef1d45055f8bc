/// Pairs the deleted and the added files of one diff into renames as `git diff`'s rename
/// detection does (`diffcore-rename.c` with its defaults: `-M50%`, no copies,
/// `diff.renameLimit` 1,000).
///
/// A migration's dry run shows a moved document as git will: as a rename of whichever
/// deleted file git pairs it with, or as a deletion and an addition. Git decides across
/// all the files at once, in three rounds:
///
/// 1. identical contents, preferring a source of the same file name;
/// 2. a source and a destination whose file name (the part after the last `/`) is unique
///    among the remaining sources and among the remaining destinations, if at least 75%
///    similar (a moved document keeps its `<UUID>.json`, so this pairs most of them);
/// 3. unless more than 1,000 × 1,000 pairs remain, every remaining destination with its
///    four best sources, then all those candidates from the most similar down, at 50% or
///    more, each source and destination used once (a tie goes to the same file name, then
///    to the earlier candidate).
struct GitRenameDetection {
    /// A file on one side of the diff: its path and its content.
    struct File {
        var path: String
        var bytes: [UInt8]
    }

    /// A destination renamed from a source, with git's similarity score (out of 60,000).
    struct Pair: Equatable {
        var source: Int
        var score: Int
    }

    /// How many pairs git compares at most, as the square of `diff.renameLimit`'s default.
    static let renameLimit = 1_000
    /// The similarity a file-name match needs: halfway from the minimum (50%) to 100%.
    static let basenameMinimumScore =
        RenameSimilarity.defaultMinimumScore + (RenameSimilarity.maximumScore - RenameSimilarity.defaultMinimumScore)
        / 2
    /// How many best sources git keeps per destination in the last round.
    private static let candidatesPerDestination = 4

    /// For each destination (by index) that git shows as a rename, its source.
    let pairs: [Int: Pair]

    /// Pairs `destinations` (added files) with `sources` (deleted files); both in git's
    /// order, by path.
    init(sources: [File], destinations: [File]) {
        var pairs: [Int: Pair] = [:]
        var used = Set<Int>()

        // 1. Identical contents.
        var sourcesByContent: [[UInt8]: [Int]] = [:]
        for (index, source) in sources.enumerated() { sourcesByContent[source.bytes, default: []].append(index) }
        for (index, destination) in destinations.enumerated() {
            guard let candidates = sourcesByContent[destination.bytes] else { continue }
            var best: Int?
            for candidate in candidates where !used.contains(candidate) {
                if best == nil { best = candidate }
                if Self.basename(sources[candidate].path) == Self.basename(destination.path) {
                    best = candidate
                    break
                }
            }
            if let best {
                pairs[index] = Pair(source: best, score: RenameSimilarity.maximumScore)
                used.insert(best)
            }
        }

        // 2. The same file name, unique on both sides.
        func uniqueNames(_ files: [File], _ excluded: (Int) -> Bool) -> [Substring: Int] {
            var seen: [Substring: Int] = [:]
            for (index, file) in files.enumerated() where !excluded(index) {
                let name = Self.basename(file.path)
                seen[name] = seen[name] == nil ? index : -1
            }
            return seen.filter { $0.value >= 0 }
        }
        let sourceNames = uniqueNames(sources) { used.contains($0) }
        let destinationNames = uniqueNames(destinations) { pairs[$0] != nil }
        for (index, source) in sources.enumerated() where !used.contains(index) {
            let name = Self.basename(source.path)
            guard sourceNames[name] == index, let destination = destinationNames[name] else { continue }
            let score = RenameSimilarity(old: source.bytes, new: destinations[destination].bytes).score
            guard score >= Self.basenameMinimumScore else { continue }
            pairs[destination] = Pair(source: index, score: score)
            used.insert(index)
        }

        // 3. The most similar pairs left, within the rename limit.
        let remainingSources = sources.indices.filter { !used.contains($0) }
        let remainingDestinations = destinations.indices.filter { pairs[$0] == nil }
        let (sourceCount, destinationCount) = (remainingSources.count, remainingDestinations.count)
        let withinLimit =
            (destinationCount <= Self.renameLimit || sourceCount <= Self.renameLimit)
            && destinationCount * sourceCount <= Self.renameLimit * Self.renameLimit
        guard sourceCount > 0, destinationCount > 0, withinLimit else {
            self.pairs = pairs
            return
        }
        var candidates: [Candidate] = []
        for destination in remainingDestinations {
            var best: [Candidate] = []
            for source in remainingSources {
                let candidate = Candidate(
                    destination: destination, source: source,
                    score: RenameSimilarity(old: sources[source].bytes, new: destinations[destination].bytes).score,
                    sameName: Self.basename(sources[source].path) == Self.basename(destinations[destination].path))
                if best.count < Self.candidatesPerDestination {
                    best.append(candidate)
                } else {
                    // Git replaces the first of the worst kept candidates, if strictly worse.
                    var worst = 0
                    for slot in best.indices.dropFirst() where best[slot].sortsAfter(best[worst]) { worst = slot }
                    if best[worst].sortsAfter(candidate) { best[worst] = candidate }
                }
            }
            candidates += best
        }
        // A stable sort, as git's: equal candidates keep their order.
        candidates = candidates.enumerated().sorted { a, b in
            if a.element.sortsAfter(b.element) { return false }
            if b.element.sortsAfter(a.element) { return true }
            return a.offset < b.offset
        }.map(\.element)
        for candidate in candidates {
            guard candidate.score >= RenameSimilarity.defaultMinimumScore else { break }
            guard pairs[candidate.destination] == nil, !used.contains(candidate.source) else { continue }
            pairs[candidate.destination] = Pair(source: candidate.source, score: candidate.score)
            used.insert(candidate.source)
        }
        self.pairs = pairs
    }

    /// A possible pairing in the last round, ranked as git's `score_compare` ranks it.
    private struct Candidate {
        var destination: Int
        var source: Int
        var score: Int
        var sameName: Bool

        /// Whether this candidate is worse than `other`: less similar, or as similar without the same file name.
        func sortsAfter(_ other: Candidate) -> Bool {
            score != other.score ? score < other.score : (!sameName && other.sameName)
        }
    }

    /// The part of a path after its last `/`.
    static func basename(_ path: String) -> Substring {
        path.lastIndex(of: "/").map { path[path.index(after: $0)...] } ?? path[...]
    }
}
