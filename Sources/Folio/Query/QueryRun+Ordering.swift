import FolioJSON
import Foundation

extension QueryRun {
    /// The page of the matches in the query's order: sorted by the keys (a bounded heap
    /// when a limit keeps few), ties and unsorted queries in store order.
    mutating func ordered(_ found: [Found], explanation: inout QueryExplanation) -> ArraySlice<Found> {
        var found = found
        let offset = max(query.offset, 0)
        let wanted = query.limit.map { offset + max($0, 0) }
        func storeOrder(_ a: Found, _ b: Found) -> Bool {
            switch (a.path, b.path) {
            case (let a?, let b?): a < b
            case (_?, nil): true
            default: false
            }
        }
        if query.sort.isEmpty {
            // Rows are collected in store order (the table's order, and the positions an
            // index or a day range gives are ascending); only pending documents can be out
            // of it, and only they are checked for: checking every pair copied (retained
            // and released) every document found.
            let inOrder = { found.indices.dropFirst().allSatisfy { !storeOrder(found[$0], found[$0 - 1]) } }
            if !foundPending || inOrder() {
                assert(inOrder(), "documents collected out of store order")
                // Already in order: the page is a slice of it.
            } else if let wanted, wanted < found.count / 8 {
                found = found.smallest(wanted, by: storeOrder)
            } else {
                found = stableSorted(found, by: storeOrder)
            }
        } else {
            explanation.sort = query.sort.map {
                "\($0.expression.queryText) \($0.ascending ? "ascending" : "descending")"
            }.joined(separator: ", ")
            // Keys a stage already has (the ordered index's walk) are not evaluated again.
            for index in found.indices where found[index].keys.count != query.sort.count {
                let identity = Catalog.Identity(entity: query.entity, id: found[index].id)
                found[index].keys = query.sort.map {
                    evaluation.value(of: $0.expression, on: identity, content: found[index].content)
                }
            }
            let keys = query.sort
            let before: (Found, Found) -> Bool = { a, b in
                for (position, key) in keys.enumerated() {
                    switch key.order(a.keys[position], b.keys[position]) {
                    case .orderedAscending: return true
                    case .orderedDescending: return false
                    case .orderedSame: continue
                    }
                }
                return storeOrder(a, b)
            }
            if let wanted, wanted < found.count / 8 {
                found = found.smallest(wanted, by: before)
            } else {
                found = stableSorted(found, by: before)
            }
        }
        let start = min(offset, found.count)
        let end = wanted.map { min($0, found.count) } ?? found.count
        return found[start..<max(start, end)]
    }

    private func stableSorted(_ found: [Found], by before: (Found, Found) -> Bool) -> [Found] {
        // Stable: equal keys keep the order they were found in.
        found.enumerated().sorted { a, b in
            before(a.element, b.element) || (!before(b.element, a.element) && a.offset < b.offset)
        }.map(\.element)
    }
}

extension Array {
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
