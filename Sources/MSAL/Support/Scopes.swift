/// Scope lists as MSAL treats them: case-insensitive, order-preserving, with the reserved OIDC scopes.
enum Scopes {
    /// Added to every user request; never counted as declined.
    static let reserved = ["openid", "profile", "offline_access"]
    /// The OpenID Connect scopes, lower-cased: they name no resource.
    static let oidc: Set<String> = ["openid", "profile", "offline_access", "email"]

    /// The requested scopes plus `openid profile offline_access`, without duplicates (case-insensitive).
    static func decorated(_ scopes: [String]) -> [String] {
        union(scopes.filter { !$0.isEmpty }, reserved)
    }

    /// The `scope` parameter a request sends: the decorated scopes, space-separated.
    static func parameter(_ scopes: [String]) -> String {
        decorated(scopes).joined(separator: " ")
    }

    static func union(_ a: [String], _ b: [String]) -> [String] {
        var out: [String] = []
        var seen = Set<String>()
        for scope in a + b where seen.insert(scope.lowercased()).inserted { out.append(scope) }
        return out
    }

    /// True when every scope of `requested` is in `granted` (lower-cased, and possibly also as written),
    /// ignoring case and the reserved scopes; a Graph scope matches in its short and URI forms (`User.Read`,
    /// `https://graph.microsoft.com/User.Read`).
    static func isSubset(_ requested: [String], of granted: Set<String>) -> Bool {
        requested.allSatisfy { scope in
            if granted.contains(scope) { return true }
            let lower = scope.lowercasedIfNeeded
            guard !reserved.contains(lower), !granted.contains(lower) else { return true }
            let short = normalizedGraph(lower)
            return graphPrefixes.contains { granted.contains($0 + short) } || granted.contains(short)
        }
    }

    static func lowercasedSet(_ scopes: [String]) -> Set<String> { Set(scopes.map { $0.lowercased() }) }

    /// The scopes of a space-separated list (a cached token's `target`, a response's `scope`, an access token's
    /// `scp`), split on its bytes: scope tokens are ASCII (RFC 6749 §3.3), and splitting by `Character` only costs
    /// more.
    static func split(_ list: String) -> [String] {
        list.utf8.split(separator: UInt8(ascii: " ")).map { String(Substring($0)) }
    }

    /// Requested scopes the server did not grant; a short Graph name matches its URI form and back.
    static func declined(requested: [String], granted: [String]) -> [String] {
        let grantedSet = Set(granted.map { normalizedGraph($0) })
        return requested.filter { scope in
            !reserved.contains(scope.lowercased()) && scope.lowercased() != "email"
                && !grantedSet.contains(normalizedGraph(scope))
        }
    }

    private static let graphPrefixes = ["https://graph.microsoft.com/", "00000003-0000-0000-c000-000000000000/"]

    private static func normalizedGraph(_ scope: String) -> String {
        let lower = scope.lowercased()
        for prefix in graphPrefixes where lower.hasPrefix(prefix) {
            return String(lower.dropFirst(prefix.count))
        }
        return lower
    }
}
