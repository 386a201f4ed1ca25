import Dispatch

/// Runs `first` and `second` at the same time, on two threads when the machine has two cores, and
/// returns both results once both are done. For CPU-bound steps of loading a large cache file.
func concurrently<A, B>(_ first: () -> A, _ second: () -> B) -> (A, B) {
    withoutActuallyEscaping(first) { first in
        withoutActuallyEscaping(second) { second in
            let firstResult = UnsafeMutablePointer<A>.allocate(capacity: 1)
            let secondResult = UnsafeMutablePointer<B>.allocate(capacity: 1)
            defer {
                firstResult.deallocate()
                secondResult.deallocate()
            }
            // Safe to share: each iteration runs one closure and initialises only its own result, and
            // `concurrentPerform` returns only after both iterations ended.
            nonisolated(unsafe) let (first, second, a, b) = (first, second, firstResult, secondResult)
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 { a.initialize(to: first()) } else { b.initialize(to: second()) }
            }
            return (firstResult.move(), secondResult.move())
        }
    }
}
