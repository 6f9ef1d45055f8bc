/// A stack whose top elements leave as a new array by moving, not copying.
///
/// The reader's pending values wait here until their container closes; moving
/// them into the container's array saves a retain and a release per element over
/// `Array(slice)` followed by `removeSubrange`.
struct MoveStack<Element>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    mutating func append(_ element: consuming Element) {
        if count == capacity {
            let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
            larger.moveInitialize(from: base, count: count)
            base.deallocate()
            base = larger
            capacity *= 2
        }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Removes the elements from `start` up and returns them, in order.
    mutating func popArray(from start: Int) -> [Element] {
        let moving = count - start
        let source = base + start
        count = start
        return [Element](unsafeUninitializedCapacity: moving) { buffer, initialized in
            buffer.baseAddress?.moveInitialize(from: source, count: moving)
            initialized = moving
        }
    }
}

extension MoveStack where Element == JSONObject.Member {
    /// The key of a pending member, for duplicate checks.
    func key(at index: Int) -> String { base[index].key }
}
