import Crypto
import Foundation

/// Proof Key for Code Exchange (RFC 7636) with the S256 method.
struct PKCE: Sendable, Equatable {
    /// 43 characters of base64url (32 random bytes), as MSAL Go and MSAL ObjC make it.
    let verifier: String

    init(verifier: String) { self.verifier = verifier }

    init(random: any RandomSource) { verifier = Base64URL.encode(random.bytes(32)) }

    /// `BASE64URL(SHA256(ASCII(verifier)))` (RFC 7636 §4.2).
    var challenge: String { Base64URL.encode(SHA256.hash(data: Data(verifier.utf8))) }

    static let method = "S256"
}
