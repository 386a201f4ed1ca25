import WebText

/// The pages of the interactive sign-in: credentials, account picker, consent, sign-up, errors.
///
/// Every form posts to `/{tenant}/login` with a `flow` id and an `action`, so a person, headless
/// Chromium and a scripted HTTP client can all drive them.
enum SignInPages {
    /// The credentials page; `organization` names the tenant a `domain_hint` led to; `forgotPassword` adds a B2C
    /// sign-up or sign-in flow's "Forgot your password?" button.
    static func signIn(
        action: String, flow: String, appName: String, username: String?, error: String?,
        canSignUp: Bool, organization: String? = nil, forgotPassword: Bool = false
    ) -> String {
        HTML.page(
            title: "Sign in to your account",
            body: """
                <h1>Sign in</h1>
                \(organization.map { "<p id=\"organization\">\(HTMLText.escape($0))</p>" } ?? "")
                <p>to continue to <b>\(HTMLText.escape(appName))</b></p>
                \(error.map { "<p class=\"error\" id=\"error\">\(HTMLText.escape($0))</p>" } ?? "")
                <form method="post" action="\(HTMLText.escape(action))">
                \(HTML.hidden("flow", flow))
                <label for="username">Email, phone, or Skype</label>
                <input type="email" id="username" name="username" autocomplete="username" value="\(HTMLText.escape(username ?? ""))">
                <label for="password">Password</label>
                <input type="password" id="password" name="password" autocomplete="current-password">
                <button class="primary" type="submit" name="action" value="signin" id="signin">Sign in</button>
                <button type="submit" name="action" value="cancel" id="cancel">Cancel</button>
                </form>
                \(canSignUp ? "<form method=\"post\" action=\"\(HTMLText.escape(action))\">\(HTML.hidden("flow", flow))<button type=\"submit\" name=\"action\" value=\"signup\" id=\"signup\">No account? Create one</button></form>" : "")
                \(forgotPassword ? "<form method=\"post\" action=\"\(HTMLText.escape(action))\">\(HTML.hidden("flow", flow))<button type=\"submit\" name=\"action\" value=\"forgotpassword\" id=\"forgotpassword\">Forgot your password?</button></form>" : "")
                """)
    }

    static func accountPicker(
        action: String, flow: String, appName: String, accounts: [(id: String, name: String, upn: String)]
    ) -> String {
        let buttons = accounts.map { account in
            "<button type=\"submit\" name=\"account\" value=\"\(HTMLText.escape(account.id))\" class=\"account\">\(HTMLText.escape(account.name)) &lt;\(HTMLText.escape(account.upn))&gt;</button><br>"
        }.joined(separator: "\n")
        return HTML.page(
            title: "Pick an account",
            body: """
                <h1>Pick an account</h1>
                <p>to continue to <b>\(HTMLText.escape(appName))</b></p>
                <form method="post" action="\(HTMLText.escape(action))">
                \(HTML.hidden("flow", flow))\(HTML.hidden("action", "pick"))
                \(buttons)
                </form>
                <form method="post" action="\(HTMLText.escape(action))">
                \(HTML.hidden("flow", flow))
                <button type="submit" name="action" value="other" id="other">Use another account</button>
                <button type="submit" name="action" value="cancel" id="cancel">Cancel</button>
                </form>
                """)
    }

    static func consent(action: String, flow: String, appName: String, user: String, scopes: [String]) -> String {
        HTML.page(
            title: "Permissions requested",
            body: """
                <h1>Permissions requested</h1>
                <p><b>\(HTMLText.escape(appName))</b> would like to, for \(HTMLText.escape(user)):</p>
                <ul>\(scopes.map { "<li class=\"scope\">\(HTMLText.escape($0))</li>" }.joined())</ul>
                <form method="post" action="\(HTMLText.escape(action))">
                \(HTML.hidden("flow", flow))
                <button class="primary" type="submit" name="action" value="consent" id="accept">Accept</button>
                <button type="submit" name="action" value="cancel" id="cancel">Cancel</button>
                </form>
                """)
    }

    static func signUp(action: String, flow: String, appName: String, error: String?) -> String {
        HTML.page(
            title: "Create account",
            body: """
                <h1>Create account</h1>
                <p>for <b>\(HTMLText.escape(appName))</b></p>
                \(error.map { "<p class=\"error\" id=\"error\">\(HTMLText.escape($0))</p>" } ?? "")
                <form method="post" action="\(HTMLText.escape(action))">
                \(HTML.hidden("flow", flow))
                <label for="email">Email</label><input type="email" id="email" name="email">
                <label for="displayName">Name</label><input type="text" id="displayName" name="displayName">
                <label for="password">Password</label><input type="password" id="password" name="password">
                <button class="primary" type="submit" name="action" value="signup-start" id="next">Next</button>
                <button type="submit" name="action" value="cancel" id="cancel">Cancel</button>
                </form>
                """)
    }

    static func verifyEmail(action: String, flow: String, email: String, error: String?) -> String {
        HTML.page(
            title: "Verify email",
            body: """
                <h1>Verify your email</h1>
                <p>Enter the code we sent to \(HTMLText.escape(email)).</p>
                \(error.map { "<p class=\"error\" id=\"error\">\(HTMLText.escape($0))</p>" } ?? "")
                <form method="post" action="\(HTMLText.escape(action))">
                \(HTML.hidden("flow", flow))
                <label for="code">Code</label><input type="text" id="code" name="code" inputmode="numeric" autocomplete="one-time-code">
                <button class="primary" type="submit" name="action" value="signup-verify" id="verify">Verify</button>
                <button type="submit" name="action" value="cancel" id="cancel">Cancel</button>
                </form>
                """)
    }

    /// An error that must not redirect (unknown client, unregistered redirect URI).
    static func error(code: Int, message: String) -> String {
        HTML.page(
            title: "Sign in error",
            body: """
                <h1>Sorry, but we’re having trouble signing you in.</h1>
                <p class="error" id="error">AADSTS\(code): \(HTMLText.escape(message))</p>
                """)
    }

    /// The `form_post` response, titled as Microsoft's: an auto-submitting form, with a button for browsers without
    /// JavaScript.
    static func formPost(to redirectURI: String, fields: [(String, String)]) -> String {
        HTML.page(
            title: "Working...",
            body: """
                <form method="post" action="\(HTMLText.escape(redirectURI))">
                \(fields.map { HTML.hidden($0.0, $0.1) }.joined(separator: "\n"))
                <noscript><p>Script is disabled. Click Submit to continue.</p></noscript>
                <button type="submit" id="continue">Submit</button>
                </form>
                """, autoSubmit: true)
    }

    static func message(title: String, text: String) -> String {
        HTML.page(
            title: title, body: "<h1>\(HTMLText.escape(title))</h1><p id=\"message\">\(HTMLText.escape(text))</p>")
    }
}
