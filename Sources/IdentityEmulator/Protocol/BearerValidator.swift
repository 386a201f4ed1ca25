import Foundation
import Hummingbird

/// Validates the `Authorization: Bearer` access tokens presented to Graph and the sample APIs.
struct BearerValidator: Sendable {
    enum Failure: Error, Equatable {
        case missing
        case notAJWT
        case invalid
        case expired
        case wrongAudience
    }

    let keys: SigningKeyRing

    /// The token's claims when it is signed by the emulator, unexpired at `now`, and for one of `audiences`.
    func validate(_ request: Request, audiences: Set<String>, now: Date) -> Result<JSONValue, Failure> {
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer "),
            case let token = header.dropFirst(7).trimmingCharacters(in: .whitespaces), !token.isEmpty
        else { return .failure(.missing) }
        guard token.contains(".") else { return .failure(.notAJWT) }
        guard let claims = try? keys.verify(token) else { return .failure(.invalid) }
        guard let exp = claims["exp"]?.intValue, exp > now.epochSeconds else { return .failure(.expired) }
        guard let aud = claims["aud"]?.stringValue, audiences.contains(aud.lowercased()) else {
            return .failure(.wrongAudience)
        }
        return .success(claims)
    }

    /// The space-separated `scp` claim as a set.
    static func scopes(_ claims: JSONValue) -> Set<String> {
        Set((claims["scp"]?.stringValue ?? "").split(separator: " ").map { $0.lowercased() })
    }

    /// True for a token minted for a client that declared the `cp1` capability.
    static func isCAECapable(_ claims: JSONValue) -> Bool {
        guard case .array(let values)? = claims["xms_cc"] else { return false }
        return values.contains { $0.stringValue?.lowercased() == "cp1" }
    }
}
