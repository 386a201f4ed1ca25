import Foundation

/// A dictionary whose entries are kept until a retention time, so an emulator left running for weeks
/// holds only what is still live: ``sweepIfDue(now:)``, which its owner calls before each insert, drops
/// expired entries when the map has doubled since the last sweep or a minute of emulator time has passed,
/// whichever comes first (amortised O(1) per insert).
///
/// An entry past its retention may still be read until the next sweep; callers check their own
/// expiry (an expired code answers "expired", not "unknown", for as long as it is kept).
struct ExpiringMap<Value: Sendable>: Sendable {
    /// Emulator time between sweeps when the map grows slowly.
    static var sweepInterval: TimeInterval { 60 }

    private var entries: [String: (value: Value, keepUntil: Date)] = [:]
    private var sweepAtCount = 1024
    private var nextSweep = Date.distantPast

    var count: Int { entries.count }

    subscript(key: String) -> Value? { entries[key]?.value }

    /// The value under `key` unless its retention has passed.
    func value(_ key: String, now: Date) -> Value? {
        guard let entry = entries[key], entry.keepUntil > now else { return nil }
        return entry.value
    }

    /// Every value whose retention has not passed (a walk over them all, for the dashboard).
    func values(now: Date) -> [Value] { entries.values.filter { $0.keepUntil > now }.map(\.value) }

    /// Stores `value` under `key` until `keepUntil`.
    mutating func insert(_ value: Value, for key: String, keepUntil: Date) {
        entries[key] = (value, keepUntil)
    }

    /// Changes a kept value in place; false when there is none.
    @discardableResult
    mutating func update(_ key: String, _ change: (inout Value) -> Void) -> Bool {
        guard var entry = entries[key] else { return false }
        change(&entry.value)
        entries[key] = entry
        return true
    }

    @discardableResult
    mutating func remove(_ key: String) -> Value? { entries.removeValue(forKey: key)?.value }

    /// Changes every kept value in place (a revocation's scan of the sessions).
    mutating func updateEach(_ change: (inout Value) -> Void) {
        for key in entries.keys { change(&entries[key]!.value) }
    }

    /// Drops expired entries if the map doubled since the last sweep or ``sweepInterval`` passed.
    mutating func sweepIfDue(now: Date) {
        guard entries.count >= sweepAtCount || now >= nextSweep else { return }
        entries = entries.filter { $0.value.keepUntil > now }
        sweepAtCount = max(1024, entries.count * 2)
        nextSweep = now.addingTimeInterval(Self.sweepInterval)
    }
}
