import IdentityEmulator

extension TestEmulator {
    /// Signs Megan in through the pages (credentials, then consent if asked) and returns the redirect.
    func signInInteractively(
        _ request: AuthorizationRequest, browser: ScriptedBrowser,
        user: String = "MeganB@contoso.onmicrosoft.com", password: String = "Megan-Demo-Pass1"
    ) async throws -> String {
        var outcome = try await browser.open(request.path)
        while case .page(let page) = outcome {
            if page.forms.contains(where: { $0.buttons.contains { $0.id == "signin" } }) {
                outcome = try await browser.submit(
                    page, button: "signin", fields: ["username": user, "password": password])
            } else if page.forms.contains(where: { $0.buttons.contains { $0.id == "accept" } }) {
                outcome = try await browser.submit(page, button: "accept")
            } else if page.forms.contains(where: { $0.buttons.contains { $0.id == "continue" } }) {
                return page.html
            } else {
                throw TestFailure("unexpected page:\n\(page.html)")
            }
        }
        guard case .redirect(let location) = outcome else { throw TestFailure("no redirect") }
        return location
    }

    /// Interactive sign-in plus code redemption: the token response.
    func authorizationCodeTokens(_ request: AuthorizationRequest, browser: ScriptedBrowser) async throws -> HTTPResult {
        let location = try await signInInteractively(request, browser: browser)
        guard let code = redirectParameters(location)["code"] else { throw TestFailure("no code in \(location)") }
        return try await token(request.tenant, request.redemption(code: code))
    }
}
