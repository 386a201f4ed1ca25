import Foundation
import IdentityEmulator
import Testing

/// The password grant's refusals as Entra gives them (MFA, federated users), the user realm of a federated
/// domain, and home-realm discovery by `domain_hint` on the sign-in pages.
@Suite("Password grant, user realm and domain_hint")
struct PasswordGrantAndHomeRealmTests {
    @Test("the user realm of a federated domain is Federated with its WS-Trust endpoints; others are Managed")
    func userRealm() async throws {
        try await TestEmulator.with { emulator in
            let federated = try await emulator.get("/common/userrealm/pat@fabrikam.com?api-version=1.0").json
            #expect(federated["account_type"] as? String == "Federated")
            #expect(federated["domain_name"] as? String == "fabrikam.com")
            #expect(federated["federation_protocol"] as? String == "WSTrust")
            #expect(
                federated["federation_active_auth_url"] as? String
                    == "https://sts.fabrikam.com/adfs/services/trust/2005/usernamemixed")
            #expect(
                federated["federation_metadata_url"] as? String == "https://sts.fabrikam.com/adfs/services/trust/mex")
            #expect(federated["cloud_audience_urn"] as? String == "urn:federation:MicrosoftOnline")
            let managed = try await emulator.get("/common/UserRealm/MeganB@contoso.onmicrosoft.com?api-version=1.0")
                .json
            #expect(managed["account_type"] as? String == "Managed")
            #expect(managed["federation_active_auth_url"] == nil)
        }
    }

    @Test("a federated user's password grant is refused as a wrong password, AADSTS50126")
    func federatedPassword() async throws {
        try await TestEmulator.with { emulator in
            let result = try await emulator.passwordGrant(user: "pat@fabrikam.com", password: "Any-Pass-1")
            #expect(result.status == 400)
            #expect(try result.string("error") == "invalid_grant")
            #expect(try result.json["error_codes"] as? [Int] == [50126])
        }
    }

    @Test("a user who must pass MFA gets invalid_grant AADSTS50076 with suberror basic_action, after the password")
    func multifactorUser() async throws {
        try await TestEmulator.with { emulator in
            let tenant = "contosocustomers.onmicrosoft.com"
            let result = try await emulator.passwordGrant(
                user: emulator.ids.mfaUser, password: emulator.ids.mfaUserPassword,
                client: emulator.ids.externalPublicClient,
                tenant: tenant)
            #expect(result.status == 400)
            #expect(try result.string("error") == "invalid_grant")
            #expect(try result.string("suberror") == "basic_action")
            #expect(try result.json["error_codes"] as? [Int] == [50076])
            let wrong = try await emulator.passwordGrant(
                user: emulator.ids.mfaUser, password: "wrong", client: emulator.ids.externalPublicClient, tenant: tenant
            )
            #expect(try wrong.json["error_codes"] as? [Int] == [50126])
        }
    }

    @Test("domain_hint naming a tenant's domain goes straight to that tenant's sign-in")
    func tenantDomainHint() async throws {
        try await TestEmulator.with { emulator in
            let browser = ScriptedBrowser(emulator)
            var request = AuthorizationRequest()
            request.domainHint = "contoso.onmicrosoft.com"
            let page = try await browser.page(emulator.url(request.path))
            #expect(page.text(id: "organization") == "Contoso")
            let location = try await browser.submitForRedirect(
                page, button: "signin",
                fields: ["username": "MeganB@contoso.onmicrosoft.com", "password": "Megan-Demo-Pass1"])
            #expect(redirectParameters(location)["code"] != nil)
        }
    }

    @Test("domain_hint naming a federated domain shows where the browser would be sent; the user may sign in here")
    func federatedDomainHint() async throws {
        try await TestEmulator.with { emulator in
            let browser = ScriptedBrowser(emulator)
            var request = AuthorizationRequest()
            request.domainHint = "fabrikam.com"
            let page = try await browser.page(emulator.url(request.path))
            #expect(page.text(id: "destination") == "https://sts.fabrikam.com/adfs/ls/")
            #expect(page.contains("Fabrikam"))
            let signIn = try await browser.submitForPage(page, button: "other")
            #expect(signIn.text(id: "organization") == nil)
            #expect(signIn.forms.contains { $0.buttons.contains { $0.id == "signin" } })
        }
    }

    @Test("an unknown domain_hint says no organisation signs in with it; without one the sign-in page is as before")
    func unknownDomainHint() async throws {
        try await TestEmulator.with { emulator in
            let browser = ScriptedBrowser(emulator)
            var request = AuthorizationRequest()
            request.domainHint = "unknown.example"
            let page = try await browser.page(emulator.url(request.path))
            #expect(page.text(id: "home-realm")?.hasPrefix("No organisation signs in with unknown.example") == true)
            #expect(page.text(id: "destination") == nil)
            let plain = try await ScriptedBrowser(emulator).page(emulator.url(AuthorizationRequest().path))
            #expect(plain.text(id: "home-realm") == nil)
            #expect(plain.text(id: "organization") == nil)
        }
    }
}
