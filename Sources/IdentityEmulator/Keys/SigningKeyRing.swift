import Foundation
import Locking

/// The keys the emulator publishes in its JWKS, newest first: tokens are signed with the newest, and every
/// published key still verifies, as when Entra rolls its keys over (`POST /_emulator/keys/rotate`).
final class SigningKeyRing: Sendable {
    /// How many keys stay published: the current one and the one before.
    static let published = 2

    private let keys: Locked<[SigningKey]>

    init(_ key: SigningKey) { keys = Locked([key]) }

    /// The key new tokens are signed with.
    var current: SigningKey { keys.withLock { $0[0] } }

    /// Every published key, newest first.
    var all: [SigningKey] { keys.withLock { $0 } }

    /// The published key named `kid`.
    func key(kid: String) -> SigningKey? { keys.withLock { $0.first { $0.kid == kid } } }

    /// Starts signing with a new key; the previous one stays published, older ones are withdrawn.
    ///
    /// - Returns: the new key.
    func rotate(now: Date) throws -> SigningKey {
        let fresh = try SigningKey.generate(now: now)
        keys.withLock { $0 = Array(([fresh] + $0).prefix(Self.published)) }
        return fresh
    }

    /// Verifies a JWT signed with any published key (the one its `kid` names).
    func verify(_ token: String) throws -> JSONValue {
        guard let kid = JWT.keyID(token), let key = key(kid: kid) else { throw JWT.Rejection.badSignature }
        return try JWT.verify(token, with: key)
    }
}
