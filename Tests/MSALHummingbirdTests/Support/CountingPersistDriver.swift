import Hummingbird

/// A session store in memory that counts the values written to it.
actor CountingPersistDriver: PersistDriver {
    private let store = MemoryPersistDriver()
    /// How many values were created or set.
    private(set) var writes = 0

    func run() async throws { try await store.run() }

    func create<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?) async throws {
        writes += 1
        try await store.create(key: key, value: value, expires: expires)
    }

    func set<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?) async throws {
        writes += 1
        try await store.set(key: key, value: value, expires: expires)
    }

    func get<Object: Codable & Sendable>(key: String, as type: Object.Type) async throws -> Object? {
        try await store.get(key: key, as: type)
    }

    func remove(key: String) async throws { try await store.remove(key: key) }
}
