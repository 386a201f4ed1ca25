/// The `groups` claim as Entra puts it in a JWT: the group object ids, up to 200; past that the overage form, which
/// names where the whole list is (Graph's `getMemberObjects` for the token's subject) instead of carrying it
/// (learn.microsoft.com, "How to get the signed-in user group list when a group overage claim is displayed in access
/// tokens": 200 for JWTs).
enum GroupsClaim {
    /// The most groups a JWT carries.
    static let limit = 200

    /// The claims for `groups` of the directory object `objectID`, Graph served at `origin`.
    static func claims(_ groups: [String], objectID: String, origin: String) -> [(String, JSONValue)] {
        guard groups.count > limit else { return [("groups", .array(groups.map(JSONValue.string)))] }
        let endpoint = "\(origin)/v1.0/users/\(objectID)/getMemberObjects"
        return [
            ("_claim_names", .object([("groups", .string("src1"))])),
            ("_claim_sources", .object([("src1", .object([("endpoint", .string(endpoint))]))])),
        ]
    }
}
