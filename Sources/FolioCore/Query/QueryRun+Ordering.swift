import FolioJSON
import Foundation

extension QueryRun {
    /// The result of `total` matches of which documents found without the table (read from
    /// a folder's cache file) hold the page: put in store order, as a run finds them, then
    /// ordered, paged and made matches.
    mutating func page(_ found: [Found], total: Int, explanation: QueryExplanation) -> DocumentQueryResult {
        var explanation = explanation
        let page = ordered(found.sorted { $0.path! < $1.path! }, explanation: &explanation)
        return DocumentQueryResult(matches: page.map { match($0) }, total: total, explanation: explanation)
    }

    /// The page of the matches in the query's order: sorted by the keys (a bounded heap
    /// when a limit keeps few), ties and unsorted queries in store order.
    ///
    /// Positions in `found` are ordered, never the documents themselves, with their paths
    /// and keys taken out once: moving or comparing a `Found` copied (retained and released)
    /// each of its members, a tenth of "the 20 latest".
    mutating func ordered(_ found: [Found], explanation: inout QueryExplanation) -> ArraySlice<Found> {
        let offset = max(query.offset, 0)
        // Saturating: an offset and a limit near Int.max ask for everything after the offset.
        let wanted = query.limit.map {
            offset.addingReportingOverflow(max($0, 0)).overflow ? Int.max : offset + max($0, 0)
        }
        func page(_ count: Int) -> Range<Int> {
            let start = min(offset, count)
            return start..<max(start, wanted.map { min($0, count) } ?? count)
        }
        // Rows are collected in store order (the table's order, and the positions an index or
        // a day range gives are ascending); only pending documents can be out of it.
        if query.sort.isEmpty, !foundPending { return found[page(found.count)] }
        let paths = found.map(\.path)
        func storeOrder(_ a: Int, _ b: Int) -> Bool {
            switch (paths[a], paths[b]) {
            case (let a?, let b?): a < b
            case (_?, nil): true
            default: false
            }
        }
        let order: [Int]
        if query.sort.isEmpty {
            order = Self.sorted(found.indices, wanted: wanted, by: storeOrder)
        } else {
            explanation.sort = query.sort.map {
                "\($0.expression.queryText) \($0.ascending ? "ascending" : "descending")"
            }.joined(separator: ", ")
            // Keys a stage already has (the ordered index's walk) are not evaluated again.
            let keys = query.sort
            let values = found.map { document in
                guard document.keys.count != keys.count else { return document.keys }
                let identity = PersistentIdentifier(entityName: query.entity, id: document.id)
                return keys.map { evaluation.value(of: $0.expression, on: identity, content: document.content) }
            }
            func before(_ a: Int, _ b: Int) -> Bool {
                for (position, key) in keys.enumerated() {
                    switch key.order(values[a][position], values[b][position]) {
                    case .orderedAscending: return true
                    case .orderedDescending: return false
                    case .orderedSame: continue
                    }
                }
                return storeOrder(a, b)
            }
            order = Self.sorted(found.indices, wanted: wanted, by: before)
        }
        // Already in order (the common case): the page is a slice of what was found.
        if order.elementsEqual(found.indices) { return found[page(found.count)] }
        return ArraySlice(order[page(order.count)].map { found[$0] })
    }

    /// The positions in order, stable (equal ones keep their order): a bounded heap of the
    /// `wanted` first when that is far fewer than all, else a sort, unless they are in
    /// order already, which one pass tells.
    private static func sorted(_ positions: Range<Int>, wanted: Int?, by before: (Int, Int) -> Bool) -> [Int] {
        if positions.dropFirst().allSatisfy({ !before($0, $0 - 1) }) { return Array(positions) }
        if let wanted, wanted < positions.count / 8 { return positions.smallest(wanted, by: before) }
        return positions.sorted { a, b in before(a, b) || (!before(b, a) && a < b) }
    }
}

extension Collection {
    /// The `count` smallest elements in order, with a bounded heap: `n log count` rather
    /// than sorting all `n`. Equal elements keep their order.
    func smallest(_ count: Int, by before: (Element, Element) -> Bool) -> [Element] {
        guard count > 0 else { return [] }
        // A max-heap of (element, position): the root is the largest kept so far.
        var heap: [(element: Element, position: Int)] = []
        heap.reserveCapacity(count)
        func larger(_ a: (element: Element, position: Int), _ b: (element: Element, position: Int)) -> Bool {
            before(b.element, a.element) || (!before(a.element, b.element) && a.position > b.position)
        }
        func siftDown(_ start: Int) {
            var parent = start
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var largest = parent
                if left < heap.count, larger(heap[left], heap[largest]) { largest = left }
                if right < heap.count, larger(heap[right], heap[largest]) { largest = right }
                if largest == parent { return }
                heap.swapAt(parent, largest)
                parent = largest
            }
        }
        for (position, element) in enumerated() {
            let item = (element: element, position: position)
            if heap.count < count {
                heap.append(item)
                var child = heap.count - 1
                while child > 0 {
                    let parent = (child - 1) / 2
                    guard larger(heap[child], heap[parent]) else { break }
                    heap.swapAt(child, parent)
                    child = parent
                }
            } else if larger(heap[0], item) {
                heap[0] = item
                siftDown(0)
            }
        }
        return heap.sorted { larger($1, $0) }.map(\.element)
    }
}
