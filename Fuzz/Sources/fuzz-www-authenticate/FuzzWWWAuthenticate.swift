// A resource's `WWW-Authenticate` header: `ClaimsChallenge(wwwAuthenticate:)` (claims challenges
// from continuous access evaluation and conditional access).
import Foundation
import FuzzSupport

@testable import MSAL

@main
enum FuzzWWWAuthenticate {
    static func main() { runFuzzer(fuzzWWWAuthenticate) }
}

func fuzzWWWAuthenticate(_ input: Data) {
    let header = String(decoding: input, as: UTF8.self)
    guard let challenge = ClaimsChallenge(wwwAuthenticate: header) else { return }
    invariant(header.contains("insufficient_claims"), "a claims challenge says insufficient_claims")
    invariant(
        (try? JSONSerialization.jsonObject(with: Data(challenge.claims.utf8))) is [String: Any],
        "the claims are a JSON object")
    invariant(ClaimsChallenge(wwwAuthenticate: header) == challenge, "parsing is deterministic")
}
