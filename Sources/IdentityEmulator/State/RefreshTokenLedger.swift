import Foundation

/// The refresh tokens issued, each kept for its 90-day lifetime, and at most
/// ``maximumPerFamily`` per user and client: issuing one more forgets that pair's least recently used, so
/// a client that refreshes a million times holds a hundred tokens, not a million, and a token still in use
/// (one a load test repeats) is never the one forgotten. (Entra sets no documented
/// count; an old token redeemed after it was forgotten gets `invalid_grant`, as a revoked one would.)
struct RefreshTokenLedger: Sendable {
    static let lifetime: TimeInterval = 90 * 86_400
    static let maximumPerFamily = 100

    private var grants = ExpiringMap<RefreshTokenGrant>()
    /// Each user and client's tokens, least recently used first (some may have expired since).
    private var families: [String: [String]] = [:]

    var count: Int { grants.count }

    subscript(token: String) -> RefreshTokenGrant? { grants[token] }

    /// The tokens issued to the user `userID` (lowercased), for every client, with their grants.
    func tokens(userID: String) -> [(token: String, grant: RefreshTokenGrant)] {
        families.filter { $0.key.hasPrefix(userID + "|") }.values.flatMap { tokens in
            tokens.compactMap { token in grants[token].map { (token, $0) } }
        }
    }

    /// Forgets expired tokens when it is time (``ExpiringMap/sweepIfDue(now:)``), and the lists of forgotten ones.
    mutating func sweepIfDue(now: Date) {
        let before = grants.count
        grants.sweepIfDue(now: now)
        guard grants.count < before else { return }
        families = families.compactMapValues { tokens in
            let live = tokens.filter { grants[$0] != nil }
            return live.isEmpty ? nil : live
        }
    }

    /// Marks `token` as just used, so it is the last of its family to be forgotten.
    mutating func touch(_ token: String, of grant: RefreshTokenGrant) {
        let family = Self.family(grant)
        guard let i = families[family]?.lastIndex(of: token), i != families[family]!.count - 1 else { return }
        families[family]!.remove(at: i)
        families[family]!.append(token)
    }

    private static func family(_ grant: RefreshTokenGrant) -> String {
        "\(grant.userID.lowercased())|\(grant.clientID.lowercased())"
    }

    mutating func insert(_ grant: RefreshTokenGrant, token: String) {
        grants.insert(grant, for: token, keepUntil: grant.issuedAt.addingTimeInterval(Self.lifetime))
        let family = Self.family(grant)
        families[family, default: []].append(token)
        if families[family]!.count > Self.maximumPerFamily { grants.remove(families[family]!.removeFirst()) }
    }
}
