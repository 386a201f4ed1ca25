import Locking

/// Remembers recently signed tokens by a key that determines their claims.
///
/// RS256 (RSASSA-PKCS1-v1_5) is deterministic, so signing the same header and payload twice yields the
/// same token: reusing it is invisible to clients and saves building the claims and an RSA operation.
/// ID tokens minted for the same user, client, nonce and second (refresh grants under load) hit this;
/// access tokens never do, because each carries a unique `uti`.
final class SignedTokenMemo: Sendable {
    private let tokens = Locked<[String: String]>([:])
    private let capacity: Int

    init(capacity: Int = 4096) { self.capacity = capacity }

    /// The token remembered for `key`, else the one `sign` makes (then remembered).
    func token(for key: String, sign: () throws -> String) rethrows -> String {
        if let known = tokens.withLock({ $0[key] }) { return known }
        let token = try sign()
        tokens.withLock { memo in
            if memo.count >= capacity { memo.removeAll(keepingCapacity: true) }
            memo[key] = token
        }
        return token
    }
}
