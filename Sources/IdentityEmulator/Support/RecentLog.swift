/// The most recent `capacity` items, oldest first. A ring buffer: appending to a full log overwrites
/// the oldest item in O(1), where removing an array's first element would move all the others.
struct RecentLog<Element: Sendable>: Sendable, Sequence {
    let capacity: Int
    private var storage: [Element] = []
    /// Where the oldest item is once the log is full (before that, 0).
    private var oldest = 0

    init(capacity: Int) {
        precondition(capacity > 0, "a log keeps at least one item")
        self.capacity = capacity
    }

    var count: Int { storage.count }

    mutating func append(_ item: Element) {
        if storage.count < capacity {
            storage.append(item)
        } else {
            storage[oldest] = item
            oldest = (oldest + 1) % capacity
        }
    }

    func makeIterator() -> IndexingIterator<[Element]> {
        (Array(storage[oldest...]) + storage[..<oldest]).makeIterator()
    }
}
