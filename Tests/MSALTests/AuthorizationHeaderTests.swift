import MSAL
import Testing

/// The `Authorization` header as both integrations read it: the Bearer scheme in any case, the token without the
/// spaces around it, nothing for another scheme.
@Suite("Authorization header")
struct AuthorizationHeaderTests {
    @Test(
        "a bearer token is found whatever the scheme's case and the spaces around it",
        arguments: [
            ("Bearer abc.def.ghi", "abc.def.ghi"), ("bearer abc", "abc"), ("BEARER abc", "abc"),
            ("Bearer    abc   ", "abc"), ("Bearer a b", "a b"),
        ])
    func found(header: String, token: String) {
        #expect(AuthorizationHeader.bearerToken(header) == token[...])
    }

    @Test(
        "another scheme, no token, or no header: none",
        arguments: [nil, "", "Bearer", "Bearer ", "Bearer     ", "Basic abc", "Bearerx abc", "Bear abc", " Bearer abc"])
    func none(header: String?) {
        #expect(AuthorizationHeader.bearerToken(header) == nil)
    }
}
