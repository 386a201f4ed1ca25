import Foundation
import Testing

@testable import MSAL

/// The password grant's form, the user realm request and answer, and where the app's extra query parameters go.
@Suite("Wire: password grant, user realm, extra query parameters")
struct ExtraParametersWireTests {
    static let client = WireRequestTests.client

    @Test("password grant: username, password, decorated scopes, client_info, claims when present (§3.2)")
    func passwordForm() {
        let request = UsernamePasswordRequest(
            clientID: Self.client, username: "u@contoso.com", password: "p&ss word", scopes: ["User.Read"],
            claims: WireRequestTests.claims)
        #expect(request.grantType == "password")
        #expect(
            FormEncoding.encode(request.form)
                == "grant_type=password&client_id=\(Self.client)&username=u%40contoso.com&password=p%26ss%20word"
                + "&scope=User.Read%20openid%20profile%20offline_access&client_info=1"
                + "&claims=\(WireRequestTests.encodedClaims)")
    }

    @Test("user realm: GET /common/userrealm/{username}?api-version=1.0 on the authority's host (§1.5)")
    func userRealmURL() throws {
        let authority = try Authority("https://login.microsoftonline.com/contoso.onmicrosoft.com")
        #expect(
            UserRealm.url(authority: authority, username: "megan b@contoso.com").absoluteString
                == "https://login.microsoftonline.com/common/userrealm/megan%20b@contoso.com?api-version=1.0")
        #expect(UserRealm.loggedPath("/common/userrealm/megan@contoso.com") == "/common/userrealm/{username}")
        #expect(UserRealm.loggedPath("/common/UserRealm/megan@contoso.com") == "/common/UserRealm/{username}")
        #expect(UserRealm.loggedPath("/organizations/oauth2/v2.0/token") == "/organizations/oauth2/v2.0/token")
    }

    @Test("user realm answers: Managed, Federated with its WS-Trust endpoint, and bodies that are not one")
    func userRealmAnswers() throws {
        let managed = try #require(
            UserRealm(json: Data(#"{"ver":"1.0","account_type":"Managed","domain_name":"contoso.com"}"#.utf8)))
        #expect(!managed.isFederated)
        let federated = try #require(
            UserRealm(
                json: Data(
                    #"{"account_type":"Federated","domain_name":"fabrikam.com","federation_active_auth_url":"https://sts.fabrikam.com/adfs/services/trust/2005/usernamemixed"}"#
                        .utf8)))
        #expect(federated.isFederated)
        #expect(federated.domainName == "fabrikam.com")
        #expect(federated.federationActiveAuthURL?.hasPrefix("https://sts.fabrikam.com/") == true)
        #expect(UserRealm(json: Data(#"{"error":"not_found"}"#.utf8)) == nil)
        #expect(UserRealm(json: Data("<html></html>".utf8)) == nil)
    }

    @Test("extra query parameters: appended in name order after the URL's own query, none leaves the URL as it is")
    func appending() throws {
        let token = try #require(URL(string: "https://login.microsoftonline.com/common/oauth2/v2.0/token"))
        #expect(ExtraQueryParameters.appending([:], to: token) == token)
        #expect(
            ExtraQueryParameters.appending(["slice": "test slice", "dc": "ESTS-PUB"], to: token).absoluteString
                == token.absoluteString + "?dc=ESTS-PUB&slice=test%20slice")
        let withQuery = try #require(URL(string: "https://host/path?a=1"))
        #expect(ExtraQueryParameters.appending(["b": "2"], to: withQuery).absoluteString == "https://host/path?a=1&b=2")
    }
}

/// MSAL for iOS/macOS's parameters carry the extra scopes and query parameters into the library's.
@Suite("Compatibility: extra scopes and query parameters")
struct CompatibilityExtraParametersTests {
    @Test("MSALInteractiveTokenParameters' extraScopesToConsent and extraQueryParameters reach the core parameters")
    func interactive() {
        let parameters = MSALInteractiveTokenParameters(scopes: ["User.Read"])
        parameters.extraScopesToConsent = ["Mail.Read"]
        parameters.extraQueryParameters = ["slice": "testslice"]
        parameters.domainHint = "contoso.com"
        let core = parameters.coreParameters()
        #expect(core.scopes == ["User.Read"])
        #expect(core.extraScopesToConsent == ["Mail.Read"])
        #expect(core.extraQueryParameters == ["slice": "testslice"])
        #expect(core.domainHint == "contoso.com")
    }
}
