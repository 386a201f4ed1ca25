/// Claims to add to (or change in) the next access tokens issued to a user or to a client, as a test asks through
/// `POST /_emulator/claims`: each order serves `count` tokens, then goes.
struct ClaimsForNextTokens: Sendable {
    /// One order: whose tokens, which claims, how many more times.
    struct Order: Sendable, Decodable {
        /// A user (user principal name or object id): their delegated tokens, whatever the client.
        var user: String?
        /// A client id: its tokens, for a user or for itself.
        var client: String?
        /// The claims, replacing those of the same name.
        var claims: JSONValue
        /// How many tokens get them (1 unless told).
        var count: Int?
    }

    private struct Pending {
        let userID: String?
        let clientID: String?
        let claims: [(String, JSONValue)]
        var remaining: Int
    }

    private var pending: [Pending] = []

    /// Queues `claims` for the next `count` tokens of `userID` (an object id) or `clientID`.
    mutating func add(userID: String?, clientID: String?, claims: [(String, JSONValue)], count: Int) {
        pending.append(Pending(userID: userID, clientID: clientID?.lowercased(), claims: claims, remaining: count))
    }

    /// The claims queued for a token issued to `clientID`, for `userID` when it is a user's: every matching order's
    /// (later orders win), each used once.
    mutating func take(userID: String?, clientID: String) -> [(String, JSONValue)] {
        var claims: [(String, JSONValue)] = []
        for index in pending.indices {
            let order = pending[index]
            let forUser = order.userID.map { $0 == userID } ?? true
            let forClient = order.clientID.map { $0 == clientID.lowercased() } ?? true
            guard forUser, forClient else { continue }
            claims = TokenIssuer.merging(claims, order.claims)
            pending[index].remaining -= 1
        }
        pending.removeAll { $0.remaining <= 0 }
        return claims
    }

    /// How many orders are waiting.
    var count: Int { pending.count }
}
