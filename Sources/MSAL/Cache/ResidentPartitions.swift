import Foundation
import Locking

/// The partitions a ``PartitionedTokenCache`` holds in memory, within a bound on their bytes.
///
/// An object apart from the cache because each partition's link reports its size here through a weak reference,
/// and a weak reference gives its target a side table that makes every retain of it slower: the cache itself,
/// retained on every call, stays without one.
final class ResidentPartitions: Sendable {
    struct Slot {
        let cache: TokenCache
        let link: PartitionLink
        var bytes = 0
        var expiresOn: Date?
        var lastUse: UInt64
    }

    private struct State {
        var slots: [TokenCachePartition: Slot] = [:]
        var bytes = 0
        var uses: UInt64 = 0
    }

    /// The bound on the bytes of partitions kept.
    let maximumBytes: Int
    private let state = Locked(State())

    init(maximumBytes: Int) {
        self.maximumBytes = maximumBytes
    }

    /// How many partitions are in memory.
    var count: Int { state.withLock { $0.slots.count } }

    /// How many bytes of partitions are in memory.
    var bytes: Int { state.withLock { $0.bytes } }

    /// The partition's slot unless it expired by `now`; else a new, empty one whose link `makeLink` makes from the
    /// function the link reports the partition's size and expiry to.
    func slot(
        for partition: TokenCachePartition, now: Date,
        makeLink: (_ measured: @escaping @Sendable (TokenCachePartition, Int, Date) -> Void) -> PartitionLink
    ) -> Slot {
        state.withLock { state in
            state.uses &+= 1
            if let index = state.slots.index(forKey: partition) {
                let slot = state.slots.values[index]
                if slot.expiresOn.map({ $0 > now }) ?? true {
                    state.slots.values[index].lastUse = state.uses
                    return slot
                }
            }
            if let expired = state.slots.removeValue(forKey: partition) { state.bytes -= expired.bytes }
            let link = makeLink { [weak self] in self?.measured($0, bytes: $1, expiresOn: $2) }
            let slot = Slot(cache: TokenCache(persistence: link), link: link, lastUse: state.uses)
            state.slots[partition] = slot
            return slot
        }
    }

    /// Records a partition's size and expiry after a load or save, and keeps memory within its bound.
    private func measured(_ partition: TokenCachePartition, bytes: Int, expiresOn: Date) {
        state.withLock { state in
            guard let slot = state.slots[partition] else { return }
            state.bytes += bytes - slot.bytes
            state.slots[partition]!.bytes = bytes
            state.slots[partition]!.expiresOn = expiresOn
            guard state.bytes > maximumBytes else { return }
            // Down to 90% of the bound at once, least recently used first, so eviction is not paid per write.
            let target = maximumBytes / 10 * 9
            for (key, old) in state.slots.sorted(by: { $0.value.lastUse < $1.value.lastUse }) where key != partition {
                guard state.bytes > target else { break }
                state.slots[key] = nil
                state.bytes -= old.bytes
            }
        }
    }
}
