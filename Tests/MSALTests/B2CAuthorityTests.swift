import Foundation
import Testing

@testable import MSAL

@Suite("B2C authorities: forms, detection and knownAuthorities")
struct B2CAuthorityTests {
    @Test(
        "a B2C policy is found by its host, the /tfp/ form or a B2C_ policy segment; the tenant is the directory",
        arguments: [
            ("https://fabrikamb2c.b2clogin.com/fabrikamb2c.onmicrosoft.com/B2C_1_susi", "fabrikamb2c.onmicrosoft.com"),
            (
                "https://fabrikamb2c.b2clogin.com/tfp/fabrikamb2c.onmicrosoft.com/B2C_1_susi",
                "fabrikamb2c.onmicrosoft.com"
            ),
            ("https://login.contoso.com/contoso.onmicrosoft.com/B2C_1A_signin", "contoso.onmicrosoft.com"),
            ("http://127.0.0.1:8400/fabrikamb2c.onmicrosoft.com/B2C_1_signupsignin", "fabrikamb2c.onmicrosoft.com"),
        ])
    func detection(url: String, tenant: String) throws {
        let authority = try Authority(url)
        #expect(authority.kind == .b2c)
        #expect(authority.tenant == tenant)
    }

    @Test("a custom domain whose policy has another name is B2C when knownAuthorities lists it as one")
    func customDomain() throws {
        let url = "https://login.contoso.com/contoso.onmicrosoft.com/signin"
        #expect(try Authority(url).kind == .oidc)
        var configuration = try PublicClientApplicationConfiguration(clientID: "client", authority: Authority(url))
        #expect(ClientSettings(configuration).authority.kind == .oidc)
        configuration.knownAuthorities = [try Authority(url, kind: .b2c)]
        let settings = ClientSettings(configuration)
        #expect(settings.authority.kind == .b2c)
        #expect(settings.authority.tenant == "contoso.onmicrosoft.com")
        #expect(settings.authority.url.absoluteString == url)
        let profile = try Authority("https://login.contoso.com/contoso.onmicrosoft.com/profile")
        #expect(settings.authority(profile).kind == .b2c)
        #expect(settings.authority(nil).url == settings.authority.url)
        let elsewhere = try Authority("https://login.fabrikam.com/fabrikam.onmicrosoft.com/signin")
        #expect(settings.authority(elsewhere).kind == .oidc)
    }

    @Test("the B2C description code: AADB2C90118 asks for the password reset flow")
    func errorCode() {
        let reset = MSALError(
            .userCanceled, "AADB2C90118: The user has forgotten their password.\r\nCorrelation ID: x",
            oauthError: "access_denied")
        #expect(reset.b2cErrorCode == "AADB2C90118")
        #expect(reset.isB2CPasswordResetRequested)
        let cancelled = MSALError(.userCanceled, "AADB2C90091: The user has cancelled.", oauthError: "access_denied")
        #expect(cancelled.b2cErrorCode == "AADB2C90091")
        #expect(!cancelled.isB2CPasswordResetRequested)
        #expect(MSALError(.userCanceled, "the user canceled the authentication").b2cErrorCode == nil)
    }
}
