import WebText

/// The pages of B2C's password reset and profile edit user flows, posting to `/{tenant}/login` as the sign-in
/// pages do (``SignInPages``).
enum B2CPages {
    /// The password reset's first page: the account's email, to which a code is sent.
    static func passwordReset(action: String, flow: String, error: String?) -> String {
        HTML.page(
            title: "Reset your password",
            body: """
                <h1>Reset your password</h1>
                \(error.map { "<p class=\"error\" id=\"error\">\(HTMLText.escape($0))</p>" } ?? "")
                <form method="post" action="\(HTMLText.escape(action))">
                \(HTML.hidden("flow", flow))
                <label for="email">Email Address</label><input type="email" id="email" name="email">
                <button class="primary" type="submit" name="action" value="reset-start" id="sendcode">Send verification code</button>
                <button type="submit" name="action" value="cancel" id="cancel">Cancel</button>
                </form>
                """)
    }

    /// The password reset's second page: the code sent to `email` and the new password.
    static func passwordResetVerify(action: String, flow: String, email: String, error: String?) -> String {
        HTML.page(
            title: "Reset your password",
            body: """
                <h1>Reset your password</h1>
                <p>Enter the verification code we sent to \(HTMLText.escape(email)) and a new password.</p>
                \(error.map { "<p class=\"error\" id=\"error\">\(HTMLText.escape($0))</p>" } ?? "")
                <form method="post" action="\(HTMLText.escape(action))">
                \(HTML.hidden("flow", flow))
                <label for="code">Verification code</label><input type="text" id="code" name="code" inputmode="numeric" autocomplete="one-time-code">
                <label for="newPassword">New Password</label><input type="password" id="newPassword" name="newPassword" autocomplete="new-password">
                <button class="primary" type="submit" name="action" value="reset-verify" id="resetverify">Continue</button>
                <button type="submit" name="action" value="cancel" id="cancel">Cancel</button>
                </form>
                """)
    }

    /// The profile edit page: the signed-in user's display name.
    static func profileEdit(action: String, flow: String, displayName: String, error: String?) -> String {
        HTML.page(
            title: "Edit your profile",
            body: """
                <h1>Edit your profile</h1>
                \(error.map { "<p class=\"error\" id=\"error\">\(HTMLText.escape($0))</p>" } ?? "")
                <form method="post" action="\(HTMLText.escape(action))">
                \(HTML.hidden("flow", flow))
                <label for="displayName">Display Name</label><input type="text" id="displayName" name="displayName" value="\(HTMLText.escape(displayName))">
                <button class="primary" type="submit" name="action" value="profile-save" id="profilesave">Continue</button>
                <button type="submit" name="action" value="cancel" id="cancel">Cancel</button>
                </form>
                """)
    }
}
