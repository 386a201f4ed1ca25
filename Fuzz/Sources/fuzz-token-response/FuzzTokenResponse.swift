// The token endpoint's answer: `TokenResponse(json:)`, `OAuthErrorResponse(json:)` and its mapping to
// `MSALError`, the `client_info` inside a response (`ClientInfo(encoded:)`), and the device
// authorization answer (`DeviceCodeInfo(json:)`), for any body (JSON, HTML, truncated, binary).
import Foundation
import FuzzSupport

@testable import MSAL

@main
enum FuzzTokenResponse {
    static func main() { runFuzzer(fuzzTokenResponse) }
}

func fuzzTokenResponse(_ body: Data) {
    if let response = try? TokenResponse(json: body) {
        invariant(!response.accessToken.isEmpty, "a token response has an access token")
        invariant(response.tokenType.caseInsensitiveCompare("Bearer") == .orderedSame, "a token response is Bearer")
        invariant((try? TokenResponse(json: body)) == response, "decoding is deterministic")
        if let encoded = response.clientInfo, let info = try? ClientInfo(encoded: encoded) {
            invariant(!info.uid.isEmpty && !info.utid.isEmpty, "client_info has a uid and a utid")
            invariant(info.homeAccountID == "\(info.uid).\(info.utid)", "the home account id is uid.utid")
        }
        if let idToken = response.idToken { _ = try? JWT(idToken) }
    }
    if let oauth = OAuthErrorResponse(json: body) {
        for status in [400, 401, 429, 500] {
            let error = oauth.msalError(httpStatus: status, correlationID: nil)
            invariant(error.oauthError == oauth.error, "the OAuth error string is kept")
            invariant(error.httpStatus == status, "the HTTP status is kept")
            invariant(error.stsErrorCodes == oauth.errorCodes, "the STS error codes are kept")
        }
    }
    if let info = try? DeviceCodeInfo(json: body) { _ = info }
}
