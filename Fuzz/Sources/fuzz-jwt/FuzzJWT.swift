// JWT decoding (`JWT.init`), as ID tokens from token responses and from the cache reach it.
//
// Input: a mode byte, then the rest. Even mode: the rest is the token text. Odd mode: the rest is up
// to three newline-separated parts (header JSON, claims JSON, signature bytes), each base64url-encoded
// and joined with dots, so mutations reach the JSON and claim handling instead of dying in base64.
import Foundation
import FuzzSupport

@testable import MSAL

@main
enum FuzzJWT {
    static func main() { runFuzzer(fuzzJWT) }
}

func fuzzJWT(_ input: Data) {
    guard let mode = input.first else { return }
    let rest = input.dropFirst()
    let token =
        mode & 1 == 0
        ? String(decoding: rest, as: UTF8.self)
        : rest.split(separator: 0x0A, maxSplits: 2, omittingEmptySubsequences: false).map { Base64URL.encode($0) }
            .joined(separator: ".")
    guard let jwt = try? JWT(token) else { return }

    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    invariant(parts.count == 3, "a decoded JWT has three parts")
    invariant(jwt.signingInput == "\(parts[0]).\(parts[1])", "the signing input is the first two parts")
    invariant(Base64URL.decode(parts[2]) == jwt.signature, "the signature is the third part's bytes")
    invariant(Base64URL.decode(Base64URL.encode(jwt.signature)) == jwt.signature, "base64url round-trips the signature")
    if mode & 1 == 1 {
        let pieces = rest.split(separator: 0x0A, maxSplits: 2, omittingEmptySubsequences: false)
        invariant(pieces.count == 3 && jwt.signature == Data(pieces[2]), "the signature is the bytes that were encoded")
    }
    // Every accessor the library uses (ID token validation, account building) must answer for any claim.
    for name in jwt.claims.keys {
        _ = jwt.string(name)
        _ = jwt.numericDate(name)
    }
    for name in ["exp", "iat", "nbf", "oid", "sub", "tid", "nonce", "iss", "preferred_username"] {
        _ = jwt.string(name)
        _ = jwt.numericDate(name)
    }
    let audiences = jwt.audiences
    if let single = jwt.claims["aud"] as? String {
        invariant(audiences == [single], "a string aud is the only audience")
    }
    _ = jwt.header["alg"] as? String
    _ = jwt.header["kid"] as? String
}
