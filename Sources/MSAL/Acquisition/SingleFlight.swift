/// Runs at most one operation per key at a time; callers arriving meanwhile share its result.
actor SingleFlight<Value: Sendable> {
    private var running: [String: Task<Value, any Error>] = [:]

    /// The result of the operation running under `key`, or of `operation`, started now.
    func run(_ key: String, _ operation: @escaping @Sendable () async throws -> Value) async throws -> Value {
        if let task = running[key] { return try await task.value }
        let task = Task { try await operation() }
        running[key] = task
        defer { running[key] = nil }
        return try await task.value
    }
}
