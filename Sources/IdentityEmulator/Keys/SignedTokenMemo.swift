import Locking

/// Remembers recently signed tokens by their exact signing input.
///
/// RS256 (RSASSA-PKCS1-v1_5) is deterministic, so signing the same header and payload twice yields the
/// same token: reusing it is invisible to clients and saves an RSA operation. ID tokens minted for
/// the same user, client and second (refresh grants under load) hit this; access tokens never do,
/// because each carries a unique `uti`.
final class SignedTokenMemo: Sendable {
    private let tokens = Locked<[String: String]>([:])
    private let capacity: Int

    init(capacity: Int = 4096) { self.capacity = capacity }

    /// The token for `input`, signing it with `sign` when not remembered.
    func token(for input: String, sign: (String) throws -> String) rethrows -> String {
        if let known = tokens.withLock({ $0[input] }) { return known }
        let token = try sign(input)
        tokens.withLock { memo in
            if memo.count >= capacity { memo.removeAll(keepingCapacity: true) }
            memo[input] = token
        }
        return token
    }
}
